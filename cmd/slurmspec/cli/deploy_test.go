package cli

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/deploy/dispatch"
)

// TestDeployHelpWithoutHelper: `slurmspec deploy --help` works when
// slurmspec-deploy is nowhere; an operation still says it is missing.
func TestDeployHelpWithoutHelper(t *testing.T) {
	t.Setenv(dispatch.EnvBinary, "")
	t.Setenv("PATH", t.TempDir())
	if _, err := dispatch.Find(); err == nil {
		t.Skip("slurmspec-deploy is next to the test binary")
	}
	for _, args := range [][]string{{"--help"}, {"-h"}, {}, {"up", "--help"}} {
		var out, errOut bytes.Buffer
		cmd := newDeployCmd(env{stdout: &out, stderr: &errOut})
		cmd.SetArgs(args)
		if err := cmd.Execute(); err != nil {
			t.Errorf("%v: %v", args, err)
		}
		if !strings.Contains(out.String(), "slurmspec deploy up --stack STACK") || !strings.Contains(out.String(), "slurmspec-deploy not found") {
			t.Errorf("%v: help\n%s", args, out.String())
		}
	}
	var out bytes.Buffer
	cmd := newDeployCmd(env{stdout: &out, stderr: &out})
	cmd.SetArgs([]string{"up", "--stack", "s", "c.yaml"})
	if err := cmd.Execute(); err == nil || !strings.Contains(err.Error(), "slurmspec-deploy not found") {
		t.Errorf("up without the helper: %v", err)
	}
}

// TestVerifyHandsOver: `slurmspec verify ARGS` runs `slurmspec-deploy
// verify ARGS` and exits with its code; its help works without the helper.
func TestVerifyHandsOver(t *testing.T) {
	dir := t.TempDir()
	helper := filepath.Join(dir, "slurmspec-deploy")
	script := "#!/bin/sh\necho \"args: $*\"\necho \"as: $" + dispatch.EnvCommand + "\"\nexit 1\n"
	if err := os.WriteFile(helper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(dispatch.EnvBinary, helper)
	var out bytes.Buffer
	cmd := newVerifyCmd(env{stdout: &out, stderr: &out})
	cmd.SetArgs([]string{"--no-jobs", "c.yaml"})
	var ee *exitError
	if err := cmd.Execute(); !errors.As(err, &ee) || ee.code != 1 || out.String() != "args: verify --no-jobs c.yaml\nas: slurmspec\n" {
		t.Errorf("verify: %v, output %q; want exit 1 and the helper run with verify --no-jobs c.yaml, as slurmspec", err, out.String())
	}
	// deploy: the helper names itself "slurmspec deploy" in its help.
	out.Reset()
	cmd = newDeployCmd(env{stdout: &out, stderr: &out})
	cmd.SetArgs([]string{"up", "--help"})
	if err := cmd.Execute(); !errors.As(err, &ee) || out.String() != "args: up --help\nas: slurmspec deploy\n" {
		t.Errorf("deploy: %v, output %q; want the helper run with up --help, as slurmspec deploy", err, out.String())
	}

	t.Setenv(dispatch.EnvBinary, "")
	t.Setenv("PATH", t.TempDir())
	if _, err := dispatch.Find(); err == nil {
		t.Skip("slurmspec-deploy is next to the test binary")
	}
	out.Reset()
	cmd = newVerifyCmd(env{stdout: &out, stderr: &out})
	cmd.SetArgs([]string{"--help"})
	if err := cmd.Execute(); err != nil || !strings.Contains(out.String(), "slurmspec verify [--wait 2m] [--no-jobs] [--allow-pending] FILE") || !strings.Contains(out.String(), "slurmspec-deploy not found") {
		t.Errorf("verify --help without the helper: %v\n%s", err, out.String())
	}
}
