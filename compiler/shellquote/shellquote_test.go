package shellquote

import (
	"os/exec"
	"strings"
	"testing"
	"unicode/utf8"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/slurmspec/slurmspec/compiler/escape"
)

// hostile are words a shell would split, expand, run or print wrongly.
var hostile = []string{
	"", "plain", "a b", "'", "''", `'\''`, `"`, `\`, "$HOME", "$(id)", "`id`", "a;b", "a|b", "a&b",
	"a>b", "*", "?", "[a]", "{a,b}", "~", "~root", "#x", "!", "!!", "a=b", "-n", "\n", "a\nb", "\t",
	"\r", "a\r\nb", "\x1b[31mred", "\u202eevil", "\u200b", "\u2028", "é", "日本", "\xff", "a\xc3", "%", "@x:y,z+w",
	"::error file=x::y", "$'x'", `\'`, "\x7f", "\x01",
}

// parseWord parses "x WORD" in a shell dialect and returns the shell's
// value of WORD; it fails the test when WORD is not exactly one word.
func parseWord(t *testing.T, lang syntax.LangVariant, word string) string {
	t.Helper()
	f, err := syntax.NewParser(syntax.Variant(lang)).Parse(strings.NewReader("x "+word+"\n"), "")
	if err != nil {
		t.Fatalf("%q does not parse: %v", word, err)
	}
	if len(f.Stmts) != 1 {
		t.Fatalf("%q is %d statements", word, len(f.Stmts))
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) != 2 || len(call.Assigns) != 0 || f.Stmts[0].Redirs != nil {
		t.Fatalf("%q is not one argument word", word)
	}
	fields, err := expand.Fields(nil, call.Args[1])
	if err != nil {
		t.Fatalf("expand %q: %v", word, err)
	}
	if len(fields) != 1 {
		t.Fatalf("%q expands to %d fields: %q", word, len(fields), fields)
	}
	return fields[0]
}

// private writes each byte of s that is not UTF-8, and each carriage
// return, as a private-use character (U+E000 + the byte), which the parser
// takes where a shell takes the byte: mvdan.cc/sh refuses input that is
// not UTF-8 and reads "\r\n" as "\n" even between single quotes, where
// dash and bash keep the "\r" (TestRealShells).
func private(s string) string {
	var b strings.Builder
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		if r == utf8.RuneError && n == 1 || r == '\r' {
			r = 0xe000 + rune(s[0])
		}
		b.WriteRune(r)
		s = s[n:]
	}
	return b.String()
}

// FuzzWord: Word's word is one word of a POSIX script whose value is the
// string itself, NUL bytes left out, for any bytes (bytes that are not
// UTF-8 through private; TestRealShells gives dash and bash the bytes).
func FuzzWord(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Add("a\x00b")
	f.Fuzz(func(t *testing.T, s string) {
		w := Word(s)
		if got, want := parseWord(t, syntax.LangPOSIX, private(w)), private(strings.ReplaceAll(s, "\x00", "")); got != want {
			t.Errorf("Word(%q) = %s, which the shell reads as %q", s, w, got)
		}
	})
}

// FuzzCommand: Command's word is one word of a bash command line whose
// value is the string itself, for any bytes but NUL, and it prints as one
// line of valid UTF-8 with no hidden character.
func FuzzCommand(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		w := Command(s)
		if !utf8.ValidString(w) || strings.ContainsFunc(w, escape.Hidden) {
			t.Fatalf("Command(%q) = %q prints a hidden character", s, w)
		}
		if strings.Contains(s, "\x00") {
			return
		}
		if got := parseWord(t, syntax.LangBash, w); got != s {
			t.Errorf("Command(%q) = %s, which bash reads as %q", s, w, got)
		}
	})
}

// TestRealShells: dash and bash, not only the parser, read the words back
// byte for byte.
func TestRealShells(t *testing.T) {
	for _, tc := range []struct {
		shell string
		quote func(string) string
	}{{"sh", Word}, {"dash", Word}, {"bash", Word}, {"bash", Command}} {
		path, err := exec.LookPath(tc.shell)
		if err != nil {
			t.Logf("%s is not installed: not checked", tc.shell)
			continue
		}
		var script strings.Builder
		for _, s := range hostile {
			script.WriteString("printf '%s\\0' " + tc.quote(s) + "\n")
		}
		out, err := exec.Command(path, "-c", script.String()).Output()
		if err != nil {
			t.Fatalf("%s: %v", tc.shell, err)
		}
		got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
		if len(got) != len(hostile) {
			t.Fatalf("%s printed %d words, want %d: %q", tc.shell, len(got), len(hostile), got)
		}
		for i, s := range hostile {
			if got[i] != s {
				t.Errorf("%s reads %s as %q, want %q", tc.shell, tc.quote(s), got[i], s)
			}
		}
	}
}

func TestForms(t *testing.T) {
	for _, tc := range []struct{ in, word, command string }{
		{"plain", "plain", "plain"},
		{"", "''", "''"},
		{"it's", `'it'\''s'`, `'it'\''s'`},
		{"a\nb", "'a\nb'", `$'a\nb'`},
		{"\u202e'", "'\u202e'\\'''", `$'\u202e\''`},
		{"\xff", "'\xff'", `$'\xff'`},
		{"a\x00b", "ab", `$'a\x00b'`},
	} {
		if got := Word(tc.in); got != tc.word {
			t.Errorf("Word(%q) = %q, want %q", tc.in, got, tc.word)
		}
		if got := Command(tc.in); got != tc.command {
			t.Errorf("Command(%q) = %q, want %q", tc.in, got, tc.command)
		}
	}
}
