package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/slurmspec/slurmspec/compiler/buildinfo"
)

func newVersionCmd(e env) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print slurmspec's version",
		Long: `Print the module version slurmspec was built as: the release tag for
` + "`go install …@v0.x.y`" + ` or a build from a clone at that tag, a
pseudo-version for a clone after it ("+dirty" and "modified" when the
checkout had uncommitted changes), "(devel)" when Go recorded no version
(a build with -buildvcs=false outside a release).`,
		Example: "  slurmspec version\n  slurmspec --version",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			fmt.Fprint(e.stdout, versionText())
			return nil
		},
	}
}

// toolVersion is the module version slurmspec was built as ("v0.3.0", a
// pseudo-version, or "(devel)"), as SARIF's tool version records it.
func toolVersion() string { return buildinfo.Version() }

// versionText is the whole line `slurmspec version` and `slurmspec
// --version` print.
func versionText() string { return buildinfo.Line("slurmspec") }
