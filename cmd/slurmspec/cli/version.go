package cli

import (
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
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
func toolVersion() string {
	bi, ok := debug.ReadBuildInfo()
	return buildVersionOf(bi, ok).module
}

// versionLine is what `slurmspec version` (and --version) prints after
// "slurmspec ": the module version and, for a build from a checkout, the
// commit it was built from.
func versionLine() string {
	bi, ok := debug.ReadBuildInfo()
	return buildVersionOf(bi, ok).String()
}

// versionText is the whole line `slurmspec version` and `slurmspec
// --version` print.
func versionText() string { return "slurmspec " + versionLine() + "\n" }

// buildVersion is what the Go toolchain recorded about a build of
// slurmspec (runtime/debug.ReadBuildInfo).
type buildVersion struct {
	module   string // the main module's version, or "(devel)"
	revision string // vcs.revision: the commit of a build from a checkout
	modified bool   // vcs.modified: the checkout had uncommitted changes
}

// buildVersionOf reads a build's version from its build information (ok
// false: a binary without any).
//
// `go install module/cmd/slurmspec@v0.3.0` records v0.3.0 and no VCS
// settings (it builds from the module zip). A build in a git checkout
// records vcs.revision and vcs.modified, and since Go 1.24 stamps the main
// module's version from the checkout: the tag for a clean checkout at a
// semver tag, else a pseudo-version, with "+dirty" for uncommitted
// changes. Without VCS stamping (-buildvcs=false, no git) the version is
// "(devel)".
func buildVersionOf(bi *debug.BuildInfo, ok bool) buildVersion {
	v := buildVersion{module: "(devel)"}
	if !ok || bi == nil {
		return v
	}
	if bi.Main.Version != "" {
		v.module = bi.Main.Version
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.revision = s.Value
		case "vcs.modified":
			v.modified = s.Value == "true"
		}
	}
	return v
}

// String is the module version, followed for a build from a checkout by
// "(commit REV)" (12 hex digits) and ", modified".
func (v buildVersion) String() string {
	var b strings.Builder
	b.WriteString(v.module)
	if v.revision != "" {
		rev := v.revision
		if len(rev) > 12 {
			rev = rev[:12]
		}
		fmt.Fprintf(&b, " (commit %s", rev)
		if v.modified {
			b.WriteString(", modified")
		}
		b.WriteString(")")
	}
	return b.String()
}
