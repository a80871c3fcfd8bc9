// Package format prints the outcome of a lint run. Each output format is a
// small adapter behind the Formatter interface: Text for people, JSON for
// scripts, SARIF for code-scanning services and GitHub for workflow
// annotations. Formats is their registry (package compiler/outformat),
// New makes one by name; docs/output-formats.md describes each of them.
package format

import (
	"io"
	"path"
	"path/filepath"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/diag/ids"
	"github.com/slurmspec/slurmspec/compiler/outformat"
	"github.com/slurmspec/slurmspec/lint/suppress"
)

// Formatter writes a whole run. Formatters sort each file's diagnostics, so
// the same run always gives the same bytes.
type Formatter interface {
	Format(w io.Writer, r Run) error
}

// Run is everything one invocation of the linter found.
type Run struct {
	// Files are reported in this order (the order given on the command
	// line).
	Files []File
	// Rules is the diagnostic catalog (RuleInfos of
	// lint/pipeline.Catalog), for formats that describe rules (SARIF).
	Rules []RuleInfo
	// ToolVersion is slurmspec's version ("v1.2.3", a pseudo-version or
	// "(devel)"); it picks the docs a rule's help link points at.
	ToolVersion string
	// Failures are checks that could not run, one message each (an
	// online check that could not reach its API). Like an unreadable
	// file, a failure makes the run unsuccessful (SARIF's
	// executionSuccessful): its findings are incomplete.
	Failures []string
}

// File is one input and its findings.
type File struct {
	// Name is the file name used in the diagnostics' positions
	// ("<stdin>" for standard input).
	Name string
	// Source is the file's content, for source excerpts; it may be nil.
	Source []byte
	Diags  diag.List
	// Suppressed are the findings inline suppression comments silenced:
	// not counted, listed by the json format and, as suppressed
	// results, by the sarif format.
	Suppressed []suppress.Suppressed
	// Error means the file could not be read at all.
	Error bool
}

// RuleInfo describes a rule for formats that list rules.
type RuleInfo struct {
	ID string
	// Summary is one line without a final period.
	Summary string
	// Doc is Markdown.
	Doc      string
	Severity diag.Severity
	// HelpURI overrides the link to the rule's documentation.
	HelpURI string
}

// RuleInfos converts entries of the diagnostic catalog (package
// compiler/diag/ids; lint/pipeline.Catalog has every id) to RuleInfos.
func RuleInfos(entries []ids.Entry) []RuleInfo {
	out := make([]RuleInfo, 0, len(entries))
	for _, e := range entries {
		out = append(out, RuleInfo{ID: e.ID, Summary: e.Summary, Doc: e.Doc, Severity: e.Severity})
	}
	return out
}

// Options are the settings New passes on to a format.
type Options struct {
	// Color adds ANSI colours to the text format. The caller decides
	// (lint's --color, NO_COLOR, FORCE_COLOR, TERM); formatters never look
	// at the environment.
	Color bool
	// FileSummary makes the text format end each file with a line
	// "name: N errors, M warnings[, K notes]" (diag.List.Summary).
	FileSummary bool
	// BaseDir, when set, makes the sarif and github formats write file
	// names under it relative to it, as code-scanning services expect
	// paths relative to the repository root.
	BaseDir string
}

// Constructor makes a lint format's Formatter with the given options.
type Constructor func(Options) Formatter

// Formats are the formats of a lint report (slurmspec lint --format), the
// default first.
func Formats() *outformat.Registry[Constructor] {
	return outformat.MustNew(
		outformat.Format[Constructor]{Name: "text", Writer: func(o Options) Formatter {
			return Text{Color: o.Color, FileSummary: o.FileSummary}
		}},
		outformat.Format[Constructor]{Name: "json", Writer: func(Options) Formatter { return JSON{} }},
		outformat.Format[Constructor]{Name: "sarif", Note: "code scanning", Writer: func(o Options) Formatter {
			return SARIF{BaseDir: o.BaseDir}
		}},
		outformat.Format[Constructor]{Name: "github", Note: "workflow annotations", Writer: func(o Options) Formatter {
			return GitHub{BaseDir: o.BaseDir}
		}},
	)
}

// New returns the named format (one of Formats) with the options.
func New(name string, opt Options) (Formatter, error) {
	c, err := Formats().Lookup(name)
	if err != nil {
		return nil, err
	}
	return c(opt), nil
}

// sorted returns the run's files with each file's diagnostics sorted and
// deduplicated.
func sorted(r Run) []File {
	out := make([]File, len(r.Files))
	for i, f := range r.Files {
		f.Diags = f.Diags.Sort()
		out[i] = f
	}
	return out
}

// fileOf is the file a diagnostic position names, or the file it was
// reported for when the position names none.
func fileOf(p diag.Pos, f File) string {
	if p.File != "" {
		return p.File
	}
	return f.Name
}

// end returns where the range pos starts ends, and whether the formats
// write it: only when the start is known to the column and the end is a
// known line and column after it. JSON then leaves endLine and endColumn
// out, and SARIF its region's, whose endLine may not precede startLine.
func end(pos diag.Pos) (diag.Pos, bool) {
	e := pos.End()
	return e, pos.Col > 0 && e.IsValid() && e.Col > 0 &&
		(e.Line > pos.Line || e.Line == pos.Line && e.Col > pos.Col)
}

// slashName returns name with forward slashes, relative to base when it
// lies under base.
func slashName(name, base string) string {
	if base != "" && filepath.IsAbs(name) {
		if rel, err := filepath.Rel(base, name); err == nil && filepath.IsLocal(rel) {
			name = rel
		}
	}
	name = filepath.ToSlash(name)
	if strings.HasPrefix(name, "./") {
		name = path.Clean(name)
	}
	return name
}

// counts returns the number of errors, warnings and notes (info
// findings) in l.
func counts(l diag.List) (errors, warnings, notes int) {
	for _, d := range l {
		switch d.Severity {
		case diag.Error:
			errors++
		case diag.Warning:
			warnings++
		default:
			notes++
		}
	}
	return errors, warnings, notes
}
