package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	deploycli "github.com/slurmspec/slurmspec/cmd/slurmspec-deploy/cli"
	"github.com/slurmspec/slurmspec/cmd/slurmspec/cli"
	"github.com/slurmspec/slurmspec/lint/online/checker"
	"github.com/slurmspec/slurmspec/lint/online/checker/fakefilestore"
	"github.com/slurmspec/slurmspec/lint/online/checker/onlinecmd"
)

// TestSameOptionsEverywhere runs `slurmspec lint`, `slurmspec-deploy
// preview` and `slurmspec-online` with the same spec options and the same
// .slurmspec.yaml, and requires the three to accept or refuse each alike
// (#14: slurmspec-deploy refused `disable: [filestore-capacity]`, which
// lint accepts). Accepting means going past the spec options: lint exits 0
// or 1, slurmspec-deploy reaches its Pulumi prerequisites (no pulumi on
// PATH here), slurmspec-online prints its findings.
func TestSameOptionsEverywhere(t *testing.T) {
	spec, err := os.ReadFile("../../examples/a4-training.yaml")
	if err != nil {
		t.Fatal(err)
	}
	srv := fakefilestore.New()
	addr, err := srv.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	t.Setenv("PATH", t.TempDir()) // no pulumi: slurmspec-deploy stops there
	t.Setenv("GOOGLE_OAUTH_ACCESS_TOKEN", "x")

	for _, tc := range []struct {
		name   string
		args   []string
		config string // .slurmspec.yaml beside the spec ("fifo": a FIFO)
		refuse string // "" accepted; else part of the usage error
	}{
		{name: "plain"},
		{name: "disable lint rule", args: []string{"--disable", "placeholder,unused-pool"}},
		{name: "disable online rule", args: []string{"--disable", "filestore-capacity"}},
		{name: "disable unknown rule", args: []string{"--disable", "placeholders"}, refuse: `unknown rule "placeholders" (did you mean "placeholder"?)`},
		{name: "config disables online rule", config: "disable: [filestore-capacity]\n"},
		{name: "config severity", config: "severity: {filestore-tier: error, placeholder: info}\n"},
		{name: "config unknown rule", config: "disable: [filestore-capacityy]\n", refuse: `unknown rule "filestore-capacityy"`},
		{name: "config unknown key", config: "disabled: [placeholder]\n", refuse: `unknown key "disabled"`},
		{name: "config version", config: "slurmVersion: \"22.05\"\n"},
		{name: "config FIFO", config: "fifo", refuse: "not a regular file (a FIFO)"},
		{name: "slurm version", args: []string{"--slurm-version", "23.11"}},
		{name: "bad slurm version", args: []string{"--slurm-version", "21.08"}, refuse: "--slurm-version"},
		{name: "input format", args: []string{"--input-format", "yaml"}},
		{name: "bad input format", args: []string{"--input-format", "toml"}, refuse: "--input-format"},
		{name: "identity agrees", args: []string{"--project", "acme-ml-prod", "--region", "us-central1", "--cluster-id", "train"}},
		{name: "bad cluster id", args: []string{"--cluster-id", "Train_1"}, refuse: `--cluster-id "Train_1"`},
		{name: "bad project", args: []string{"--project", "x"}, refuse: `--project "x"`},
		{name: "bad region", args: []string{"--region", "us-central1-a"}, refuse: `--region "us-central1-a"`},
		{name: "strict", args: []string{"--strict"}},
		{name: "missing config", args: []string{"--config", "/nonexistent/.slurmspec.yaml"}, refuse: "read project config"},
		{name: "unknown flag", args: []string{"--disabled", "placeholder"}, refuse: "unknown flag: --disabled"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(dir, "cluster.yaml")
			if err := os.WriteFile(file, spec, 0o644); err != nil {
				t.Fatal(err)
			}
			switch cfg := filepath.Join(dir, ".slurmspec.yaml"); tc.config {
			case "":
			case "fifo":
				if err := syscall.Mkfifo(cfg, 0o644); err != nil {
					t.Skipf("mkfifo: %v", err)
				}
			default:
				if err := os.WriteFile(cfg, []byte(tc.config), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			args := append(append([]string{}, tc.args...), file)

			var lintOut, lintErr bytes.Buffer
			lintCode := cli.Run(append([]string{"lint"}, args...), &lintOut, &lintErr)
			lint := verdict{accepted: lintCode == 0 || lintCode == 1, stderr: lintErr.String()}

			var depOut, depErr bytes.Buffer
			depCode := deploycli.Run(append([]string{"preview", "--stack", "s"}, args...), strings.NewReader(""), &depOut, &depErr)
			dep := verdict{accepted: strings.Contains(depErr.String(), "the pulumi CLI is not on PATH") || depCode == 1, stderr: depErr.String()}

			var onOut, onErr bytes.Buffer
			onCode := onlinecmd.Run(context.Background(), args, strings.NewReader(""), &onOut, &onErr, checker.Options{ClientOptions: fakefilestore.ClientOptions(addr)})
			on := verdict{accepted: onCode == onlinecmd.ExitOK, stderr: onErr.String()}

			for name, v := range map[string]verdict{"slurmspec lint": lint, "slurmspec-deploy": dep, "slurmspec-online": on} {
				switch {
				case tc.refuse == "" && !v.accepted:
					t.Errorf("%s refused the options:\n%s", name, v.stderr)
				case tc.refuse != "" && v.accepted:
					t.Errorf("%s accepted them, want a refusal with %q", name, tc.refuse)
				case tc.refuse != "" && !strings.Contains(v.stderr, tc.refuse):
					t.Errorf("%s: the refusal does not say %q:\n%s", name, tc.refuse, v.stderr)
				}
			}
			if tc.refuse != "" && (lintCode != 2 || depCode != 2 || onCode != onlinecmd.ExitError) {
				t.Errorf("a refused option must exit 2: lint %d, deploy %d, online %d", lintCode, depCode, onCode)
			}
		})
	}
}

type verdict struct {
	accepted bool
	stderr   string
}

// TestSameFlagHelp: the flags the binaries share are declared once, so
// their help lines are the same everywhere (spacing aside).
func TestSameFlagHelp(t *testing.T) {
	help := func(run func(stdout *bytes.Buffer) int) map[string]string {
		var out bytes.Buffer
		if code := run(&out); code != 0 {
			t.Fatalf("--help exit %d:\n%s", code, out.String())
		}
		lines := map[string]string{}
		for _, l := range strings.Split(out.String(), "\n") {
			f := strings.Fields(l)
			if len(f) > 1 && strings.HasPrefix(f[0], "--") {
				lines[f[0]] = strings.Join(f, " ")
			}
		}
		return lines
	}
	lint := help(func(out *bytes.Buffer) int { return cli.Run([]string{"lint", "--help"}, out, out) })
	dep := help(func(out *bytes.Buffer) int {
		return deploycli.Run([]string{"preview", "--help"}, strings.NewReader(""), out, out)
	})
	on := help(func(out *bytes.Buffer) int {
		return onlinecmd.Run(context.Background(), []string{"--help"}, strings.NewReader(""), out, out, checker.Options{})
	})
	spec := []string{"--input-format", "--project", "--region", "--cluster-id", "--slurm-version", "--build", "--disable", "--strict", "--config"}
	for _, name := range spec {
		if lint[name] == "" || lint[name] != dep[name] || lint[name] != on[name] {
			t.Errorf("%s:\n  lint:   %q\n  deploy: %q\n  online: %q", name, lint[name], dep[name], on[name])
		}
	}
	for _, name := range []string{"--online-timeout", "--min-home-capacity-gib"} {
		if lint[name] == "" || lint[name] != on[name] {
			t.Errorf("%s:\n  lint:   %q\n  online: %q", name, lint[name], on[name])
		}
	}
}
