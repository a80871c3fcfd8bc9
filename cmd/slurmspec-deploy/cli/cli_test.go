package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/cmd/slurmspec-deploy/cli"
	"github.com/slurmspec/slurmspec/compiler/buildinfo"
)

// fakePulumi puts a pulumi that only answers `pulumi version` on PATH.
func fakePulumi(t *testing.T) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "pulumi"), []byte("#!/bin/sh\necho v3.274.1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
}

func TestRefusals(t *testing.T) {
	spec, err := filepath.Abs("../../../examples/a4-training.yaml")
	if err != nil {
		t.Fatal(err)
	}
	seed, err := filepath.Abs("../../../examples/seed.jsonc")
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	data, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte(strings.Replace(string(data), "login_node_pool_id: login", "login_node_pool_id: nosuchpool", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		setup func(t *testing.T)
		args  []string
		code  int
		want  string
	}{
		{name: "no stack", args: []string{"up", spec}, code: 2, want: "--stack is required"},
		{name: "no file", args: []string{"up", "--stack", "s"}, code: 2, want: "accepts 1 arg(s)"},
		{name: "lint errors", args: []string{"up", "--stack", "s", bad}, code: 1, want: "bad.yaml: not deployed: 1 error"},
		{name: "lint errors preview", args: []string{"preview", "--stack", "s", bad}, code: 1, want: "not deployed"},
		// Lint reports every problem of a spec with schema errors in one
		// run; deploy still refuses it, destroy included.
		{name: "schema errors destroy", args: []string{"destroy", "--yes", "--stack", "s", bad}, code: 1, want: "bad.yaml: not deployed: 1 error"},
		// The seed holds the docs' placeholders: a warning for lint, an
		// error for deploy, even when the project config lowers it.
		{name: "placeholders", args: []string{"preview", "--stack", "s", seed}, code: 1, want: "error: orchestratorSpec.slurmSpec.homeDirectoryStorage still holds the placeholder"},
		{name: "placeholders with config", setup: func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, ".slurmspec.yaml"), []byte("severity: {placeholder: info}\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Chdir(dir)
		}, args: []string{"up", "--stack", "s", seed}, code: 1, want: "error: orchestratorSpec.slurmSpec.homeDirectoryStorage still holds the placeholder"},
		{name: "placeholders disabled", args: []string{"up", "--stack", "s", "--disable", "placeholder", seed}, code: 1, want: "error: orchestratorSpec.slurmSpec.homeDirectoryStorage still holds the placeholder"},
		{name: "filestore option alone", args: []string{"up", "--stack", "s", "--filestore-tier", "ZONAL", spec}, code: 2, want: "need --create-home-filestore"},
		{name: "destroy without --yes", args: []string{"destroy", "--stack", "s", spec}, code: 1, want: "destroy deletes cluster projects/acme-ml-prod/locations/us-central1/modelDevelopmentClusters/train and every resource of stack s: pass --yes"},
		{name: "no pulumi CLI", setup: func(t *testing.T) { t.Setenv("PATH", t.TempDir()) },
			args: []string{"up", "--stack", "s", spec}, code: 2, want: "the pulumi CLI is not on PATH"},
		{name: "no backend", setup: func(t *testing.T) {
			fakePulumi(t)
			t.Setenv("PULUMI_BACKEND_URL", "")
			t.Setenv("PULUMI_HOME", t.TempDir())
		}, args: []string{"preview", "--stack", "s", spec}, code: 2, want: "no Pulumi backend: run `pulumi login`"},
		{name: "no passphrase", setup: func(t *testing.T) {
			fakePulumi(t)
			t.Setenv("PULUMI_BACKEND_URL", "file://"+t.TempDir())
			t.Setenv("PULUMI_CONFIG_PASSPHRASE", "")
			t.Setenv("PULUMI_CONFIG_PASSPHRASE_FILE", "")
		}, args: []string{"up", "--stack", "s", spec}, code: 2, want: "set PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE"},
		{name: "every miss at once", setup: func(t *testing.T) {
			t.Setenv("PATH", t.TempDir())
			t.Setenv("PULUMI_BACKEND_URL", "file://"+t.TempDir())
			t.Setenv("PULUMI_CONFIG_PASSPHRASE", "")
			t.Setenv("PULUMI_CONFIG_PASSPHRASE_FILE", "")
		}, args: []string{"preview", "--stack", "s", spec}, code: 2, want: "slurmspec-deploy: missing: the pulumi CLI is not on PATH: install it (https://www.pulumi.com/docs/iac/download-install/), or build it with .ci/build-pulumi.sh and put its bin directory on PATH\nslurmspec-deploy: missing: stacks in file://"},
		{name: "every miss counted", setup: func(t *testing.T) {
			t.Setenv("PATH", t.TempDir())
			t.Setenv("PULUMI_BACKEND_URL", "file://"+t.TempDir())
			t.Setenv("PULUMI_CONFIG_PASSPHRASE", "")
			t.Setenv("PULUMI_CONFIG_PASSPHRASE_FILE", "")
		}, args: []string{"preview", "--stack", "s", spec}, code: 2, want: "slurmspec-deploy: 2 prerequisites are missing (listed above)\n"},
		{name: "no cloud token", setup: func(t *testing.T) {
			fakePulumi(t)
			t.Setenv("PULUMI_BACKEND_URL", "https://api.pulumi.com")
			t.Setenv("PULUMI_ACCESS_TOKEN", "")
			t.Setenv("PULUMI_HOME", t.TempDir())
		}, args: []string{"up", "--stack", "s", spec}, code: 2, want: "no access token for https://api.pulumi.com"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("GOOGLE_OAUTH_ACCESS_TOKEN", "x")
			if tt.setup != nil {
				tt.setup(t)
			}
			code, out, errOut := deploy(t, tt.args...)
			if code != tt.code || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, want %d; stderr does not contain %q:\n%s\n%s", code, tt.code, tt.want, errOut, out)
			}
		})
	}
}

func TestCredentialsWarning(t *testing.T) {
	for _, v := range []string{"GOOGLE_CREDENTIALS", "GOOGLE_CLOUD_KEYFILE_JSON", "GCLOUD_KEYFILE_JSON", "GOOGLE_APPLICATION_CREDENTIALS", "GOOGLE_OAUTH_ACCESS_TOKEN"} {
		t.Setenv(v, "")
	}
	t.Setenv("CLOUDSDK_CONFIG", t.TempDir())
	t.Setenv("PATH", t.TempDir())
	_, _, errOut := deploy(t, "up", "--stack", "s", "../../../examples/a4-training.yaml")
	if !strings.Contains(errOut, "warning: no Google Cloud credentials found") {
		t.Errorf("no credentials warning:\n%s", errOut)
	}
}

// TestVersion: --version prints the version line every binary of the
// module prints (slurmspec version).
func TestVersion(t *testing.T) {
	var out, errOut strings.Builder
	if code := cli.Run([]string{"--version"}, strings.NewReader(""), &out, &errOut); code != 0 || out.String() != buildinfo.Line("slurmspec-deploy") {
		t.Errorf("--version: exit %d, %q, stderr %q", code, out.String(), errOut.String())
	}
}

// TestUnknownSubcommand: an unknown subcommand exits 2, at any depth.
func TestUnknownSubcommand(t *testing.T) {
	for _, args := range [][]string{{"bogus"}, {"completion", "nosh"}, {"help", "bogus"}} {
		var out, errOut strings.Builder
		if code := cli.Run(args, strings.NewReader(""), &out, &errOut); code != 2 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, out.String(), errOut.String())
		}
	}
}
