package cli

import (
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/render/diff"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// registerCompletions completes the values of the spec flags every
// command shares (--slurm-version, --disable, --input-format), for shell
// completion (`slurmspec completion SHELL`), and explain's argument. Each
// command completes its own flags (--format, --fail-on) where it declares
// them, from the list it checks them against.
func registerCompletions(root *cobra.Command) {
	versions := make([]string, 0, len(catalog.Versions()))
	for _, v := range catalog.Versions() {
		versions = append(versions, v.String())
	}
	shared := map[string]cobra.CompletionFunc{
		pipeline.FlagSlurmVersion: fixedCompletion(versions...),
		pipeline.FlagInputFormat:  fixedCompletion(inputFormats()...),
		pipeline.FlagDisable:      completeDisable,
	}
	var walk func(*cobra.Command)
	walk = func(cmd *cobra.Command) {
		for name, f := range shared {
			if cmd.Flags().Lookup(name) != nil {
				_ = cmd.RegisterFlagCompletionFunc(name, f) // an error: already registered
			}
		}
		for _, sub := range cmd.Commands() {
			walk(sub)
		}
	}
	walk(root)
	for _, cmd := range root.Commands() {
		if cmd.Name() == "explain" {
			cmd.ValidArgsFunction = completeExplain
		}
	}
}

// inputFormats are the names --input-format takes.
func inputFormats() []string {
	var out []string
	for f := load.FormatAuto; f <= load.FormatCUE; f++ {
		out = append(out, f.String())
	}
	return out
}

// impacts are the names diff --fail-on takes.
func impacts() []string {
	var out []string
	for i := diff.InPlace; i <= diff.ReplaceCluster; i++ {
		out = append(out, i.String())
	}
	return append(out, "replace")
}

// completeDisable completes the ids --disable accepts (the lint and
// online rules without a guard), after those already given in a
// comma-separated list.
func completeDisable(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	prefix := ""
	if i := strings.LastIndexByte(toComplete, ','); i >= 0 {
		prefix = toComplete[:i+1]
	}
	var out []cobra.Completion
	for _, d := range diagCatalog().Entries() {
		if d.Disableable() {
			out = append(out, cobra.CompletionWithDesc(prefix+d.ID, d.Summary))
		}
	}
	sort.Strings(out)
	return withPrefix(out, toComplete), cobra.ShellCompDirectiveNoFileComp
}

// completeExplain completes explain's argument: every diagnostic id, then
// (once a prefix is typed) the slurm.conf keys.
func completeExplain(_ *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var out []cobra.Completion
	for _, d := range diagCatalog().Entries() {
		out = append(out, cobra.CompletionWithDesc(d.ID, d.Summary))
	}
	if toComplete != "" {
		seen := map[string]bool{}
		for _, s := range []catalog.Scope{catalog.ScopeGlobal, catalog.ScopePartition, catalog.ScopeNode} {
			for _, p := range catalog.Default().Params(s) {
				if !seen[p.Name] {
					seen[p.Name] = true
					out = append(out, p.Name)
				}
			}
		}
	}
	sort.Strings(out)
	return withPrefix(out, toComplete), cobra.ShellCompDirectiveNoFileComp
}
