package pipeline

import (
	"strings"

	"github.com/spf13/pflag"

	"github.com/slurmspec/slurmspec/schema/catalog"
)

// Options are the spec options every command that reads a spec takes
// (slurmspec lint, render, diff and sandbox, slurmspec-deploy and
// slurmspec-online), as flags declared by RegisterFlags.
type Options struct {
	// InputFormat is auto (by extension), json, yaml or cue; empty: auto.
	InputFormat string
	// Project, Region and ClusterID give the cluster's identity when the
	// spec has no name (and must agree with it when it has one).
	Project, Region, ClusterID string
	// SlurmVersion is the release series the cluster runs; empty: the
	// project config's, else the newest in the catalog.
	SlurmVersion string
	// Build is the build profile the cluster runs (service or debian);
	// empty: the project config's, else catalog.DefaultTarget's.
	Build string
	// Disable lists rule ids not to run.
	Disable []string
	// Strict makes warnings fail a spec too.
	Strict bool
	// ConfigFile is the project config; empty: the .slurmspec.yaml found
	// from each spec's directory up to the repository root.
	ConfigFile string
}

// Flag names of the options.
const (
	FlagInputFormat  = "input-format"
	FlagProject      = "project"
	FlagRegion       = "region"
	FlagClusterID    = "cluster-id"
	FlagSlurmVersion = "slurm-version"
	FlagBuild        = "build"
	FlagDisable      = "disable"
	FlagStrict       = "strict"
	FlagConfig       = "config"
)

// RegisterFlags declares o's fields as flags on fs. It is the one place
// the spec flags and their help texts are written.
func (o *Options) RegisterFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.InputFormat, FlagInputFormat, "auto", "spec format: auto (by extension), json, yaml or cue")
	fs.StringVar(&o.Project, FlagProject, "", "Google Cloud project (when the spec has no name)")
	fs.StringVar(&o.Region, FlagRegion, "", "region of the cluster (when the spec has no name)")
	fs.StringVar(&o.ClusterID, FlagClusterID, "", "cluster id, 1-10 lowercase letters and digits (when the spec has no name)")
	fs.StringVar(&o.SlurmVersion, FlagSlurmVersion, "", "Slurm release series the cluster runs ("+VersionList()+"; default: the project config's slurmVersion, else "+catalog.DefaultTarget().Release.String()+")")
	fs.StringVar(&o.Build, FlagBuild, "", "Slurm build the cluster runs, for plugin checks ("+catalog.BuildNames()+"; default: the project config's build, else "+catalog.DefaultTarget().Build.String()+")")
	fs.StringSliceVar(&o.Disable, FlagDisable, nil, "lint rule ids to skip (comma-separated or repeated)")
	fs.BoolVar(&o.Strict, FlagStrict, false, "fail on warnings too")
	fs.StringVar(&o.ConfigFile, FlagConfig, "", "project config (default: .slurmspec.yaml in the spec's directory or a parent, up to the repository root)")
}

// Args turns o back into command-line flags (the non-zero ones), for a
// helper binary that takes the same options.
func (o Options) Args() []string {
	var args []string
	add := func(name, value string) {
		if value != "" {
			args = append(args, "--"+name+"="+value)
		}
	}
	add(FlagInputFormat, o.InputFormat)
	add(FlagProject, o.Project)
	add(FlagRegion, o.Region)
	add(FlagClusterID, o.ClusterID)
	add(FlagSlurmVersion, o.SlurmVersion)
	add(FlagBuild, o.Build)
	add(FlagDisable, strings.Join(o.Disable, ","))
	if o.Strict {
		args = append(args, "--"+FlagStrict)
	}
	add(FlagConfig, o.ConfigFile)
	return args
}

// VersionList is the Slurm release series slurmspec renders for, comma
// separated.
func VersionList() string {
	var vs []string
	for _, v := range catalog.Versions() {
		vs = append(vs, v.String())
	}
	return strings.Join(vs, ", ")
}
