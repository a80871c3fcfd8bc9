package format

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/escape"
)

// JSONVersion is the version of the JSON shape. It changes only when a
// field is removed or changes meaning; new fields may appear without it.
// Version 2 leaves endLine and endColumn out when the end is unknown
// (version 1 wrote 0) and names the count of info findings "notes"
// (version 1: "infos").
const JSONVersion = 2

// JSON is the machine format: one JSONReport, indented, with keys in a
// fixed order. docs/output-formats.md documents it.
type JSON struct{}

// JSONReport is the document the JSON format writes. Decode it with
// encoding/json.
type JSONReport struct {
	// Version is JSONVersion.
	Version int         `json:"version"`
	Files   []JSONFile  `json:"files"`
	Summary JSONSummary `json:"summary"`
	// Failures are the checks that could not run (Run.Failures); an
	// unreadable file is marked in its JSONFile instead.
	Failures []string `json:"failures"`
}

// JSONFile is one input file and its findings.
type JSONFile struct {
	File string `json:"file"`
	// Unreadable means the file could not be read at all.
	Unreadable  bool             `json:"unreadable"`
	Diagnostics []JSONDiagnostic `json:"diagnostics"`
	// Suppressed are the findings inline suppression comments silenced
	// (absent when none).
	Suppressed []JSONSuppressed `json:"suppressed,omitempty"`
}

// JSONSuppressed is a finding an inline suppression comment silenced.
type JSONSuppressed struct {
	JSONDiagnostic
	// Justification is the comment's reason.
	Justification string `json:"justification"`
	// DirectiveLine is the line of the comment.
	DirectiveLine int `json:"directiveLine"`
}

// JSONDiagnostic is one finding. Line and Column are 1-based; 0 means
// unknown. EndLine and EndColumn are where the value ends, the column just
// after its last character; both are left out (0 once decoded) when the
// end is unknown. Path, Hint are "" when absent; Related is never null.
type JSONDiagnostic struct {
	Rule      string        `json:"rule"`
	Severity  string        `json:"severity"`
	File      string        `json:"file"`
	Line      int           `json:"line"`
	Column    int           `json:"column"`
	EndLine   int           `json:"endLine,omitempty"`
	EndColumn int           `json:"endColumn,omitempty"`
	Path      string        `json:"path"`
	Message   string        `json:"message"`
	Hint      string        `json:"hint"`
	Related   []JSONRelated `json:"related"`
}

// JSONRelated is a secondary position that helps explain a finding; its
// fields are as JSONDiagnostic's.
type JSONRelated struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"endLine,omitempty"`
	EndColumn int    `json:"endColumn,omitempty"`
	Path      string `json:"path"`
	Message   string `json:"message"`
}

// JSONSummary counts the findings of the whole run by severity. A finding
// of severity info is a note, as in the text summary and SARIF's level.
type JSONSummary struct {
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Notes    int `json:"notes"`
	// Suppressed counts the findings suppression comments silenced (not
	// counted above; absent when none).
	Suppressed int `json:"suppressed,omitempty"`
}

// Report builds the JSON document of a run.
func (JSON) Report(r Run) JSONReport {
	rep := JSONReport{Version: JSONVersion, Files: []JSONFile{}, Failures: append([]string{}, r.Failures...)}
	for _, f := range sorted(r) {
		jf := JSONFile{File: f.Name, Unreadable: f.Error, Diagnostics: []JSONDiagnostic{}}
		for _, d := range f.Diags {
			jf.Diagnostics = append(jf.Diagnostics, jsonDiagnostic(f, d))
		}
		for _, sd := range f.Suppressed {
			jf.Suppressed = append(jf.Suppressed, JSONSuppressed{jsonDiagnostic(f, sd.Diagnostic), sd.Justification, sd.Directive.Line})
		}
		rep.Summary.Suppressed += len(f.Suppressed)
		e, w, n := counts(f.Diags)
		rep.Summary.Errors += e
		rep.Summary.Warnings += w
		rep.Summary.Notes += n
		rep.Files = append(rep.Files, jf)
	}
	return rep
}

func jsonDiagnostic(f File, d diag.Diagnostic) JSONDiagnostic {
	jd := JSONDiagnostic{
		Rule: d.Rule, Severity: d.Severity.String(),
		File: fileOf(d.Pos, f), Line: d.Pos.Line, Column: d.Pos.Col,
		Path: d.Path, Message: d.Message, Hint: d.Hint,
		Related: []JSONRelated{},
	}
	if e, ok := end(d.Pos); ok {
		jd.EndLine, jd.EndColumn = e.Line, e.Col
	}
	for _, rel := range d.Related {
		jr := JSONRelated{
			File: fileOf(rel.Pos, f), Line: rel.Pos.Line, Column: rel.Pos.Col,
			Path: rel.Path, Message: rel.Message,
		}
		if e, ok := end(rel.Pos); ok {
			jr.EndLine, jr.EndColumn = e.Line, e.Col
		}
		jd.Related = append(jd.Related, jr)
	}
	return jd
}

// Format implements Formatter.
func (j JSON) Format(w io.Writer, r Run) error {
	return writeJSON(w, j.Report(r))
}

// writeJSON writes v indented, without HTML escaping, ending in a newline.
// "##[", which GitHub's runner reads as a workflow command anywhere in a
// line of a log, is written "#\u0023[", the same string to a JSON reader
// (escape.JSON).
func writeJSON(w io.Writer, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(escape.JSON(b.Bytes()))
	return err
}
