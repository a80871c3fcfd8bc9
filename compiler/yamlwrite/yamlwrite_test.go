package yamlwrite

import (
	"testing"

	"go.yaml.in/yaml/v3"
)

// roundTrip writes the strings as the keys and values of one mapping and
// checks that they read back exactly, in order.
func roundTrip(t *testing.T, strs ...string) {
	t.Helper()
	m := &yaml.Node{Kind: yaml.MappingNode}
	for i, s := range strs {
		k := Str(s)
		if i%2 == 0 {
			k = StrStrict("k" + string(rune('a'+i%26)) + s) // keys are strings too
		}
		v := Str(s)
		if i%2 == 1 {
			v = StrStrict(s)
		}
		m.Content = append(m.Content, k, v)
	}
	out, err := Encode(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{m}})
	if err != nil {
		t.Fatalf("encode %q: %v", strs, err)
	}
	var back yaml.Node
	if err := yaml.Unmarshal(out, &back); err != nil {
		t.Fatalf("%q: written as\n%s\nwhich does not read back: %v", strs, out, err)
	}
	got := back.Content[0]
	if len(got.Content) != len(m.Content) {
		t.Fatalf("%q: %d nodes back, want %d:\n%s", strs, len(got.Content), len(m.Content), out)
	}
	for i, n := range got.Content {
		if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" || n.Value != m.Content[i].Value {
			t.Errorf("%q: written as\n%s\nreads back %s %q, want %q", strs, out, n.ShortTag(), n.Value, m.Content[i].Value)
		}
	}
}

func TestStringsReadBack(t *testing.T) {
	for _, s := range []string{
		"\tx", "\tx\ny\n", " x\ny", "x\n\n", "x\r\ny", "\n", "a\u0085b\nc", "x \ny", "#x", "- x", "a: b",
		"\u2028x\n", "", " ", "off", "OFF", "010", "1e3", "~", "null", "${a.b}", "&x", "*x", "!x", "|", ">", "'", "\"",
		"x #y", "\ufeffx", "\x1b[2J", "a\tb", "\t", "@x", "`x", "%x", "x:", "?", "é", "#!/bin/bash\n\techo hi\n",
	} {
		roundTrip(t, s, s)
	}
}

// FuzzStr checks that every string Str writes reads back exactly.
func FuzzStr(f *testing.F) {
	for _, s := range []string{"\tx", "x\n", "off", "#!/bin/bash\necho $x\n", " a", "a\r\n", "\u0085"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !validUTF8(s) {
			return // the writers' strings come from loaded specs: valid UTF-8
		}
		roundTrip(t, s, s)
	})
}

func validUTF8(s string) bool {
	for _, r := range s {
		if r == '\uFFFD' {
			return false
		}
	}
	return true
}
