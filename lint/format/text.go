package format

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// Text is the human format: "file:line:col: severity: message [rule]",
// the source line with a caret under the column, the spec path, related
// positions and the hint. Control characters from the spec (a newline or
// an escape sequence inside a value) are shown escaped, so that a spec
// cannot forge lines or drive the terminal.
type Text struct {
	// Color adds ANSI colours (for terminals).
	Color bool
	// FileSummary ends each file with "name: N errors, M warnings".
	FileSummary bool
}

// Format implements Formatter.
func (t Text) Format(w io.Writer, r Run) error {
	sources := map[string][]byte{}
	for _, f := range r.Files {
		if f.Source != nil {
			sources[f.Name] = f.Source
		}
	}
	var b bytes.Buffer
	for _, f := range sorted(r) {
		for _, d := range f.Diags {
			sev := d.Severity.String()
			if t.Color {
				sev = colour(d.Severity) + sev + "\x1b[0m"
			}
			fmt.Fprintf(&b, "%s: %s: %s [%s]\n", clean(d.Pos.String()), sev, clean(d.Message), clean(d.Rule))
			excerpt(&b, sources[d.Pos.File], d.Pos)
			if d.Path != "" {
				fmt.Fprintf(&b, "    path: %s\n", clean(d.Path))
			}
			for _, rel := range d.Related {
				fmt.Fprintf(&b, "    see: %s: %s\n", clean(rel.Pos.String()), clean(rel.Message))
			}
			if d.Hint != "" {
				fmt.Fprintf(&b, "    hint: %s\n", clean(d.Hint))
			}
		}
		if t.FileSummary {
			e, w, _ := counts(f.Diags)
			fmt.Fprintf(&b, "%s: %s, %s\n", clean(f.Name), plural(e, "error"), plural(w, "warning"))
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
func excerpt(b *bytes.Buffer, src []byte, pos diag.Pos) {
	if src == nil || !pos.IsValid() {
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
	col := max(pos.Col, 1)
	pad := strings.Repeat(" ", len([]rune(prefixBytes(line, col-1))))
	// One rune for one keeps the caret aligned.
	line = strings.Map(func(r rune) rune {
		switch {
		case r == '\t':
			return ' '
		case unicode.IsControl(r):
			return '?'
		}
		return r
	}, line)
	num := fmt.Sprint(pos.Line)
	fmt.Fprintf(b, "    %s | %s\n", num, line)
	fmt.Fprintf(b, "    %s | %s^\n", strings.Repeat(" ", len(num)), pad)
}

// clean escapes control characters, Go-style ("\n", "\x1b").
func clean(s string) string {
	if !strings.ContainsFunc(s, unicode.IsControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unicode.IsControl(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func prefixBytes(s string, n int) string {
	if n > len(s) {
		return s
	}
	return s[:n]
}
