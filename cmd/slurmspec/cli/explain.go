package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/lint/rules"
)

func newExplainCmd(e env) *cobra.Command {
	return &cobra.Command{
		Use:     "explain RULE",
		Short:   "Print the documentation of a lint rule",
		Example: "  slurmspec explain reserved-key",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			all := allRules()
			r := lint.Find(all, args[0])
			if r == nil {
				var ids []string
				for _, r := range all {
					ids = append(ids, r.ID)
				}
				return usageError("unknown rule %q; %s", args[0], diag.DidYouMean(args[0], ids, "see `slurmspec rules`"))
			}
			fmt.Fprintf(e.stdout, "%s (%s): %s\n\n%s", r.ID, r.Severity, r.Summary, r.Doc)
			return nil
		},
	}
}

func newRulesCmd(e env) *cobra.Command {
	var markdown bool
	cmd := &cobra.Command{
		Use:   "rules",
		Short: "List every lint rule (--markdown writes docs/rules.md)",
		Example: `  slurmspec rules
  slurmspec rules --markdown > docs/rules.md`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if markdown {
				return rules.Markdown(e.stdout)
			}
			for _, r := range allRules() {
				fmt.Fprintf(e.stdout, "%-30s %-7s %s\n", r.ID, r.Severity, r.Summary)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&markdown, "markdown", false, "print the rules reference in Markdown")
	return cmd
}
