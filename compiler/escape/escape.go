// Package escape makes user-controlled text safe to print on a terminal or
// in a CI log. Text is the one function every message of every slurmspec
// binary passes file names, arguments, flag values, keys and values
// through before printing them (docs/security.md, "Characters a reviewer
// cannot see").
//
// Text, for one-line messages, escapes what would forge or reorder output
// lines: control characters (a newline followed by "::error file=…::"
// forges a GitHub Actions annotation, an escape sequence drives the
// terminal), line and paragraph separators, and format characters (bidi
// controls, zero-width characters). It also escapes the first colon of a
// leading "::", so that the text cannot start a workflow command even when
// printed at the start of a line, and the second '#' of "##[", the
// runner's older command syntax, which it finds anywhere in a line. Block
// does the latter two for multi-line output printed as is, JSON for
// encoded JSON.
package escape

import (
	"bytes"
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
// "\x1b", "\u202e"), the first colon of a leading "::" (after white space)
// written as "\x3a", and "##[" as "#\x23[". Text of text without any of
// them is the text itself.
func Text(s string) string {
	lead := commandStart(s)
	if lead < 0 && !strings.ContainsFunc(s, Hidden) && !strings.Contains(s, "##[") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i, r := range s {
		switch {
		case i == lead:
			b.WriteString(`\x3a`)
		case r == '#' && i > 0 && s[i-1] == '#' && strings.HasPrefix(s[i:], "#["):
			b.WriteString(`\x23`)
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
// white space (GitHub's runner trims leading white space, Unicode's
// included, before it looks for a workflow command), or -1.
func commandStart(s string) int {
	t := strings.TrimLeftFunc(s, unicode.IsSpace)
	if !strings.HasPrefix(t, "::") {
		return -1
	}
	return len(s) - len(t)
}

// Block neutralises workflow commands in multi-line output that is
// otherwise printed as is (a diff of scripts, a Markdown report): where a
// line (ended by '\n' or '\r', as the runner reads them) starts with "::"
// after white space, its first colon is written "\x3a", and "##[" is
// written "#\x23[". Nothing else changes; text without either is
// returned itself.
func Block(s string) string {
	if !strings.Contains(s, "::") && !strings.Contains(s, "##[") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	start := true // at the start of a line, or after its white space
	for i, r := range s {
		switch {
		case start && r == ':' && strings.HasPrefix(s[i:], "::"):
			b.WriteString(`\x3a`)
			start = false
			continue
		case r == '#' && i > 0 && s[i-1] == '#' && strings.HasPrefix(s[i:], "#["):
			b.WriteString(`\x23`)
			start = false
			continue
		case r == '\n' || r == '\r':
			start = true
		case unicode.IsSpace(r):
		default:
			start = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// JSON neutralises the runner's older command syntax in encoded JSON:
// "##[" can occur only inside a string, where it is written "#\u0023[",
// the same string to a JSON reader. (A JSON line cannot start with "::".)
func JSON(b []byte) []byte {
	if !bytes.Contains(b, []byte("##[")) {
		return b
	}
	return bytes.ReplaceAll(b, []byte("##["), []byte(`#\u0023[`))
}
