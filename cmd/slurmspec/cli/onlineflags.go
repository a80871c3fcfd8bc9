package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/lint/online"
	"github.com/slurmspec/slurmspec/lint/online/dispatch"
	"github.com/slurmspec/slurmspec/lint/pipeline"
)

// onlineFlags are lint's --online flags. The checks run in the separate
// slurmspec-online binary, so that the gRPC and Filestore client packages
// never load in an offline lint.
type onlineFlags struct {
	enabled bool
	online.Flags
}

func (o *onlineFlags) register(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&o.enabled, "online", false, "also check homeDirectoryStorage and nodePools[].filestores with the Filestore API (Application Default Credentials)")
	o.RegisterFlags(cmd.Flags())
}

// check runs the online checks of a spec that compiled and merges their
// findings into its result. The helper gets the same spec options, and the
// project config this run found for the spec, so it disables and adjusts
// the same rules, and --follow-symlinks when this run was given it.
func (o *onlineFlags) check(ctx context.Context, r *pipeline.Result, opt pipeline.Options, links linkFlag) error {
	if opt.ConfigFile == "" {
		opt.ConfigFile = r.Settings.Project.Path
	}
	args := dispatch.Flags{Spec: opt.Args(), Timeout: o.Timeout, MinHomeCapacityGiB: o.MinHomeCapacityGiB, Links: links.Flag}.Args()
	var found diag.List
	var err error
	if r.File == "-" {
		found, err = dispatch.RunStdin(ctx, r.Doc.Source, args)
	} else {
		found, err = dispatch.Run(ctx, r.File, args)
	}
	if err != nil {
		return err
	}
	r.Diags = append(r.Diags, found...).Sort()
	return nil
}
