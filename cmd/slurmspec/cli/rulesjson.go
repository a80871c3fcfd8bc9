package cli

import (
	"encoding/json"
	"io"
	"sort"

	"github.com/slurmspec/slurmspec/compiler/diag/ids"
	"github.com/slurmspec/slurmspec/lint/format"
)

// rulesJSONVersion is the version of `slurmspec rules --format json`. It
// changes only when a field is removed or changes meaning; new fields may
// appear without it.
const rulesJSONVersion = 1

// rulesJSON is the document `slurmspec rules --format json` prints.
type rulesJSON struct {
	Version int        `json:"version"`
	Rules   []ruleJSON `json:"rules"`
}

// ruleJSON describes one diagnostic id. Guard is "" when absent.
type ruleJSON struct {
	ID string `json:"id"`
	// Category is the stage that reports the id: lint (the lint rules and
	// the suppression comments' findings), online, usage, load, schema,
	// compile, render or internal.
	Category string `json:"category"`
	// Severity is the default severity: error, warning or info.
	Severity string `json:"severity"`
	// Summary is one line without a final period.
	Summary string `json:"summary"`
	// Description is Markdown.
	Description string `json:"description"`
	// Guard says what unsafe output a guarded rule keeps render from
	// writing.
	Guard string `json:"guard"`
	// Disableable tells whether --disable and the project config accept
	// the id (lint and online rules without a guard).
	Disableable bool `json:"disableable"`
	// HelpURI links to the id's section of docs/rules.md, for this
	// version of slurmspec.
	HelpURI string `json:"helpUri"`
}

// rulesReport lists every id of the catalog, by stage (lint first, then
// online, then the others in the order a spec meets them), each stage
// sorted by id.
func rulesReport(cat *ids.Catalog, version string) rulesJSON {
	out := rulesJSON{Version: rulesJSONVersion, Rules: []ruleJSON{}}
	order := map[ids.Stage]int{ids.Lint: -2, ids.Online: -1}
	for i, s := range ids.AllStages() {
		if _, first := order[s]; !first {
			order[s] = i
		}
	}
	entries := cat.Entries()
	sort.Slice(entries, func(i, j int) bool {
		a, b := entries[i], entries[j]
		if order[a.Stage] != order[b.Stage] {
			return order[a.Stage] < order[b.Stage]
		}
		return a.ID < b.ID
	})
	for _, d := range entries {
		out.Rules = append(out.Rules, ruleJSON{
			ID: d.ID, Category: string(d.Stage), Severity: d.Severity.String(), Summary: d.Summary,
			Description: d.Doc, Guard: d.Guard, Disableable: d.Disableable(),
			HelpURI: format.RuleHelpURI(version, d.ID),
		})
	}
	return out
}

func writeRulesJSON(w io.Writer, r rulesJSON) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
