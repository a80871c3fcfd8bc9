package format

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/escape"
)

// Text is the human format: "file:line:col: severity: message [rule]",
// the source line with a caret under the column, the spec path, related
// positions and the hint. Control characters from the spec (a newline or
// an escape sequence inside a value) are shown escaped, so that a spec
// cannot forge lines or drive the terminal.
type Text struct {
	// Color adds ANSI colours (for terminals).
	Color bool
	// FileSummary ends each file with "name: N errors, M warnings" (and
	// ", K notes" when there are notes: diag.List.Summary).
	FileSummary bool
}

// Format implements Formatter. Its time is linear in the number of
// diagnostics and the size of the sources: each source is split into lines
// once.
func (t Text) Format(w io.Writer, r Run) error {
	sources := map[string][]byte{}
	for _, f := range r.Files {
		if f.Source != nil {
			sources[f.Name] = f.Source
		}
	}
	lines := map[string]*lineCache{}
	linesOf := func(file string) *lineCache {
		l, ok := lines[file]
		if !ok {
			if src := sources[file]; src != nil {
				l = &lineCache{src: src, starts: []int{0}}
			}
			lines[file] = l
		}
		return l
	}
	var b bytes.Buffer
	for _, f := range sorted(r) {
		for _, d := range f.Diags {
			sev := d.Severity.String()
			if t.Color {
				sev = colour(d.Severity) + sev + "\x1b[0m"
			}
			fmt.Fprintf(&b, "%s: %s: %s [%s]\n", clean(d.Pos.String()), sev, clean(d.Message), clean(d.Rule))
			excerpt(&b, linesOf(d.Pos.File), d.Pos)
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
			fmt.Fprintf(&b, "%s: %s%s\n", clean(f.Name), f.Diags.Summary(), suppressedNote(len(f.Suppressed)))
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

// lineCache finds the lines of a source, scanning it only as far as the
// furthest line asked for, once.
type lineCache struct {
	src    []byte
	starts []int // offsets of the lines found so far
	done   bool  // the whole source is scanned
}

// line returns line n (1-based) without its newline, and whether it exists.
func (c *lineCache) line(n int) ([]byte, bool) {
	for len(c.starts) <= n && !c.done {
		last := c.starts[len(c.starts)-1]
		i := bytes.IndexByte(c.src[last:], '\n')
		if i < 0 {
			c.done = true
			break
		}
		c.starts = append(c.starts, last+i+1)
	}
	switch {
	case n < 1 || n > len(c.starts):
		return nil, false
	case n < len(c.starts):
		return c.src[c.starts[n-1] : c.starts[n]-1], true
	}
	return c.src[c.starts[n-1]:], true // the last line
}

// excerpt prints the source line of pos with a caret under its column,
// which counts characters.
func excerpt(b *bytes.Buffer, lines *lineCache, pos diag.Pos) {
	if lines == nil || !pos.IsValid() {
		return
	}
	raw, ok := lines.line(pos.Line)
	if !ok {
		return
	}
	if len(raw) > 200 {
		return // minified or generated input: the excerpt would not help
	}
	line := strings.TrimRight(string(raw), "\r")
	col := max(pos.Col, 1)
	// One rune for one keeps the caret aligned; characters that would
	// break or reorder the line (controls, line separators, bidi and
	// zero-width characters) are shown as '?', and so is the second '#'
	// of "##[", a workflow command anywhere in a line (compiler/escape).
	line = strings.Map(func(r rune) rune {
		switch {
		case r == '\t':
			return ' '
		case Hidden(r):
			return '?'
		}
		return r
	}, line)
	line = strings.ReplaceAll(line, "##[", "#?[")
	pad := strings.Repeat(" ", min(col-1, utf8.RuneCountInString(line)))
	num := strconv.Itoa(pos.Line)
	fmt.Fprintf(b, "    %s | %s\n", num, line)
	fmt.Fprintf(b, "    %s | %s^\n", strings.Repeat(" ", len(num)), pad)
}

// Hidden reports whether a character would forge or reorder output if
// printed as is (escape.Hidden). Every format, and the CLI's own messages,
// escape or replace them.
func Hidden(r rune) bool { return escape.Hidden(r) }

// clean escapes user-controlled text for the text format: escape.Text,
// the one escaper of every slurmspec message.
func clean(s string) string { return escape.Text(s) }

// suppressedNote is ", N suppressed" after a file summary, or "".
func suppressedNote(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(", %d suppressed", n)
}
