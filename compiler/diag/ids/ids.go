// Package ids is the catalog of diagnostic ids: every id a finding of
// slurmspec can carry (compiler/diag.Diagnostic.Rule), with the stage that
// reports it, its default severity, a one-line summary, its document and
// its anchor in docs/rules.md. The stages before and after lint declare
// their ids here (Stages); lint rules, the online checks and the inline
// suppression comments contribute theirs from their own packages
// (lint.Entries, lint/online.Entries, lint/suppress.Entries), and
// lint/pipeline.Catalog joins them. Everything that shows or accepts an id
// reads the joined catalog: the SARIF rules, `slurmspec explain`,
// `slurmspec rules`, docs/rules.md, --disable and .slurmspec.yaml.
//
// The package sits in layer 0 beside package diag so that the loader and
// the schema, which report in layers 0 and 1, may name their ids from it.
package ids

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// Stage is the part of slurmspec that reports an id.
type Stage string

// Stages, in the order a spec meets them.
const (
	// Usage: the command line is wrong.
	Usage Stage = "usage"
	// Load: reading and parsing a spec (compiler/load).
	Load Stage = "load"
	// Schema: the CUE schema (schema).
	Schema Stage = "schema"
	// Compile: decoding into the IR, the cluster's identity (compiler).
	Compile Stage = "compile"
	// Lint: the lint rules and the inline suppression comments.
	Lint Stage = "lint"
	// Online: the checks of slurmspec-online against live APIs.
	Online Stage = "online"
	// Render: writing the cluster's files and the Pulumi project.
	Render Stage = "render"
	// Internal: a bug in slurmspec, in any stage.
	Internal Stage = "internal"
)

// AllStages lists the stages in order.
func AllStages() []Stage {
	return []Stage{Usage, Load, Schema, Compile, Lint, Online, Render, Internal}
}

// DocsPath is the page, relative to the repository root, that documents
// every id under a heading of its own (Entry.Anchor).
const DocsPath = "docs/rules.md"

// Entry describes one diagnostic id.
type Entry struct {
	// ID is stable and kebab-case.
	ID    string
	Stage Stage
	// Severity is the default severity of the id's findings.
	Severity diag.Severity
	// Summary is one line without a final period.
	Summary string
	// Doc is Markdown: what the finding means and how to fix it.
	Doc string
	// Guard, for a lint rule, says what unsafe output the rule keeps
	// render from writing: such a rule cannot be disabled or lowered.
	Guard string
}

// Anchor is the fragment of the id's section in DocsPath.
func (e Entry) Anchor() string { return e.ID }

// Configurable reports whether --disable and .slurmspec.yaml may name the
// id at all: the lint rules, the suppression comments' findings and the
// online checks. The other stages' findings must be fixed.
func (e Entry) Configurable() bool { return e.Stage == Lint || e.Stage == Online }

// Disableable reports whether --disable and .slurmspec.yaml's disable:
// accept the id: a configurable id that guards nothing.
func (e Entry) Disableable() bool { return e.Configurable() && e.Guard == "" }

// Catalog is a checked list of entries, in the order given.
type Catalog struct {
	entries []Entry
	byID    map[string]int
}

// New checks the entries (Validate) and returns their catalog.
func New(entries ...[]Entry) (*Catalog, error) {
	c := &Catalog{byID: map[string]int{}}
	for _, es := range entries {
		c.entries = append(c.entries, es...)
	}
	if err := Validate(c.entries); err != nil {
		return nil, err
	}
	for i, e := range c.entries {
		c.byID[e.ID] = i
	}
	return c, nil
}

// MustNew is New for entry lists fixed in the code, which tests keep valid.
func MustNew(entries ...[]Entry) *Catalog {
	c, err := New(entries...)
	if err != nil {
		panic(err)
	}
	return c
}

// Entries returns the entries in catalog order; the caller may modify the
// slice.
func (c *Catalog) Entries() []Entry { return slices.Clone(c.entries) }

// Lookup returns the entry of an id.
func (c *Catalog) Lookup(id string) (Entry, bool) {
	i, ok := c.byID[id]
	if !ok {
		return Entry{}, false
	}
	return c.entries[i], true
}

// IDs returns every id, sorted.
func (c *Catalog) IDs() []string {
	out := make([]string, 0, len(c.entries))
	for _, e := range c.entries {
		out = append(out, e.ID)
	}
	slices.Sort(out)
	return out
}

// Select returns the ids of the entries keep accepts, sorted.
func (c *Catalog) Select(keep func(Entry) bool) []string {
	var out []string
	for _, e := range c.entries {
		if keep(e) {
			out = append(out, e.ID)
		}
	}
	slices.Sort(out)
	return out
}

var idRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`) })

// WellFormed reports whether id is a diagnostic id as every stage writes
// one: kebab-case, lower-case letters and digits, starting with a letter.
func WellFormed(id string) bool { return idRe().MatchString(id) }

// Validate checks entries: ids kebab-case and unique, a known stage, a
// summary of one line without a final period, a document, and a guard
// only on an error-level lint rule.
func Validate(entries []Entry) error {
	var problems []string
	seen := map[string]bool{}
	for _, e := range entries {
		switch {
		case !WellFormed(e.ID):
			problems = append(problems, fmt.Sprintf("id %q is not kebab-case", e.ID))
		case seen[e.ID]:
			problems = append(problems, fmt.Sprintf("id %q is used twice", e.ID))
		}
		seen[e.ID] = true
		if !slices.Contains(AllStages(), e.Stage) {
			problems = append(problems, fmt.Sprintf("%s: unknown stage %q", e.ID, e.Stage))
		}
		if e.Summary == "" || strings.HasSuffix(e.Summary, ".") || strings.Contains(e.Summary, "\n") {
			problems = append(problems, fmt.Sprintf("%s: the summary must be one line without a final period", e.ID))
		}
		if strings.TrimSpace(e.Doc) == "" {
			problems = append(problems, fmt.Sprintf("%s: no doc", e.ID))
		}
		if e.Guard != "" && (e.Stage != Lint || e.Severity != diag.Error) {
			problems = append(problems, fmt.Sprintf("%s: only an error-level lint rule may guard", e.ID))
		}
	}
	if len(problems) > 0 {
		slices.Sort(problems)
		return fmt.Errorf("invalid diagnostic catalog:\n  %s", strings.Join(problems, "\n  "))
	}
	return nil
}
