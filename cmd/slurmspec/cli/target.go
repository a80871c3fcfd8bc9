package cli

import (
	"github.com/spf13/cobra"

	"github.com/slurmspec/slurmspec/compiler/escape"
	"github.com/slurmspec/slurmspec/lint/pipeline"
)

// targetSource says where the settings' target (catalog.Target) was
// stated: the command line's --slurm-version or --build, else the
// project config's slurmVersion or build (its path), else unstated.
func targetSource(cmd *cobra.Command, s *pipeline.Settings, unstated string) string {
	switch {
	case cmd.Flags().Changed(pipeline.FlagSlurmVersion) || cmd.Flags().Changed(pipeline.FlagBuild):
		return "the command line"
	case s.Project.Path != "" && (s.Project.SlurmVersion != "" || s.Project.Build != ""):
		return escape.Text(s.Project.Path)
	}
	return unstated
}
