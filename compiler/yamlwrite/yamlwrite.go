// Package yamlwrite builds YAML string scalars that read back as exactly
// the string written, for every writer of YAML in slurmspec (the rendered
// Pulumi.yaml, the spec written by import). go-yaml's encoder alone does
// not guarantee it: it writes a string starting with a tab as a literal
// block that its own reader refuses, and YAML 1.1 readers take "off" or
// "010" for other types.
package yamlwrite

import (
	"bytes"
	"regexp"
	"sync"

	"go.yaml.in/yaml/v3"
)

// yaml11Keyword matches the plain scalars YAML 1.1 readers take for
// booleans or null.
var yaml11Keyword = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?i:y|n|yes|no|on|off|true|false|null|~)$`)
})

// numberLike matches strings starting like a number, which YAML 1.1
// readers may take for one ("1:20" is sexagesimal 80).
var numberLike = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[-+.0-9]`) })

// Str returns a string scalar for s. Multi-line strings are literal blocks
// (|) when that reads back exactly, single-line strings plain when that
// does; anything else is double-quoted, which YAML can read back exactly
// for every string. YAML 1.1 booleans ("off") are quoted; go-yaml's
// encoder quotes what a YAML 1.2 reader would take for another type
// ("10", "true").
func Str(s string) *yaml.Node { return str(s, false) }

// StrStrict is Str that also quotes every string that starts like a number
// ("1:20", "10.5.0").
func StrStrict(s string) *yaml.Node { return str(s, true) }

func str(s string, strict bool) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	switch {
	case yaml11Keyword().MatchString(s), strict && numberLike().MatchString(s) && !bytes.ContainsRune([]byte(s), '\n'):
		n.Style = yaml.DoubleQuotedStyle
	case simple(s):
		// Letters, digits and a few punctuation marks: plain is exact.
	case bytes.ContainsRune([]byte(s), '\n'):
		n.Style = yaml.LiteralStyle
		if !readsBack(n) {
			n.Style = yaml.DoubleQuotedStyle
		}
	case !readsBack(n):
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

// simple reports whether s is non-empty and made only of characters that
// never need quoting in the middle of a plain scalar, and starts with a
// letter or '/'.
func simple(s string) bool {
	if s == "" {
		return false
	}
	if c := s[0]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '/') {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case c == '-' || c == '_' || c == '.' || c == '/' || c == '=' || c == '@' || c == '+':
		default:
			return false
		}
	}
	return true
}

// readsBack reports whether the scalar n, written as a mapping value with
// go-yaml's encoder, reads back as the same string.
func readsBack(n *yaml.Node) bool {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	doc := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: "k"}, n}}
	if enc.Encode(doc) != nil || enc.Close() != nil {
		return false
	}
	var back yaml.Node
	if yaml.Unmarshal(b.Bytes(), &back) != nil || len(back.Content) != 1 {
		return false
	}
	m := back.Content[0]
	return m.Kind == yaml.MappingNode && len(m.Content) == 2 &&
		m.Content[1].Kind == yaml.ScalarNode && m.Content[1].ShortTag() == "!!str" && m.Content[1].Value == n.Value
}

// Encode writes a document with a two-space indent.
func Encode(doc *yaml.Node) ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
