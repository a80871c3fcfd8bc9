// Package diag defines the one diagnostic type that every stage of slurmspec
// reports: the loader, the CUE schema, the compiler, the lint rules and the
// renderer. A diagnostic is a value; stages collect them in a List instead of
// stopping at the first problem.
package diag

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Severity orders diagnostics by how much they matter.
type Severity int

// Severities, from least to most severe.
const (
	Info Severity = iota
	Warning
	Error
)

// String returns the lower-case name used in text output and config files.
func (s Severity) String() string {
	switch s {
	case Info:
		return "info"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return fmt.Sprintf("severity(%d)", int(s))
}

// ParseSeverity is the inverse of Severity.String.
func ParseSeverity(s string) (Severity, error) {
	switch strings.ToLower(s) {
	case "info":
		return Info, nil
	case "warning", "warn":
		return Warning, nil
	case "error":
		return Error, nil
	}
	return 0, fmt.Errorf("unknown severity %q (want error, warning or info)", s)
}

// Pos is a position in a source file. Line and Col are 1-based; a zero Line
// means the position is unknown (for example for a value given by a flag).
//
// A position the loader gives a value is a range: EndLine and EndCol are
// where the value ends, the line and column just after its last character
// (exclusive, as SARIF's endColumn), in the same file. A zero EndLine means
// the end is unknown. Columns count characters, not bytes. String and
// Compare use the start only, so a range prints and sorts as its start.
type Pos struct {
	File string
	Line int
	Col  int

	EndLine int
	EndCol  int
}

// IsValid reports whether the position names a line.
func (p Pos) IsValid() bool { return p.Line > 0 }

// HasEnd reports whether the position is a range with a known end.
func (p Pos) HasEnd() bool { return p.IsValid() && p.EndLine > 0 }

// Start returns the position without its end.
func (p Pos) Start() Pos { return Pos{File: p.File, Line: p.Line, Col: p.Col} }

// End returns the end of a range as a position, or an invalid position when
// the end is unknown.
func (p Pos) End() Pos {
	if !p.HasEnd() {
		return Pos{File: p.File}
	}
	return Pos{File: p.File, Line: p.EndLine, Col: p.EndCol}
}

// Through returns p as a range that ends where end starts. An end in
// another file, unknown, or not after p's start leaves p without an end:
// a range covers at least one character.
func (p Pos) Through(end Pos) Pos {
	p.EndLine, p.EndCol = 0, 0
	if p.IsValid() && end.IsValid() && end.File == p.File &&
		(end.Line > p.Line || end.Line == p.Line && end.Col > p.Col) {
		p.EndLine, p.EndCol = end.Line, end.Col
	}
	return p
}

// String formats the position as file:line:col, or as much of it as is
// known. The end of a range is not printed.
func (p Pos) String() string {
	switch {
	case p.File == "" && !p.IsValid():
		return "-"
	case !p.IsValid():
		return p.File
	case p.Col <= 0:
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Compare orders positions by file, line and column of their start.
func (p Pos) Compare(q Pos) int {
	return cmp.Or(strings.Compare(p.File, q.File), cmp.Compare(p.Line, q.Line), cmp.Compare(p.Col, q.Col))
}

// Related is a secondary position that helps explain a diagnostic, such as
// the other spelling of a field given twice.
type Related struct {
	Pos     Pos
	Path    string
	Message string
}

// Diagnostic is one finding.
type Diagnostic struct {
	// Rule is the stable kebab-case id of the rule or check that produced the
	// diagnostic, e.g. "schema-type" or "preempt-suspend-needs-gang".
	Rule     string
	Severity Severity
	// Pos is where the problem is in the spec.
	Pos Pos
	// Path is the normalised spec path of the value, in the API's camelCase
	// spelling, e.g. "orchestratorSpec.slurmSpec.partitions[1].nodePoolIds[0]".
	Path    string
	Message string
	// Hint says how to fix the problem; it may carry a did-you-mean.
	Hint    string
	Related []Related
}

// String formats the diagnostic as "file:line:col: severity: message [rule]".
func (d Diagnostic) String() string {
	return fmt.Sprintf("%s: %s: %s [%s]", d.Pos, d.Severity, d.Message, d.Rule)
}

// List is an ordered collection of diagnostics.
type List []Diagnostic

// Add appends a diagnostic.
func (l *List) Add(d Diagnostic) { *l = append(*l, d) }

// Errorf appends an error-severity diagnostic.
func (l *List) Errorf(rule string, pos Pos, path, hint, format string, args ...any) {
	l.Add(Diagnostic{Rule: rule, Severity: Error, Pos: pos, Path: path, Hint: hint, Message: fmt.Sprintf(format, args...)})
}

// Warnf appends a warning-severity diagnostic.
func (l *List) Warnf(rule string, pos Pos, path, hint, format string, args ...any) {
	l.Add(Diagnostic{Rule: rule, Severity: Warning, Pos: pos, Path: path, Hint: hint, Message: fmt.Sprintf(format, args...)})
}

// HasErrors reports whether any diagnostic is an error.
func (l List) HasErrors() bool { return l.Count(Error) > 0 }

// Count returns how many diagnostics have at least the given severity.
func (l List) Count(min Severity) int {
	n := 0
	for _, d := range l {
		if d.Severity >= min {
			n++
		}
	}
	return n
}

// Compare orders diagnostics by position, then rule id, then path, then
// message, so that output is deterministic.
func Compare(a, b Diagnostic) int {
	return cmp.Or(a.Pos.Compare(b.Pos), strings.Compare(a.Rule, b.Rule),
		strings.Compare(a.Path, b.Path), strings.Compare(a.Message, b.Message))
}

// Sort sorts the list deterministically and removes exact duplicates.
func (l List) Sort() List {
	out := slices.Clone(l)
	slices.SortStableFunc(out, Compare)
	return slices.CompactFunc(out, func(a, b Diagnostic) bool {
		return Compare(a, b) == 0 && a.Severity == b.Severity && a.Hint == b.Hint
	})
}

// Summary is "N errors, M warnings", followed by ", K notes" when there
// are info diagnostics: the count every command prints for a spec. Each
// severity is counted on its own (a warning count excludes errors).
func (l List) Summary() string {
	w, n := l.Count(Warning), l.Count(Info)
	e := l.Count(Error)
	s := Plural(e, "error") + ", " + Plural(w-e, "warning")
	if n > w {
		s += ", " + Plural(n-w, "note")
	}
	return s
}

// Plural is "1 noun" or "N nouns".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
