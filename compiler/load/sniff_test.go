package load

import "testing"

// TestLooksLikeJSON: standard input is JSON when an object begins after a
// byte order mark, white space and comments; YAML, CUE and text are not.
func TestLooksLikeJSON(t *testing.T) {
	for in, want := range map[string]bool{
		`{"a": 1}`:                       true,
		"\n\t {}":                        true,
		"\xef\xbb\xbf{}":                 true,
		"// cluster\n{}":                 true,
		"\xef\xbb\xbf// a\r\n  // b\n{}": true,
		"/* header\n * more */ {}":       true,
		"/* a */ // b\n /**/{":           true,
		"// only a comment":              false,
		"/* unterminated {":              false,
		"nodePools: []":                  false,
		"# yaml\nnodePools: []":          false,
		"- a":                            false,
		"":                               false,
		"\xef\xbb\xbf":                   false,
		"[1]":                            false,
		"// a\nname: x":                  false,
		"package cluster\n{}":            false,
		"\xfe\xff\x00{":                  false,
		"/ {}":                           false,
		"/* nested /* */ */ {}":          false,
	} {
		if got := looksLikeJSON([]byte(in)); got != want {
			t.Errorf("looksLikeJSON(%q) = %v, want %v", in, got, want)
		}
	}
}

// TestStdinJSONWithBOMAndComments loads such input as "<stdin>" end to end.
func TestStdinJSONWithBOMAndComments(t *testing.T) {
	src := "\xef\xbb\xbf// the training cluster\n/* generated */\n{\"nodePools\": [] // none yet\n}\n"
	doc, l := Bytes("<stdin>", []byte(src), Options{})
	if len(l) > 0 || doc == nil || doc.Format != FormatJSON || doc.Root == nil {
		t.Fatalf("doc %+v, diags %v", doc, l)
	}
	if _, l := Bytes("<stdin>", []byte("nodePools: []\n"), Options{}); len(l) != 1 || l[0].Rule != RuleIO {
		t.Errorf("YAML on stdin without --input-format: %v", l)
	}
}
