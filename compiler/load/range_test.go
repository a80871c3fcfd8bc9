package load

import (
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// spanText returns the source text a range covers, counting columns in
// characters as positions do.
func spanText(t *testing.T, src string, p diag.Pos) string {
	t.Helper()
	if !p.HasEnd() {
		t.Fatalf("%v has no end", p)
	}
	lines := strings.SplitAfter(src, "\n")
	off := func(line, col int) int {
		o := 0
		for _, l := range lines[:line-1] {
			o += len(l)
		}
		for i := range lines[line-1] {
			if col == 1 {
				return o + i
			}
			col--
		}
		return o + len(strings.TrimSuffix(lines[line-1], "\n")) + col - 1
	}
	return src[off(p.Line, p.Col):off(p.EndLine, p.EndCol)]
}

// TestRanges: every loader gives a value the range of its source text,
// across lines, with columns in characters.
func TestRanges(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      map[string]string // path (":key" for a key's range) -> text
		noEnd     []string
	}{{
		name: "s.jsonc",
		src:  "{\n  \"a\": \"héllo wörld\", // c\n  \"b\": [1,\n    2,\n    3],\n  \"c\": {\"d\": \"é\"}\n}\n",
		want: map[string]string{
			"a": `"héllo wörld"`, ":a": `"a"`, "b": "[1,\n    2,\n    3]", "b[2]": "3",
			"c": `{"d": "é"}`, "c.d": `"é"`, ":c.d": `"d"`,
			"": "{\n  \"a\": \"héllo wörld\", // c\n  \"b\": [1,\n    2,\n    3],\n  \"c\": {\"d\": \"é\"}\n}",
		},
	}, {
		name: "s.yaml",
		src: "a: héllo wörld  # c\nb:\n  - 1\n  - ü2\nc: |\n  ünï\n    line2\n\nd: \"dq é\\\"\n  more\"\n" +
			"e: plain ä\n  continued\nf: &anc 'it''s'\ng: *anc\nh: {j: 1, k: [x, y] }\nl: !!str 12\n" +
			"m: >-\n  folded\n  text\n# comment\nn:\no: [ ]\n",
		want: map[string]string{
			"a": "héllo wörld", ":a": "a", "b": "- 1\n  - ü2", "b[1]": "ü2",
			"c": "|\n  ünï\n    line2", "d": "\"dq é\\\"\n  more\"", "e": "plain ä\n  continued",
			"f": "&anc 'it''s'", "g": "*anc", "h": "{j: 1, k: [x, y] }", "h.k": "[x, y]", "h.k[1]": "y",
			"l": "!!str 12", "m": ">-\n  folded\n  text", "o": "[ ]",
		},
		noEnd: []string{"n"},
	}, {
		name: "s.cue",
		src:  "a: \"é\" + \"x\"\nb: [1,\n\t2]\nc: {\n\td: \"ü\"\n}\n",
		want: map[string]string{
			"a": "a: \"é\" + \"x\"", "b": "b: [1,\n\t2]", "b[1]": "2", "c": "c: {\n\td: \"ü\"\n}", "c.d": "d: \"ü\"",
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			doc := mustLoad(t, tc.name, tc.src)
			for path, want := range tc.want {
				key := strings.HasPrefix(path, ":")
				p, err := ParsePath(strings.TrimPrefix(path, ":"))
				if err != nil {
					t.Fatal(err)
				}
				n, depth := doc.Root.Lookup(p)
				if depth != len(p) {
					t.Fatalf("%s: no such value", path)
				}
				pos := n.Pos
				if key {
					parent, _ := doc.Root.Lookup(p[:len(p)-1])
					pos = parent.Field(p[len(p)-1].Name).KeyPos
				}
				if got := spanText(t, tc.src, pos); got != want {
					t.Errorf("%s: range %v-%d:%d covers %q, want %q", path, pos, pos.EndLine, pos.EndCol, got, want)
				}
			}
			for _, path := range tc.noEnd {
				p, _ := ParsePath(path)
				if n, _ := doc.Root.Lookup(p); n.Pos.HasEnd() {
					t.Errorf("%s: an empty value has a range %#v", path, n.Pos)
				}
			}
		})
	}
}

// FuzzYAMLRanges feeds YAML (the format whose ends the loader finds in the
// source itself): no panic, and every range ends after it starts, within
// the file.
func FuzzYAMLRanges(f *testing.F) {
	for _, s := range []string{
		"a: |\n  x\n   y\n\nb: 1\n", "a: >-\n\n  folded\n# c\n", "a: \"q\\\"\n  r\"\nb: 'it''s'\n",
		"a: &x {b: [1, *x]}\n", "- !!str 1\n- &a b\n- *a\n", "a:\n  - plain\n    more\n  -\n", "{a: , b: [ ], c: {}}\n",
		"a: \u00e9\u00e8 # c\r\nb: |+\r\n  x\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, _ := Bytes("f.yaml", data, Options{})
		if doc != nil && doc.Root != nil {
			checkRanges(t, doc.Root, 1+strings.Count(string(data), "\n"))
		}
	})
}
