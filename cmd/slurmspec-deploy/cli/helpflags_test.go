package cli

import (
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestBoolFlagsShowNoValue: a flag that takes no value is shown in --help
// without one. pflag reads the first `quoted` word of a flag's usage as
// the name of its value, so a backquote in a bool flag's usage printed
// "--verify slurmspec verify" in `slurmspec deploy up --help`, as if the
// flag took one.
func TestBoolFlagsShowNoValue(t *testing.T) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		check := func(f *pflag.Flag) {
			if f.Value.Type() != "bool" {
				return
			}
			if name, _ := pflag.UnquoteUsage(f); name != "" {
				t.Errorf("%s --%s: --help shows it taking a value %q (a backquote in its usage)", c.CommandPath(), f.Name, name)
			}
		}
		c.LocalFlags().VisitAll(check)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd(env{}))
}
