// Package suppress reads inline suppression comments in a spec and applies
// them to the spec's findings.
//
// A directive is a comment that starts with "slurmspec:" and a letter
// (after the comment's #, // or /* and optional white space):
//
//	# slurmspec:ignore RULE[,RULE...] -- REASON
//	# slurmspec:ignore-file RULE[,RULE...] -- REASON
//
// ignore silences the named rules' findings on the line the comment trails,
// or, on a line of its own, on the next line with code and in the whole
// value that starts there (a node pool, a partition, a slurm.conf key):
// every finding whose spec path lies in it. ignore-file silences them in
// the whole file. The reason is required.
//
// Only lint rules can be suppressed. A directive without a reason, naming
// an unknown rule, a guarded rule (docs/security.md) or a schema or syntax
// id is itself an error (invalid-suppression) and silences nothing; a
// directive that silences nothing is a warning (unused-suppression),
// unless its rule is disabled or the spec has schema or compile errors
// (rules skip the values those make meaningless).
package suppress

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/diag/ids"
	"github.com/slurmspec/slurmspec/compiler/load"
)

const marker = "slurmspec:"

// Bounds on what a hostile spec can make Apply do. A directive longer than
// MaxDirectiveLen, or with more than MaxRules rules, is invalid; the
// directives after the first MaxDirectives of a file are reported once and
// ignored.
const (
	MaxDirectives   = 4096
	MaxDirectiveLen = 1024
	MaxRules        = 32
)

// Policy says which rules a directive may name.
type Policy struct {
	// Catalog holds every id a run can report; a directive may name its
	// lint rules that are not guarded and not this package's own (not the
	// online rules: their findings are made after Apply runs).
	Catalog *ids.Catalog
	// Disabled rules report nothing, so a directive that names one is
	// not reported as unused.
	Disabled map[string]bool
}

// Suppressed is a finding a directive silenced.
type Suppressed struct {
	diag.Diagnostic
	// Justification is the directive's reason.
	Justification string
	// Directive is where the directive is written.
	Directive diag.Pos
}

// directive is one parsed, valid directive.
type directive struct {
	pos    diag.Pos
	file   bool
	rules  []string
	reason string
	// line is the line it applies to; path, for a directive on a line of
	// its own, the spec path of the value that starts on that line ("" when
	// none); where, the spec path its own findings name.
	line  int
	path  string
	where string
	used  map[string]bool
}

// Apply reads doc's directives and splits l (the spec's findings) into the
// findings kept and those silenced. own are the directives' findings
// (invalid-suppression, unused-suppression), for the caller to filter by
// its configuration like any lint rule's findings. A document that did not
// parse has no directives: l is returned as is.
func Apply(doc *load.Document, l diag.List, pol Policy) (kept diag.List, suppressed []Suppressed, own diag.List) {
	if doc == nil || doc.Root == nil || !bytes.Contains(doc.Source, []byte(marker)) {
		return l, nil, nil
	}
	dirs, own := parse(doc, pol)
	if len(dirs) == 0 {
		return l, nil, own
	}
	idx := index(dirs)
	stageErrors := false
	for _, d := range l {
		stageErrors = stageErrors || d.Severity == diag.Error && !configurable(pol.Catalog, d.Rule)
		if dir := idx.match(doc.File, d); dir != nil {
			dir.used[d.Rule] = true
			suppressed = append(suppressed, Suppressed{Diagnostic: d, Justification: dir.reason, Directive: dir.pos})
			continue
		}
		kept = append(kept, d)
	}
	if stageErrors {
		// The spec has schema or compile errors: rules skipped the
		// values those make meaningless, so an unmatched directive may
		// just not have been reached yet.
		return kept, suppressed, own
	}
	for _, dir := range dirs {
		for _, r := range dir.rules {
			if !dir.used[r] && !pol.Disabled[r] {
				own.Warnf(RuleUnused, dir.pos, dir.where, "remove the directive, or the rule id that no longer applies",
					"suppression of %s matches no finding", r)
			}
		}
	}
	return kept, suppressed, own
}

// parse finds and checks the directives of doc.
func parse(doc *load.Document, pol Policy) ([]*directive, diag.List) {
	var own diag.List
	src := scan(doc.Format, doc.Source)
	lines := lineStarts(doc.Source)
	pos := func(off int) diag.Pos {
		line := searchLine(lines, off)
		return diag.Pos{File: doc.File, Line: line, Col: 1 + utf8.RuneCount(doc.Source[lines[line-1]:off])}
	}
	var paths map[int]string
	var dirs []*directive
	for i, c := range src.comments {
		p := pos(c.off)
		if i == MaxDirectives {
			own.Errorf(RuleInvalid, p, "", "suppress fewer findings: fix them, or use one slurmspec:ignore-file",
				"more than %d suppression directives in one file; this and the following ones are ignored", MaxDirectives)
			break
		}
		line, where := src.target(c), ""
		if line > 0 {
			if paths == nil {
				paths = linePaths(doc.Root)
			}
			where = paths[line]
		}
		dir, err := parseDirective(string(doc.Source[c.start:c.end]), pol)
		if err != nil {
			own.Errorf(RuleInvalid, p, where, err.hint, "%s", err.msg)
			continue
		}
		dir.pos, dir.where = p, where
		if dir.file {
			dir.where = ""
		} else {
			if line == 0 {
				own.Errorf(RuleInvalid, p, "", "put the directive on the line it is about, or on the line before it",
					"suppression directive precedes no value")
				continue
			}
			dir.line = line
			if !c.trailing {
				dir.path = where
			}
		}
		dirs = append(dirs, dir)
	}
	return dirs, own
}

type parseError struct{ msg, hint string }

const syntaxHint = "write: slurmspec:ignore RULE[,RULE...] -- REASON (or slurmspec:ignore-file)"

// parseDirective parses the text of a comment that starts with the marker.
func parseDirective(text string, pol Policy) (*directive, *parseError) {
	text = strings.TrimSpace(text)
	if len(text) > MaxDirectiveLen {
		return nil, &parseError{fmt.Sprintf("suppression directive is longer than %d bytes", MaxDirectiveLen), "shorten the reason"}
	}
	rest := strings.TrimPrefix(text, marker)
	verb, args := rest, ""
	if i := strings.IndexAny(rest, " \t\r\n"); i >= 0 {
		verb, args = rest[:i], rest[i+1:]
	}
	dir := &directive{used: map[string]bool{}}
	switch verb {
	case "ignore":
	case "ignore-file":
		dir.file = true
	default:
		return nil, &parseError{fmt.Sprintf("unknown directive %q", marker+verb), diag.DidYouMean(verb, []string{"ignore", "ignore-file"}, syntaxHint)}
	}
	ids, reason, ok := strings.Cut(args, "--")
	if reason = strings.TrimSpace(reason); !ok || reason == "" {
		return nil, &parseError{"suppression directive has no reason", "say why after \" -- \": " + syntaxHint}
	}
	dir.reason = reason
	for id := range strings.SplitSeq(ids, ",") {
		if id = strings.TrimSpace(id); id == "" {
			continue
		}
		if len(dir.rules) == MaxRules {
			return nil, &parseError{fmt.Sprintf("suppression directive names more than %d rules", MaxRules), "use one directive per few rules"}
		}
		if err := suppressible(id, pol.Catalog); err != nil {
			return nil, err
		}
		dir.rules = append(dir.rules, id)
	}
	if len(dir.rules) == 0 {
		return nil, &parseError{"suppression directive names no rule", syntaxHint}
	}
	return dir, nil
}

// configurable reports whether id is a lint rule's or an online check's,
// not another stage's.
func configurable(cat *ids.Catalog, id string) bool {
	e, ok := cat.Lookup(id)
	return ok && e.Configurable()
}

// suppressible checks that a directive may name the rule id.
func suppressible(id string, cat *ids.Catalog) *parseError {
	e, ok := cat.Lookup(id)
	switch {
	case !ok || !e.Configurable():
		return &parseError{fmt.Sprintf("cannot suppress %q: only lint rules can be suppressed, and schema and syntax errors must be fixed", id),
			diag.DidYouMean(id, cat.Select(ids.Entry.Configurable), "see `slurmspec rules` for the rule ids")}
	case e.Stage == ids.Online:
		return &parseError{fmt.Sprintf("rule %s cannot be suppressed inline: online rules report after inline suppressions are applied", id),
			"disable it with --disable or in .slurmspec.yaml"}
	case e.Guard != "":
		return &parseError{fmt.Sprintf("rule %s cannot be suppressed: %s", id, e.Guard), "fix the spec; see docs/security.md"}
	case e.ID == RuleInvalid || e.ID == RuleUnused:
		return &parseError{fmt.Sprintf("rule %s cannot be suppressed inline", id), "fix the directive, or disable the rule in .slurmspec.yaml"}
	}
	return nil
}

// lineStarts returns the byte offset of each line's start.
func lineStarts(src []byte) []int {
	starts := make([]int, 1, bytes.Count(src, []byte{'\n'})+1)
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// searchLine returns the 1-based line of a byte offset.
func searchLine(starts []int, off int) int {
	lo, hi := 0, len(starts)
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if starts[mid] <= off {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + 1
}

// linePaths maps each line to the spec path of the outermost value (a
// field, or an element of a list) that starts on it.
func linePaths(root *load.Node) map[int]string {
	m := map[int]string{}
	var walk func(n *load.Node, p load.Path)
	walk = func(n *load.Node, p load.Path) {
		switch n.Kind {
		case load.Object:
			for _, f := range n.Fields {
				fp := p.Key(f.Name)
				if _, ok := m[f.KeyPos.Line]; !ok {
					m[f.KeyPos.Line] = fp.String()
				}
				walk(f.Value, fp)
			}
		case load.Array:
			for i, it := range n.Items {
				ip := p.Index(i)
				if _, ok := m[it.Pos.Line]; !ok {
					m[it.Pos.Line] = ip.String()
				}
				walk(it, ip)
			}
		}
	}
	walk(root, nil)
	return m
}

// matcher finds the directive that silences a finding.
type matcher struct {
	byLine map[key]*directive
	byPath map[key]*directive
	file   map[string]*directive
}

type key struct {
	at   any // a line (int) or a path (string)
	rule string
}

func index(dirs []*directive) matcher {
	m := matcher{byLine: map[key]*directive{}, byPath: map[key]*directive{}, file: map[string]*directive{}}
	for _, d := range dirs {
		for _, r := range d.rules {
			switch {
			case d.file:
				setOnce(m.file, r, d)
			default:
				setOnce(m.byLine, key{d.line, r}, d)
				if d.path != "" {
					setOnce(m.byPath, key{d.path, r}, d)
				}
			}
		}
	}
	return m
}

// setOnce keeps the first directive for a key: a second one for the same
// place and rule then matches nothing and is reported unused.
func setOnce[K comparable](m map[K]*directive, k K, d *directive) {
	if _, ok := m[k]; !ok {
		m[k] = d
	}
}

// match returns the directive that silences d, or nil: one on d's line,
// one before the value d's path lies in, or one for the whole file.
func (m matcher) match(file string, d diag.Diagnostic) *directive {
	if d.Pos.IsValid() && (d.Pos.File == file || d.Pos.File == "") {
		if dir := m.byLine[key{d.Pos.Line, d.Rule}]; dir != nil {
			return dir
		}
	}
	if len(m.byPath) > 0 {
		for p := d.Path; p != ""; p = parent(p) {
			if dir := m.byPath[key{p, d.Rule}]; dir != nil {
				return dir
			}
		}
	}
	return m.file[d.Rule]
}

// parent returns a path without its last element ("" for a single one).
// A quoted key holding '.' or '[' yields prefixes that name no value;
// they match nothing.
func parent(p string) string {
	i := strings.LastIndexAny(p, ".[")
	if i < 0 {
		return ""
	}
	return p[:i]
}
