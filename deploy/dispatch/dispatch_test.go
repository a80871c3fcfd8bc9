package dispatch_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/deploy/dispatch"
)

// TestNoSDKInSlurmspec keeps the Pulumi SDK and gRPC out of the binary that
// lints and renders, and out of every package it may use for deploy.
func TestNoSDKInSlurmspec(t *testing.T) {
	if testing.Short() {
		t.Skip("go list in -short mode")
	}
	for _, pkg := range []string{
		"github.com/slurmspec/slurmspec/cmd/slurmspec",
		"github.com/slurmspec/slurmspec/deploy/dispatch",
		"github.com/slurmspec/slurmspec/render/pulumimodel",
		"github.com/slurmspec/slurmspec/render",
	} {
		out, err := exec.Command("go", "list", "-deps", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
		}
		for _, dep := range strings.Fields(string(out)) {
			if strings.HasPrefix(dep, "github.com/pulumi/") || strings.HasPrefix(dep, "google.golang.org/grpc") {
				t.Errorf("%s depends on %s: keep the Pulumi SDK in cmd/slurmspec-deploy", pkg, dep)
			}
		}
	}
}

func TestRunPassesArgsStreamsAndExitCode(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "fake-deploy")
	script := "#!/bin/sh\necho \"args: $*\"\necho \"as: $" + dispatch.EnvCommand + "\"\ncat\necho oops >&2\nexit 3\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(dispatch.EnvBinary, bin)
	var stdout, stderr bytes.Buffer
	code, err := dispatch.Run("slurmspec deploy", []string{"up", "--stack", "dev", "spec.yaml"}, strings.NewReader("stdin\n"), &stdout, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	if code != 3 || stdout.String() != "args: up --stack dev spec.yaml\nas: slurmspec deploy\nstdin\n" || stderr.String() != "oops\n" {
		t.Errorf("code %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}

func TestFindOnPath(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, dispatch.Binary)
	if err := os.WriteFile(bin, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(dispatch.EnvBinary, "")
	t.Setenv("PATH", dir)
	got, err := dispatch.Find()
	if err != nil || got != bin {
		t.Errorf("Find() = %q, %v; want %q", got, err, bin)
	}
	t.Setenv("PATH", t.TempDir())
	if _, err := dispatch.Find(); err != dispatch.ErrNotFound {
		t.Errorf("Find() with nothing on PATH: %v, want ErrNotFound", err)
	}
	code, err := dispatch.Run("", nil, nil, nil, nil)
	if code != 2 || err != dispatch.ErrNotFound {
		t.Errorf("Run without the binary: %d, %v", code, err)
	}
}
