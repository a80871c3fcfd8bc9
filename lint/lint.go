// Package lint runs rules over the IR. A rule is a plain value with a stable
// id, a severity, a summary, a document with a bad and a good example, and a
// check function; the list of rules is explicit (package lint/rules), with
// no registration side effects.
package lint

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/diag/ids"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/schema/accounting"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// Rule is one lint rule.
type Rule struct {
	// ID is stable and kebab-case; users disable rules by it.
	ID       string
	Severity diag.Severity
	// Summary is one line, without a final period.
	Summary string
	// Doc is Markdown: why the rule exists, then "Bad:" and "Good:"
	// examples as fenced blocks.
	Doc   string
	Check func(*Pass)
	// Guard, when set, says what unsafe output the rule keeps render from
	// writing. A guarded rule cannot be disabled and its severity cannot be
	// lowered (CheckOverrides); Run runs it even when disabled.
	Guard string
}

// Options are the settings every rule may read.
type Options struct {
	// SlurmVersion is the Slurm release series the spec targets ("26.05").
	SlurmVersion string
	// Build is the build profile the spec targets (catalog.ParseBuild:
	// "service" or "debian"; "" the default, catalog.DefaultTarget).
	Build string
	// Accounting is the spec's accounting file, nil when it has none
	// (or it has errors, which its loading reported).
	Accounting *accounting.File
}

// Target is the release and build the options name, the default's where
// they name none (or a name that does not parse, which the pipeline
// refuses before lint runs).
func (o Options) Target() catalog.Target {
	t, err := catalog.ParseTarget(o.SlurmVersion, o.Build)
	if err != nil {
		return catalog.DefaultTarget()
	}
	return t
}

// Pass is what a rule's Check receives: the cluster, and a way to report.
type Pass struct {
	Cluster *ir.Cluster
	Options Options
	rule    *Rule
	diags   *diag.List
	memo    map[any]any
	// unsound is set when the check read an Unknown value that decides
	// its findings.
	unsound bool
}

// ReadUnknown records that the check read a value the schema refused
// (Unknown in the IR of a partly invalid spec) where it decides the rule's
// findings, as a cross-key rule reading the effective slurm.conf does: Run
// drops this rule's findings, which would be consequences of the schema's
// error. Rules that report per object skip the Unknown objects themselves
// instead.
func (p *Pass) ReadUnknown() { p.unsound = true }

// Memo returns the value computed by f for key, computing it once per Run:
// rules share derived views of the cluster (the effective slurm.conf)
// instead of each building its own. f must not report.
func (p *Pass) Memo(key any, f func() any) any {
	if v, ok := p.memo[key]; ok {
		return v
	}
	v := f()
	if p.memo != nil {
		p.memo[key] = v
	}
	return v
}

// Report records a finding of the running rule at the rule's severity.
func (p *Pass) Report(pos diag.Pos, path, hint, format string, args ...any) {
	p.ReportAs(p.rule.Severity, pos, path, hint, format, args...)
}

// ReportAs records a finding with an explicit severity, for rules whose
// findings differ in weight (an uncertain catalog fact is a warning).
func (p *Pass) ReportAs(sev diag.Severity, pos diag.Pos, path, hint, format string, args ...any) {
	p.diags.Add(diag.Diagnostic{Rule: p.rule.ID, Severity: sev, Pos: pos, Path: path, Hint: hint, Message: fmt.Sprintf(format, args...)})
}

// Config selects and adjusts rules for a run.
type Config struct {
	Options
	// Disabled holds rule ids not to run.
	Disabled map[string]bool
	// Severity overrides the severity of every finding of a rule (a
	// project config's severity map).
	Severity map[string]diag.Severity
}

// Adjust returns l with cfg's severity overrides applied to the findings
// of the overridden rules (Run applies them; findings made elsewhere, as
// the online checks', go through Adjust). l is not modified.
func (cfg Config) Adjust(l diag.List) diag.List {
	if len(cfg.Severity) == 0 {
		return l
	}
	out := make(diag.List, len(l))
	for i, d := range l {
		if sev, ok := cfg.Severity[d.Rule]; ok {
			d.Severity = sev
		}
		out[i] = d
	}
	return out
}

// Run runs every enabled rule, and every guarded rule, and returns their
// findings, with cfg's severity overrides applied. A rule that panics is
// reported as an internal error instead of crashing the run.
//
// On the IR of a partly invalid spec (compiler.CompilePartial) every rule
// runs on every object; a finding about a value the schema refused, or one
// derived from it (a path of c.Unsound), is dropped: the schema's error is
// the one report of that value. A rule that reasons across objects skips,
// itself, the objects whose values are Unknown.
func Run(c *ir.Cluster, rules []*Rule, cfg Config) diag.List {
	var l diag.List
	memo := map[any]any{}
	for _, r := range rules {
		if cfg.Disabled[r.ID] && r.Guard == "" {
			continue
		}
		before := len(l)
		pass := &Pass{Cluster: c, Options: cfg.Options, rule: r, diags: &l, memo: memo}
		runOne(r, pass)
		if pass.unsound {
			l = l[:before]
		}
	}
	if c.Unsound.Len() > 0 {
		sound := l[:0]
		for _, d := range l {
			if d.Rule == "internal-error" || !c.Unsound.Drops(d) {
				sound = append(sound, d)
			}
		}
		l = sound
	}
	return cfg.Adjust(l)
}

func runOne(r *Rule, p *Pass) {
	defer func() {
		if v := recover(); v != nil {
			p.diags.Add(diag.Diagnostic{Rule: "internal-error", Severity: diag.Error, Pos: diag.Pos{File: p.Cluster.File},
				Message: fmt.Sprintf("internal error: rule %s panicked: %v", r.ID, v), Hint: "please report this with the spec that caused it"})
		}
	}()
	r.Check(p)
}

// Validate checks a rule list: ids well-formed and unique, summaries and
// docs present, docs with a bad and a good example.
func Validate(rules []*Rule) error {
	var problems []string
	seen := map[string]bool{}
	for _, r := range rules {
		switch {
		case !ids.WellFormed(r.ID):
			problems = append(problems, fmt.Sprintf("rule id %q is not kebab-case", r.ID))
		case seen[r.ID]:
			problems = append(problems, fmt.Sprintf("rule id %q is used twice", r.ID))
		}
		seen[r.ID] = true
		if r.Summary == "" || strings.HasSuffix(r.Summary, ".") {
			problems = append(problems, fmt.Sprintf("rule %s: summary must be one line without a final period", r.ID))
		}
		if !strings.Contains(r.Doc, "Bad:") || !strings.Contains(r.Doc, "Good:") {
			problems = append(problems, fmt.Sprintf("rule %s: doc needs a Bad: and a Good: example", r.ID))
		}
		if r.Guard != "" && r.Severity != diag.Error {
			problems = append(problems, fmt.Sprintf("rule %s: a guarded rule must be an error", r.ID))
		}
		if r.Check == nil {
			problems = append(problems, fmt.Sprintf("rule %s: no Check function", r.ID))
		}
	}
	if len(problems) > 0 {
		sort.Strings(problems)
		return fmt.Errorf("invalid rules:\n  %s", strings.Join(problems, "\n  "))
	}
	return nil
}

// Find returns the rule with the given id, or nil.
func Find(rules []*Rule, id string) *Rule {
	for _, r := range rules {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// Entry is the rule's entry in the diagnostic catalog (package
// compiler/diag/ids), of stage lint.
func (r *Rule) Entry() ids.Entry {
	return ids.Entry{ID: r.ID, Stage: ids.Lint, Severity: r.Severity, Summary: r.Summary, Doc: r.Doc, Guard: r.Guard}
}

// Entries returns the rules' catalog entries, in list order: a rule in a
// list that reaches the catalog (lint/pipeline.Catalog joins rules.All) is
// catalogued without a second declaration.
func Entries(rules []*Rule) []ids.Entry {
	out := make([]ids.Entry, len(rules))
	for i, r := range rules {
		out[i] = r.Entry()
	}
	return out
}

// CheckOverrides refuses a configuration that names an id it may not:
// disabling or changing the severity of an id that is no lint rule or
// online check (a load, schema, compile or render finding must be fixed),
// disabling a guarded rule, or setting its severity below the rule's own.
// It is the one check of every source of rule configuration (--disable, a
// project config's disable: and severity:); ProjectConfig.Check calls it
// after reporting the ids the catalog does not have.
func CheckOverrides(cat *ids.Catalog, disabled []string, severity map[string]diag.Severity) error {
	var problems []string
	for _, id := range disabled {
		e, ok := cat.Lookup(strings.TrimSpace(id))
		switch {
		case !ok:
		case !e.Configurable():
			problems = append(problems, fmt.Sprintf("%s cannot be disabled: it is a %s finding, which must be fixed", e.ID, e.Stage))
		case e.Guard != "":
			problems = append(problems, fmt.Sprintf("rule %s cannot be disabled: %s", e.ID, e.Guard))
		}
	}
	for _, id := range sortedKeys(severity) {
		e, ok := cat.Lookup(id)
		switch {
		case !ok:
		case !e.Configurable():
			problems = append(problems, fmt.Sprintf("%s cannot change severity: it is a %s finding, which must be fixed", e.ID, e.Stage))
		case e.Guard != "" && severity[id] < e.Severity:
			problems = append(problems, fmt.Sprintf("rule %s cannot be lowered to %s: %s", e.ID, severity[id], e.Guard))
		}
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "; "))
	}
	return nil
}

// Guarded returns the guarded rules of a list, in list order.
func Guarded(rules []*Rule) []*Rule {
	var out []*Rule
	for _, r := range rules {
		if r.Guard != "" {
			out = append(out, r)
		}
	}
	return out
}
