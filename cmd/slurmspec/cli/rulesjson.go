package cli

import (
	"encoding/json"
	"io"
	"sort"
	"strings"

	"github.com/slurmspec/slurmspec/lint"
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

// ruleJSON describes one diagnostic id. Guard and HelpURI are "" when
// absent.
type ruleJSON struct {
	ID string `json:"id"`
	// Category is "lint" for a lint rule, else the stage that reports
	// the id: load, schema, compile, render, internal or usage.
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
	// the id (lint rules without a guard).
	Disableable bool `json:"disableable"`
	// HelpURI links to the rule's section of docs/rules.md, for this
	// version of slurmspec; stage ids are documented by `slurmspec
	// explain ID`.
	HelpURI string `json:"helpUri"`
}

// rulesReport lists the lint rules, then the stage ids, each group sorted
// by id.
func rulesReport(rs []*lint.Rule, version string) rulesJSON {
	out := rulesJSON{Version: rulesJSONVersion, Rules: []ruleJSON{}}
	lintRules := make([]ruleJSON, 0, len(rs))
	for _, r := range rs {
		lintRules = append(lintRules, ruleJSON{
			ID: r.ID, Category: "lint", Severity: r.Severity.String(), Summary: r.Summary,
			Description: r.Doc, Guard: r.Guard, Disableable: r.Guard == "",
			HelpURI: format.RuleHelpURI(version, r.ID),
		})
	}
	sort.Slice(lintRules, func(i, j int) bool { return lintRules[i].ID < lintRules[j].ID })
	stages := make([]ruleJSON, 0, len(stageIDs))
	for id, d := range stageIDs {
		stages = append(stages, ruleJSON{ID: id, Category: stageCategory(id), Severity: d.severity, Summary: d.summary, Description: d.doc})
	}
	sort.Slice(stages, func(i, j int) bool { return stages[i].ID < stages[j].ID })
	out.Rules = append(append(out.Rules, lintRules...), stages...)
	return out
}

// stageCategory is the stage that reports a stage id.
func stageCategory(id string) string {
	switch {
	case strings.HasPrefix(id, "load-"), id == "duplicate-key", id == "both-spellings":
		return "load"
	case strings.HasPrefix(id, "schema-"):
		return "schema"
	case strings.HasPrefix(id, "render-"):
		return "render"
	case id == "internal-error":
		return "internal"
	case id == "usage":
		return "usage"
	}
	return "compile"
}

func writeRulesJSON(w io.Writer, r rulesJSON) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
