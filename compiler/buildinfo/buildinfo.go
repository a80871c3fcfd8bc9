// Package buildinfo says which version of slurmspec is running. Every
// binary of the module (slurmspec, slurmspec-deploy, slurmspec-online)
// prints the same line for --version, and slurmspec for `slurmspec
// version`.
package buildinfo

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// stamped is the release version set at link time by the release build
// (docs/releasing.md, `make release VERSION=vX.Y.Z`):
//
//	-ldflags "-X github.com/slurmspec/slurmspec/compiler/buildinfo.stamped=vX.Y.Z"
//
// Empty in every other build. It is a link-time constant: nothing assigns
// it at run time. When set it is the module version every binary reports,
// whatever the Go toolchain recorded (a release build uses -buildvcs=false
// and -trimpath, which record "(devel)").
var stamped string

// Build is what the Go toolchain recorded about a build
// (runtime/debug.ReadBuildInfo).
type Build struct {
	// Module is the main module's version ("v0.3.0", a pseudo-version)
	// or "(devel)".
	Module string
	// Revision is vcs.revision: the commit of a build from a checkout.
	Revision string
	// Modified is vcs.modified: the checkout had uncommitted changes.
	Modified bool
}

// Of reads a build's version from its build information (ok false: a
// binary without any).
//
// `go install module/cmd/slurmspec@v0.3.0` records v0.3.0 and no VCS
// settings (it builds from the module zip). A build in a git checkout
// records vcs.revision and vcs.modified, and since Go 1.24 stamps the main
// module's version from the checkout: the tag for a clean checkout at a
// semver tag, else a pseudo-version, with "+dirty" for uncommitted
// changes. Without VCS stamping (-buildvcs=false, no git) the version is
// "(devel)".
func Of(bi *debug.BuildInfo, ok bool) Build {
	v := Build{Module: "(devel)"}
	if !ok || bi == nil {
		return v
	}
	if bi.Main.Version != "" {
		v.Module = bi.Main.Version
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Revision = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}

// Current is the running binary's build.
func Current() Build {
	return stamp(Of(debug.ReadBuildInfo()), stamped)
}

// stamp returns v with its module version replaced by version, the
// release version stamped at link time, when that is set.
func stamp(v Build, version string) Build {
	if version != "" {
		v.Module = version
	}
	return v
}

// String is the module version, followed for a build from a checkout by
// "(commit REV" (12 hex digits), ", modified" and ")".
func (v Build) String() string {
	var b strings.Builder
	b.WriteString(v.Module)
	if v.Revision != "" {
		rev := v.Revision
		if len(rev) > 12 {
			rev = rev[:12]
		}
		fmt.Fprintf(&b, " (commit %s", rev)
		if v.Modified {
			b.WriteString(", modified")
		}
		b.WriteString(")")
	}
	return b.String()
}

// Version is the running binary's module version, as SARIF's tool
// version records it.
func Version() string { return Current().Module }

// Line is the version line every binary prints: "NAME VERSION[ (commit
// REV[, modified])]\n".
func Line(name string) string { return name + " " + Current().String() + "\n" }
