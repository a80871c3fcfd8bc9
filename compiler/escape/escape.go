// Package escape makes user-controlled text safe to print on a terminal or
// in a CI log: the one function every message of every slurmspec binary
// passes file names, arguments, flag values, keys and values through
// before printing them (docs/security.md, "Characters a reviewer cannot
// see").
//
// Text escapes what would forge or reorder output lines: control
// characters (a newline followed by "::error file=…::" forges a GitHub
// Actions annotation, an escape sequence drives the terminal), line and
// paragraph separators, and format characters (bidi controls, zero-width
// characters). It also escapes the first colon of a leading "::", so that
// the text cannot start a workflow command even when printed at the start
// of a line.
package escape

import (
	"strconv"
	"strings"
	"unicode"
)

// Hidden reports whether a character would forge or reorder output if
// printed as is: control characters, line and paragraph separators, and
// format characters (bidi controls, zero-width characters).
func Hidden(r rune) bool {
	return unicode.IsControl(r) || unicode.In(r, unicode.Zl, unicode.Zp, unicode.Cf)
}

// Text returns s with its hidden characters escaped Go-style ("\n",
// "\x1b", "\u202e"), and the first colon of a leading "::" (after spaces)
// written as "\x3a". Text of text without either is the text itself.
func Text(s string) string {
	lead := commandStart(s)
	if lead < 0 && !strings.ContainsFunc(s, Hidden) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i, r := range s {
		switch {
		case i == lead:
			b.WriteString(`\x3a`)
		case Hidden(r):
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// commandStart returns the offset of the "::" that s starts with after
// spaces (GitHub's runner trims leading white space before it looks for a
// workflow command), or -1.
func commandStart(s string) int {
	t := strings.TrimLeft(s, " ")
	if !strings.HasPrefix(t, "::") {
		return -1
	}
	return len(s) - len(t)
}
