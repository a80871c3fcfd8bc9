package cli

import (
	"testing"

	"github.com/slurmspec/slurmspec/cmd/internal/cmdtree"
)

// TestBoolFlagsShowNoValue: a flag that takes no value is shown in --help
// without one. pflag reads the first `quoted` word of a flag's usage as
// the name of its value, so a backquote in a bool flag's usage printed
// "--verify slurmspec verify" in `slurmspec deploy up --help`, as if the
// flag took one (slurmspec-deploy's test has the same check).
func TestBoolFlagsShowNoValue(t *testing.T) {
	for _, f := range cmdtree.BoolFlagsShowingValue(newRootCmd(env{})) {
		t.Errorf("%s: --help shows it taking a value (a backquote in its usage)", f)
	}
}
