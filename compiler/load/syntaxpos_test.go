package load

import (
	"regexp"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// TestSyntaxErrorsCarryTheirPosition: a syntax error late in a file is
// reported at its own line (and column, where the parser gives one), not
// at 1:1, and its message does not repeat the position ("hujson: line 30,
// column 24: ...", "yaml: line 30: ...").
func TestSyntaxErrorsCarryTheirPosition(t *testing.T) {
	lines := func(n int, format string) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(strings.ReplaceAll(format, "N", string(rune('a'+i%26))+strings.Repeat("x", i/26)))
		}
		return b.String()
	}
	jsonHead := "{\n" + lines(28, "  \"N\": 1,\n") // lines 2-29
	yamlHead := lines(29, "N: 1\n")                // lines 1-29
	cueHead := lines(29, "N: 1\n")
	for _, c := range []struct {
		name, file, src string
		want            diag.Pos // Col 0: any column (go-yaml names lines only)
	}{
		{"json unclosed string", "a.json", jsonHead + "  \"name\": \"abc,\n  \"x\": 1\n}\n", diag.Pos{Line: 30, Col: 11}},
		{"json unclosed string at the end", "a.json", jsonHead + "  \"name\": \"abc\n", diag.Pos{Line: 31, Col: 1}},
		{"json bad literal", "a.json", jsonHead + "  \"name\": tru,\n}\n", diag.Pos{Line: 30, Col: 11}},
		{"json huge unclosed string", "a.json", jsonHead + "  \"name\": \"abc" + strings.Repeat("x", 1<<20) + "\n, \"x\": \"y\"\n}\n", diag.Pos{Line: 30, Col: 11}},
		{"json missing comma", "a.jsonc", jsonHead + "  \"name\": 1\n  \"x\": 2\n}\n", diag.Pos{Line: 31, Col: 3}},
		{"json control character", "a.json", jsonHead + "  \"name\": \"a\x01b\",\n}\n", diag.Pos{Line: 30, Col: 0}},
		{"yaml unclosed flow", "a.yaml", yamlHead + "name: [1, 2\n", diag.Pos{Line: 30, Col: 0}}, // where the list starts
		{"yaml bad indentation", "a.yaml", yamlHead + "name: 1\n  x: 2\n", diag.Pos{Line: 31, Col: 0}},
		{"yaml unclosed quote", "a.yaml", yamlHead + "name: \"abc\nx: 1\n", diag.Pos{Line: 30, Col: 0}}, // where the string starts
		{"yaml tab", "a.yaml", yamlHead + "name:\n\t- 1\n", diag.Pos{Line: 31, Col: 0}},
		{"cue unclosed string", "a.cue", cueHead + "name: \"abc\nx: 1\n", diag.Pos{Line: 30, Col: 7}},
		{"cue unclosed brace", "a.cue", cueHead + "name: {\nx: 1\n", diag.Pos{Line: 32, Col: 0}},
		{"cue bad token", "a.cue", cueHead + "name: 1 +* 2\n", diag.Pos{Line: 30, Col: 0}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, l := Bytes(c.file, []byte(c.src), Options{})
			if len(l) == 0 {
				t.Fatal("no diagnostic")
			}
			d := l[0]
			if d.Rule != RuleSyntax {
				t.Fatalf("rule %s: %v", d.Rule, d)
			}
			if d.Pos.Line != c.want.Line || c.want.Col != 0 && d.Pos.Col != c.want.Col {
				t.Errorf("at %d:%d, want %d:%d (col 0: any): %s", d.Pos.Line, d.Pos.Col, c.want.Line, c.want.Col, d.Message)
			}
			if m := regexp.MustCompile(`(?i)hujson:|yaml:|line \d+`).FindString(d.Message); m != "" {
				t.Errorf("message repeats the position (%q): %.300s", m, d.Message)
			}
			if len(d.Message) > 200 {
				t.Errorf("message of %d bytes: %.300s", len(d.Message), d.Message)
			}
		})
	}
}
