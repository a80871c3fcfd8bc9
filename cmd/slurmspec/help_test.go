package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/cmd/slurmspec/cli"
)

// TestEveryCommandHasHelpWithExamples: --help works on every command and
// shows at least one example.
func TestEveryCommandHasHelpWithExamples(t *testing.T) {
	for _, c := range []string{"lint", "render", "diff", "import", "schema", "explain", "rules", "version", "sandbox"} {
		var out, errb bytes.Buffer
		if code := cli.Run([]string{c, "--help"}, &out, &errb); code != 0 {
			t.Errorf("%s --help: exit %d: %s", c, code, errb.String())
		}
		if !strings.Contains(out.String(), "Examples:") {
			t.Errorf("%s --help has no examples:\n%s", c, out.String())
		}
	}
}
