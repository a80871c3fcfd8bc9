package discover

import (
	"bytes"

	"github.com/slurmspec/slurmspec/compiler/load"
)

// isSpecContent decides whether the file abs is a spec by its content.
// LooksLikeSpec over the first PrefixSize bytes answers quickly for the
// specs people write; when it says no, the loader decides: the file is a
// spec when the loader reads it (within all of its limits) into an object
// with a top-level nodePools or orchestratorSpec field. So a spec the
// cheap test misses (a YAML document indented by one space, nodePools
// after 64 KiB of comments, JSON keys spelled with \u escapes, a CUE spec
// that embeds a hidden struct) is still linted.
//
// The loader runs only on files that could hold such a field at all
// (mayHoldMarker): a file without the key's text, an escape or, in CUE,
// a computed label cannot, and most of the YAML and JSON in a repository
// is rejected by that scan without parsing.
//
// A file that cannot be read is kept (err == nil, true), for the loader
// to report when it is linted.
func isSpecContent(abs string) bool {
	prefix, err := load.ReadPrefix(abs, PrefixSize)
	if err != nil {
		return true
	}
	if LooksLikeSpec(prefix) {
		return true
	}
	data := prefix
	if len(prefix) == PrefixSize {
		if data, err = load.ReadPrefix(abs, load.MaxFileSize+1); err != nil {
			return true
		}
	}
	return loadsAsSpec(abs, data)
}

// specContent is isSpecContent over a file's data.
func specContent(name string, data []byte) bool {
	return LooksLikeSpec(data[:min(len(data), PrefixSize)]) || loadsAsSpec(name, data)
}

// loadsAsSpec reports whether the loader reads data, a whole file named
// name, into a document with a marker field.
func loadsAsSpec(name string, data []byte) bool {
	if len(data) > load.MaxFileSize {
		return false // the loader refuses it unread
	}
	format, ok := load.FormatOf(name)
	if !ok || !mayHoldMarker(data, format == load.FormatCUE) {
		return false
	}
	doc, _ := load.Bytes(name, data, load.Options{})
	return doc != nil && hasMarkerField(doc.Root)
}

// hasMarkerField reports whether a loaded document is an object with a
// nodePools or orchestratorSpec field (the loader has normalised
// node_pools and orchestrator_spec to these).
func hasMarkerField(root *load.Node) bool {
	if root == nil || root.Kind != load.Object {
		return false
	}
	for _, f := range root.Fields {
		if f.Name == "nodePools" || f.Name == "orchestratorSpec" {
			return true
		}
	}
	return false
}

// mayHoldMarker reports whether data could load into a document with a
// marker key. JSON and YAML spell a key with its text, or with escapes in
// a double-quoted string (\u0050, YAML's \x50 and \U00000050, and
// YAML's escaped line break, which joins two lines): the scan decodes
// those before looking for the text, so a key no escape can hide is
// looked for wherever it might be, while a large data file full of
// other escapes is not parsed. CUE can also build a label by
// interpolation ("\(k)") or from an expression in parentheses
// ("(k): v", strings.Join(...)): a CUE file holding a backslash or a
// parenthesis is always loaded. Files this rejects cannot have the key,
// so the loader is not run on them.
func mayHoldMarker(data []byte, cue bool) bool {
	if cue && bytes.ContainsAny(data, "\\(") {
		return true
	}
	return containsMarkerText(data)
}

// containsMarkerText reports whether data, with the escapes of
// double-quoted JSON and YAML strings decoded, holds nodepools or
// orchestratorspec, ignoring case and '_' and '-' (as isMarker compares
// keys), anywhere.
func containsMarkerText(data []byte) bool {
	norm := make([]byte, 0, len(data))
	add := func(c byte) {
		switch {
		case c == '_' || c == '-':
			return
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		}
		norm = append(norm, c)
	}
	for i := 0; i < len(data); i++ {
		c := data[i]
		if c != '\\' || i+1 == len(data) {
			add(c)
			continue
		}
		switch e := data[i+1]; e {
		case 'u', 'U', 'x':
			n := 2
			switch e {
			case 'u':
				n = 4
			case 'U':
				n = 8
			}
			if r, ok := hexRune(data[i+2:], n); ok {
				if r >= 0 && r < 0x80 {
					add(byte(r))
				} else {
					add(0)
				}
				i += 1 + n
				continue
			}
			add(c)
		case '\n', '\r':
			// An escaped line break (YAML): the break and the blank
			// space that starts the next line are dropped.
			i++
			for i+1 < len(data) && (data[i+1] == '\n' || data[i+1] == ' ' || data[i+1] == '\t') {
				i++
			}
		default:
			add(0) // another escape: a character no marker holds
			i++
		}
	}
	for _, m := range markerKeys {
		if bytes.Contains(norm, []byte(m)) {
			return true
		}
	}
	return false
}

// hexRune decodes n hexadecimal digits at the start of b.
func hexRune(b []byte, n int) (rune, bool) {
	if len(b) < n {
		return 0, false
	}
	var r rune
	for _, c := range b[:n] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}
