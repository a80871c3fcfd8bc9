// Package format prints diagnostics. Each output format is a small adapter
// behind the Formatter interface.
package format

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// Formatter writes a sorted list of diagnostics.
type Formatter interface {
	Format(w io.Writer, l diag.List) error
}

// Text is the human format: "file:line:col: severity: message [rule]",
// the source line with a caret under the column, the spec path and the hint.
type Text struct {
	// Sources maps file names to their content, for source excerpts.
	Sources map[string][]byte
	// Color adds ANSI colours (for terminals).
	Color bool
}

// Format implements Formatter.
func (t Text) Format(w io.Writer, l diag.List) error {
	var b bytes.Buffer
	for _, d := range l {
		sev := d.Severity.String()
		if t.Color {
			sev = colour(d.Severity) + sev + "\x1b[0m"
		}
		fmt.Fprintf(&b, "%s: %s: %s [%s]\n", d.Pos, sev, d.Message, d.Rule)
		t.excerpt(&b, d.Pos)
		if d.Path != "" {
			fmt.Fprintf(&b, "    path: %s\n", d.Path)
		}
		for _, r := range d.Related {
			fmt.Fprintf(&b, "    see: %s: %s\n", r.Pos, r.Message)
		}
		if d.Hint != "" {
			fmt.Fprintf(&b, "    hint: %s\n", d.Hint)
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

func colour(s diag.Severity) string {
	switch s {
	case diag.Error:
		return "\x1b[1;31m"
	case diag.Warning:
		return "\x1b[1;33m"
	}
	return "\x1b[1;36m"
}

// excerpt prints the source line of pos with a caret under its column.
func (t Text) excerpt(b *bytes.Buffer, pos diag.Pos) {
	src, ok := t.Sources[pos.File]
	if !ok || !pos.IsValid() {
		return
	}
	lines := bytes.Split(src, []byte("\n"))
	if pos.Line > len(lines) {
		return
	}
	line := strings.TrimRight(string(lines[pos.Line-1]), "\r")
	if len(line) > 200 {
		return // minified or generated input: the excerpt would not help
	}
	line = strings.ReplaceAll(line, "\t", " ")
	num := fmt.Sprint(pos.Line)
	fmt.Fprintf(b, "    %s | %s\n", num, line)
	col := max(pos.Col, 1)
	pad := strings.Repeat(" ", len([]rune(prefixBytes(line, col-1))))
	fmt.Fprintf(b, "    %s | %s^\n", strings.Repeat(" ", len(num)), pad)
}

func prefixBytes(s string, n int) string {
	if n > len(s) {
		return s
	}
	return s[:n]
}
