// Package buildinfo says which version of slurmspec is running. Every
// binary of the module (slurmspec, slurmspec-deploy, slurmspec-online)
// prints it for --version, and slurmspec for `slurmspec version`, so that
// they all say the same.
package buildinfo

import "runtime/debug"

// Version is the module version the running binary was built as
// ("v1.2.3", a pseudo-version), or "(devel)".
func Version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

// Line is the version line every binary prints: "NAME VERSION\n".
func Line(name string) string { return name + " " + Version() + "\n" }
