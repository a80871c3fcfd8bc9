package cli

import (
	"github.com/spf13/cobra"

	"github.com/slurmspec/slurmspec/compiler/outformat"
)

// formatFlag registers a command's --format flag from its registry of
// formats (lint/format.Formats, render/diff.Formats, rulesFormats): the
// default, the usage text and the shell completion.
func formatFlag(cmd *cobra.Command, p *string, formats outformat.List) {
	cmd.Flags().StringVar(p, "format", formats.Default(), formats.Usage())
	_ = cmd.RegisterFlagCompletionFunc("format", fixedCompletion(formats.Names()...))
}

// checkFormat is the one error for a --format name the command does not
// have: a usage error (exit 2), "--format: unknown format ...".
func checkFormat(formats outformat.List, name string) error {
	if err := formats.Check(name); err != nil {
		return usageError("--format: %v", err)
	}
	return nil
}

// lookupFormat returns the writer of the named format, or checkFormat's
// error.
func lookupFormat[W any](formats *outformat.Registry[W], name string) (W, error) {
	w, err := formats.Lookup(name)
	if err != nil {
		return w, usageError("--format: %v", err)
	}
	return w, nil
}
