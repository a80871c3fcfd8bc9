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
// marker key. Every way the formats spell a key either writes its text
// (in any case, with '_' or '-' between letters for this scan's
// purposes) or uses an escape (a backslash: JSON's and YAML's \u, CUE's
// \(interpolation)); CUE can also compute a label from an expression,
// which needs a parenthesis ("(k): v", strings.Join(...)). Files holding
// none of these cannot have the key, so the loader is not run on them.
func mayHoldMarker(data []byte, cue bool) bool {
	if bytes.IndexByte(data, '\\') >= 0 || cue && bytes.IndexByte(data, '(') >= 0 {
		return true
	}
	return containsMarkerText(data)
}

// containsMarkerText reports whether data holds nodepools or
// orchestratorspec, ignoring case and '_' and '-' (as isMarker compares
// keys), anywhere.
func containsMarkerText(data []byte) bool {
	norm := make([]byte, 0, len(data))
	for _, c := range data {
		switch {
		case c == '_' || c == '-':
			continue
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		}
		norm = append(norm, c)
	}
	for _, m := range markerKeys {
		if bytes.Contains(norm, []byte(m)) {
			return true
		}
	}
	return false
}
