package catalog

import (
	"fmt"
	"strings"
)

// Build is the build profile of the Slurm a spec targets: which plugins
// exist depends on what Slurm was built with (mpi/pmix needs PMIx,
// tls/s2n needs s2n-tls) and on how a distribution splits them into
// packages.
type Build uint8

// The build profiles.
const (
	// BuildService is the managed service's Slurm build. Its plugin set
	// is not published, so a plugin that some builds lack (Debian's
	// packages, data/debian_plugins.tsv) is a warning that asks to check
	// the service's build, and Debian's package split is not mentioned.
	BuildService Build = iota
	// BuildDebian is Debian's Slurm packages, which the differential
	// oracle and the sandbox run: plugins are checked against what those
	// packages ship (data/debian_plugins.tsv).
	BuildDebian
)

// buildNames are the build profiles' names, in order.
var buildNames = [...]string{BuildService: "service", BuildDebian: "debian"}

// String is the profile's name in .slurmspec.yaml and --build: service or
// debian.
func (b Build) String() string {
	if int(b) < len(buildNames) {
		return buildNames[b]
	}
	return fmt.Sprintf("Build(%d)", b)
}

// Describe is the profile in prose: "the service's build" or "Debian's
// packages".
func (b Build) Describe() string {
	if b == BuildDebian {
		return "Debian's packages"
	}
	return "the service's build"
}

// BuildNames is "service, debian".
func BuildNames() string { return strings.Join(buildNames[:], ", ") }

// ParseBuild reads a build profile's name; "" is the default build.
func ParseBuild(s string) (Build, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" {
		return DefaultTarget().Build, nil
	}
	for i, n := range buildNames {
		if s == n {
			return Build(i), nil
		}
	}
	return 0, fmt.Errorf("unknown build %q: want %s", s, BuildNames())
}

// Target is the Slurm a spec is checked and rendered for: a release
// series and a build profile. It is stated once, in .slurmspec.yaml
// (slurmVersion, build) or by the --slurm-version and --build flags, and
// every command reads it from there; DefaultTarget fills what neither
// states.
type Target struct {
	Release Version
	Build   Build
}

// DefaultTarget is the target when neither the project config nor a flag
// states one. It is the one place the default is chosen:
//
//   - Release: the newest series in the catalog (26.05). Which release
//     the managed service runs is not published. What is known: its Slurm
//     Job API documentation uses the REST path v0.0.42, which slurmrestd
//     serves from 24.11 on (22.05 does not), so the service runs 24.11 or
//     later. Nothing narrows it further, so the default stays the newest
//     series; a project that knows better states slurmVersion.
//   - Build: the service's build (BuildService), since the managed
//     service, not Debian, runs the cluster; the sandbox and the oracle run
//     Debian's packages and state BuildDebian.
func DefaultTarget() Target { return Target{Release: Newest(), Build: BuildService} }

// ParseTarget reads a release series and a build name, each of which may
// be empty for the default's.
func ParseTarget(release, build string) (Target, error) {
	t := DefaultTarget()
	if release != "" {
		v, err := ParseVersion(release)
		if err != nil {
			return t, err
		}
		t.Release = v
	}
	b, err := ParseBuild(build)
	if err != nil {
		return t, err
	}
	t.Build = b
	return t, nil
}

// String is the target in a headline: "Slurm 26.05 (the service's
// build)".
func (t Target) String() string {
	return fmt.Sprintf("Slurm %s (%s)", t.Release, t.Build.Describe())
}
