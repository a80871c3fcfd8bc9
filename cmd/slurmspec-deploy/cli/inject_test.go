package cli

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/cmd/internal/injecttest"
)

// TestNoForgedWorkflowCommands runs every command of slurmspec-deploy (the
// tree is walked) with file names, arguments, unknown flags and flag
// values holding a newline and "::error file=x::forged" or starting with
// "::stop-commands::", and checks that no output line starts a GitHub
// Actions workflow command (compiler/escape).
func TestNoForgedWorkflowCommands(t *testing.T) {
	t.Chdir(t.TempDir())
	t.Setenv("PATH", t.TempDir()) // no pulumi: nothing is deployed
	t.Setenv("HOME", t.TempDir())
	t.Setenv("PULUMI_BACKEND_URL", "")
	var files []string
	for _, p := range injecttest.Payloads {
		name := p + ".yaml"
		body := "nodePools: []\n" + strings.ReplaceAll(p, "\n", "") + "unknown: 1\n"
		if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
	}
	args := append(files, injecttest.Payloads[0])
	lines := injecttest.CommandLines(newRootCmd(env{}), args)
	for _, p := range injecttest.Payloads {
		for _, verb := range []string{"preview", "up", "destroy", "refresh"} {
			lines = append(lines, []string{verb, "--stack", p, files[0]}, []string{verb, "--stack=prod", "--", p})
		}
	}
	if len(lines) < 100 {
		t.Fatalf("%d command lines: the walk is broken", len(lines))
	}
	for _, line := range lines {
		var out, errOut bytes.Buffer
		RunContext(t.Context(), line, strings.NewReader(""), &out, &errOut)
		for _, s := range []string{out.String(), errOut.String()} {
			if bad := injecttest.Forged(s); len(bad) > 0 {
				t.Errorf("slurmspec-deploy %q: output lines start a workflow command: %q", line, bad)
			}
		}
	}
}
