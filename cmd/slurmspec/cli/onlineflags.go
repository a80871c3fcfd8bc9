package cli

import (
	"context"
	"time"

	"github.com/spf13/cobra"

	"github.com/slurmspec/slurmspec/compiler/diag"

	"github.com/slurmspec/slurmspec/lint/online"
	"github.com/slurmspec/slurmspec/lint/online/dispatch"
)

// onlineFlags are lint's --online flags. The checks run in the separate
// slurmspec-online binary, so that the gRPC and Filestore client packages
// never load in an offline lint.
type onlineFlags struct {
	enabled     bool
	timeout     time.Duration
	minCapacity int64
}

func (o *onlineFlags) register(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&o.enabled, "online", false, "also check homeDirectoryStorage and nodePools[].filestores with the Filestore API (Application Default Credentials)")
	cmd.Flags().DurationVar(&o.timeout, "online-timeout", online.DefaultTimeout, "timeout of each Filestore API call")
	cmd.Flags().Int64Var(&o.minCapacity, "min-home-capacity-gib", online.DefaultMinHomeCapacityGiB, "smallest /home instance accepted by filestore-capacity (negative: no check)")
}

// check runs the online checks for every spec that compiled and merges
// their findings into the results.
func (o *onlineFlags) check(ctx context.Context, results []analysis, f *specFlags) error {
	args := dispatch.Flags{InputFormat: f.inputFormat, Project: f.project, Region: f.region, ClusterID: f.clusterID,
		Timeout: o.timeout, MinHomeCapacityGiB: o.minCapacity, Disable: f.disable}.Args()
	for i := range results {
		a := &results[i]
		if a.cluster == nil {
			continue
		}
		found, err := dispatchFor(ctx, a, args)
		if err != nil {
			return err
		}
		a.diags = append(a.diags, f.projectConfig.Adjust(found)...).Sort()
	}
	return nil
}

func dispatchFor(ctx context.Context, a *analysis, args []string) (diag.List, error) {
	if a.file == "-" {
		return dispatch.RunStdin(ctx, a.doc.Source, args)
	}
	return dispatch.Run(ctx, a.file, args)
}
