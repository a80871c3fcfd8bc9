// Package shellquote writes a string as one word of a shell command: the
// one quoting function of slurmspec, for the scripts it writes (the
// accounting script, the sandbox's wrappers) and the commands it prints
// for a person to paste (a rerun hint, the sandbox's --state-dir).
//
// A word holding only letters, digits and @%+=:,./_- is written as is;
// any other is quoted. Word is for a POSIX sh script, Command for a line
// printed on a terminal. Both quote an argument, not a command name (a
// bare "a=b" there would be an assignment).
package shellquote

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/slurmspec/slurmspec/compiler/escape"
)

// bare reports whether s needs no quotes: it is not empty and holds only
// characters no shell treats specially.
func bare(s string) bool {
	return s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("@%+=:,./_-", r))
	})
}

// Word returns s as one word of a POSIX sh script (dash, bash, zsh, ksh):
// as is when bare, else in single quotes, in which each quote is closed,
// escaped with a backslash and reopened. Every
// byte but NUL stands for itself between single quotes, so the shell reads
// s back exactly. A NUL byte, which no shell word can hold (a shell's
// strings end at one), is left out.
func Word(s string) string {
	s = strings.ReplaceAll(s, "\x00", "")
	if bare(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Command returns s as one word of a command printed for a person to read
// and paste into an interactive shell (bash, zsh, ksh): Word's form,
// unless s holds a character that would forge or reorder the printed line
// (escape.Hidden: control characters, line separators, bidi and
// zero-width characters) or is not UTF-8. Such a word is written in
// $'...' with every byte outside printable ASCII escaped ("\n", "\x1b",
// "\u202e"), so that the line shows what would run and runs it. A NUL
// byte is written "\x00", where the shell ends the word.
func Command(s string) string {
	if utf8.ValidString(s) && !strings.ContainsFunc(s, escape.Hidden) {
		return Word(s)
	}
	q := strconv.QuoteToASCII(s)
	return "$'" + strings.ReplaceAll(q[1:len(q)-1], "'", `\'`) + "'"
}
