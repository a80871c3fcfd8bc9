package cli

import (
	"bytes"
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
