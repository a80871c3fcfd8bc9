package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/diag/ids"
	"github.com/slurmspec/slurmspec/compiler/managed"
	"github.com/slurmspec/slurmspec/compiler/outformat"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/lint/rules"
	"github.com/slurmspec/slurmspec/schema"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

const explainHelp = `Print the documentation of a diagnostic id (a lint rule, an online
check, or an id of the loading, schema, compile and render stages: every
id ` + "`slurmspec rules`" + ` lists) or of a slurm.conf key: what it does,
where it goes in the spec, its values, and the Slurm releases that have it
and where it changed.`

func newExplainCmd(e env) *cobra.Command {
	return &cobra.Command{
		Use:   "explain RULE|KEY",
		Short: "Print the documentation of a diagnostic id or a slurm.conf key",
		Long:  explainHelp,
		Example: `  slurmspec explain reserved-key
  slurmspec explain schema-enum
  slurmspec explain PreemptMode`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cat := diagCatalog()
			if d, ok := cat.Lookup(args[0]); ok {
				explainID(e.stdout, d)
				return nil
			}
			if explainKey(e.stdout, args[0]) {
				return nil
			}
			names := cat.IDs()
			for _, s := range []catalog.Scope{catalog.ScopeGlobal, catalog.ScopePartition, catalog.ScopeNode} {
				for _, p := range catalog.Default().Params(s) {
					names = append(names, p.Name)
				}
			}
			return usageError("unknown rule or slurm.conf key %q; %s", args[0], diag.DidYouMean(args[0], names, "see `slurmspec rules`"))
		},
	}
}

// explainID prints a diagnostic id's catalog entry: the line
// "id (severity): summary", the stage that reports it and whether
// --disable accepts it, then its document.
func explainID(w io.Writer, d ids.Entry) {
	fmt.Fprintf(w, "%s (%s): %s\n\nStage: %s. ", d.ID, d.Severity, d.Summary, d.Stage)
	switch {
	case d.Guard != "":
		fmt.Fprintf(w, "It cannot be disabled or lowered: %s.", d.Guard)
	case !d.Configurable():
		fmt.Fprintf(w, "It cannot be disabled: a %s finding must be fixed.", d.Stage)
	default:
		fmt.Fprintf(w, "Disable it with --disable %s or in %s.", d.ID, lint.ProjectConfigFile)
	}
	fmt.Fprintf(w, "\n\n%s", d.Doc)
}

// specHome says where a key of a scope goes in a spec.
func specHome(s catalog.Scope) string {
	switch s {
	case catalog.ScopeGlobal:
		return "orchestratorSpec.slurmSpec.config"
	case catalog.ScopePartition:
		return "orchestratorSpec.slurmSpec.partitions[].config"
	case catalog.ScopeNode:
		return "orchestratorSpec.slurmSpec.nodeSets[].config"
	}
	return "a " + s.LineKey() + "= line, which a spec does not write"
}

// explainKey prints every scope's entry for a slurm.conf key; it reports
// false when the catalog does not know the key.
func explainKey(w io.Writer, name string) bool {
	cat := catalog.Default()
	scopes := cat.ScopesOf(name)
	if len(scopes) == 0 {
		return false
	}
	for i, s := range scopes {
		p, _ := cat.Lookup(s, name)
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s (%s key, in %s)\n", p.Name, s, specHome(s))
		if d := schema.KeyDescription(p); d != "" {
			fmt.Fprintf(w, "  %s\n", d)
		}
		if k, ok := managed.Lookup(p.Name); ok {
			fmt.Fprintf(w, "  Reserved: %s (reserved-key).\n", k.Reason)
		}
		fmt.Fprintf(w, "  Value: %s.\n", valueText(p))
		fmt.Fprintf(w, "  Slurm releases: %s.\n", p.PresentIn)
		for _, c := range keyChanges(p) {
			fmt.Fprintf(w, "  %s\n", c)
		}
	}
	return true
}

func valueText(p *catalog.Param) string {
	switch p.Kind {
	case catalog.KindBool:
		return "YES or NO (Slurm also reads TRUE/FALSE, UP/DOWN, 1/0)"
	case catalog.KindUint16:
		return "an integer 0-65535, or UNLIMITED"
	case catalog.KindUint32:
		return "an integer 0-4294967295 (a k suffix multiplies by 1024), or UNLIMITED"
	case catalog.KindUint64:
		return "a non-negative integer (a k suffix multiplies by 1024), or UNLIMITED"
	case catalog.KindLong:
		return "an integer, or UNLIMITED"
	case catalog.KindFloat:
		return "a decimal number, or UNLIMITED"
	case catalog.KindTime:
		return "a time: minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS, or UNLIMITED"
	case catalog.KindEnum, catalog.KindPlugin, catalog.KindList:
		var vals []string
		for _, ev := range p.Values {
			if ev.NotStandalone {
				continue
			}
			v := ev.Name
			if ev.PresentIn != catalog.AllVersions {
				v += " (" + ev.PresentIn.String() + ")"
			}
			vals = append(vals, v)
		}
		what := "one of"
		switch p.Kind {
		case catalog.KindList:
			what = "a comma-separated list of"
		case catalog.KindPlugin:
			what = "one of the plugins"
		}
		if len(vals) == 0 {
			return "text"
		}
		s := what + " " + strings.Join(vals, ", ")
		if p.IntTokens {
			s += ", or an integer"
		}
		return s
	}
	return "text"
}

// keyChanges lists where a key changed between releases: its status
// (deprecated, defunct, removed, ...) and the values added or removed.
func keyChanges(p *catalog.Param) []string {
	var out []string
	prev := catalog.Status(0)
	for _, v := range catalog.Versions() {
		st := p.StatusIn(v)
		switch {
		case prev == 0 && st.Problem() && st.Status != catalog.StatusNotAdded:
			out = append(out, fmt.Sprintf("In %s: %s.", v, st))
		case prev == 0 || st.Status == prev:
		case prev == catalog.StatusNotAdded:
			out = append(out, fmt.Sprintf("Added in %s.", v))
			if st.Problem() {
				out = append(out, fmt.Sprintf("In %s: %s.", v, st))
			}
		case st.Status == catalog.StatusRemoved:
			out = append(out, fmt.Sprintf("Removed in %s: slurmctld rejects it as an unknown key.", v))
		default:
			out = append(out, fmt.Sprintf("Changed in %s: %s.", v, st))
		}
		prev = st.Status
	}
	for _, ev := range p.Values {
		if ev.PresentIn == catalog.AllVersions || ev.PresentIn.Empty() {
			continue
		}
		if f := ev.PresentIn.First(); f != catalog.Oldest() {
			out = append(out, fmt.Sprintf("Value %s added in %s.", ev.Name, f))
		}
		if l := ev.PresentIn.Last(); l != catalog.Newest() {
			out = append(out, fmt.Sprintf("Value %s removed after %s.", ev.Name, l))
		}
	}
	return out
}

const rulesHelp = `List every diagnostic id slurmspec reports (the diagnostic catalog): its
id, the stage that reports it, its default severity and summary.

--format json prints a versioned document for scripts and editors with
every id: the lint rules (category "lint"), the online checks ("online")
and the ids of the other stages (usage, load, schema, compile, render and
internal), each with its severity, summary, Markdown description, the
unsafe output it guards against (a guarded rule cannot be disabled),
whether --disable accepts it, and a link to its documentation.
--format markdown writes docs/rules.md.`

// rulesWriter writes the diagnostic catalog in one format of rules --format.
type rulesWriter func(w io.Writer, cat *ids.Catalog) error

// rulesFormats are the formats of slurmspec rules --format, the default
// first.
func rulesFormats() *outformat.Registry[rulesWriter] {
	return outformat.MustNew(
		outformat.Format[rulesWriter]{Name: "text", Writer: func(w io.Writer, cat *ids.Catalog) error {
			for _, d := range cat.Entries() {
				fmt.Fprintf(w, "%-30s %-8s %-7s %s\n", d.ID, d.Stage, d.Severity, d.Summary)
			}
			return nil
		}},
		outformat.Format[rulesWriter]{Name: "json", Writer: func(w io.Writer, cat *ids.Catalog) error {
			return writeRulesJSON(w, rulesReport(cat, toolVersion()))
		}},
		outformat.Format[rulesWriter]{Name: "markdown", Note: "docs/rules.md", Writer: func(w io.Writer, cat *ids.Catalog) error {
			return rules.Markdown(w, cat.Entries())
		}},
	)
}

func newRulesCmd(e env) *cobra.Command {
	var (
		markdown bool
		outFmt   string
	)
	cmd := &cobra.Command{
		Use:   "rules",
		Short: "List every diagnostic id (--format json for scripts, markdown for docs/rules.md)",
		Long:  rulesHelp,
		Example: `  slurmspec rules
  slurmspec rules --format json | jq -r '.rules[] | select(.category == "lint") | .id'
  slurmspec rules --format markdown > docs/rules.md`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if markdown {
				outFmt = "markdown"
			}
			write, err := lookupFormat(rulesFormats(), outFmt)
			if err != nil {
				return err
			}
			return write(e.stdout, diagCatalog())
		},
	}
	formatFlag(cmd, &outFmt, rulesFormats())
	cmd.Flags().BoolVar(&markdown, "markdown", false, "print the rules reference in Markdown (as --format markdown)")
	return cmd
}
