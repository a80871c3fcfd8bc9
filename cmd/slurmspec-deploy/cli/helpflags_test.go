package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/cmd/internal/cmdtree"
)

// TestBoolFlagsShowNoValue: a flag that takes no value is shown in --help
// without one. pflag reads the first `quoted` word of a flag's usage as
// the name of its value, so a backquote in a bool flag's usage printed
// "--verify slurmspec verify" in `slurmspec deploy up --help`, as if the
// flag took one.
func TestBoolFlagsShowNoValue(t *testing.T) {
	for _, f := range cmdtree.BoolFlagsShowingValue(newRootCmd(env{})) {
		t.Errorf("%s: --help shows it taking a value (a backquote in its usage)", f)
	}
}

// TestHelpNamesTheCommandTyped: run by slurmspec (deploy/dispatch sets
// the command the user typed), the help's usage lines name that command,
// as the docs do: "slurmspec deploy up", "slurmspec verify"; run
// directly, slurmspec-deploy.
func TestHelpNamesTheCommandTyped(t *testing.T) {
	for _, tt := range []struct {
		command string
		args    []string
		want    string
	}{
		{"slurmspec deploy", []string{"up", "--help"}, "\n  slurmspec deploy up --stack STACK [flags] FILE\n"},
		{"slurmspec deploy", []string{"--help"}, "\n  slurmspec deploy [command]\n"},
		{"slurmspec", []string{"verify", "--help"}, "\n  slurmspec verify [flags] FILE\n"},
		{"", []string{"up", "--help"}, "\n  slurmspec-deploy up --stack STACK [flags] FILE\n"},
	} {
		var out bytes.Buffer
		root := newRootCmd(env{stdout: &out, stderr: &out, command: tt.command})
		root.SetArgs(tt.args)
		if err := root.Execute(); err != nil || !strings.Contains(out.String(), tt.want) {
			t.Errorf("as %q, %s: %v; want %q in\n%s", tt.command, strings.Join(tt.args, " "), err, tt.want, out.String())
		}
	}
}
