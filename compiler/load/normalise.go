package load

import (
	"strings"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// CamelCase converts an API field name from exact snake_case (lower-case
// words of letters and digits joined by single underscores, such as
// node_pool_ids) to the camelCase spelling used everywhere downstream. Other
// names are returned unchanged, so that the schema reports them: a reader
// must not take _display_name_ or Node__Pools for a field it knows.
func CamelCase(name string) string {
	if !isSnakeCase(name) {
		return name
	}
	var b strings.Builder
	upper := false
	for i, r := range name {
		switch {
		case r == '_':
			upper = i > 0
		case upper && r >= 'a' && r <= 'z':
			b.WriteRune(r - 'a' + 'A')
			upper = false
		default:
			b.WriteRune(r)
			upper = false
		}
	}
	return b.String()
}

// isSnakeCase reports whether name is exact snake_case with at least one
// underscore.
func isSnakeCase(name string) bool {
	if !strings.Contains(name, "_") || name[0] < 'a' || name[0] > 'z' || name[len(name)-1] == '_' {
		return false
	}
	prev := byte(0)
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '_' && prev == '_':
			return false
		case c == '_', c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		default:
			return false
		}
		prev = c
	}
	return true
}

// normaliser renames fields to camelCase and reports keys given twice,
// whether spelled the same way or once in each spelling.
type normaliser struct {
	verbatim func(Path) bool
	strings  func(Path) bool // nil for JSON: its numbers stay numbers
	diags    diag.List
	// unplaced holds the parser's diagnostics that name no spec path (a
	// YAML scalar's), by position, until the walk finds their value.
	unplaced map[diag.Pos]*diag.Diagnostic
}

// place gives the parser's diagnostics at x (a value, or the key keyPos)
// the spec path of x, now that field names are normalised: a later stage
// then treats that one value as unsound rather than the whole spec.
func (n *normaliser) place(x *Node, keyPos diag.Pos, path Path) {
	for _, pos := range [...]diag.Pos{x.Pos.Start(), keyPos.Start()} {
		if d := n.unplaced[pos]; d != nil && pos.IsValid() {
			d.Path = path.String()
			delete(n.unplaced, pos)
		}
	}
}

// node normalises x, found at path. Children's paths are appended to path
// in place (the caller's elements are never overwritten, and Verbatim must
// not keep the slice): most values are scalars that need no path at all.
func (n *normaliser) node(x *Node, path Path) {
	switch x.Kind {
	case Array:
		for i, it := range x.Items {
			if len(n.unplaced) > 0 {
				n.place(it, diag.Pos{}, path.Index(i))
			}
			if it.Kind == Object || it.Kind == Array {
				n.node(it, append(path, PathElem{Index: i, IsIndex: true}))
			}
		}
	case Object:
		keep := n.verbatim != nil && n.verbatim(path)
		// Objects of a spec have a handful of fields, for which a scan
		// beats a map; free-form maps can be large.
		var seen map[string]*Field
		if len(x.Fields) > 16 {
			seen = make(map[string]*Field, len(x.Fields))
		}
		kept := x.Fields[:0]
		for _, f := range x.Fields {
			if !keep {
				f.Name = CamelCase(f.Written)
			}
			var prev *Field
			if seen != nil {
				prev = seen[f.Name]
			} else {
				for _, k := range kept {
					if k.Name == f.Name {
						prev = k
						break
					}
				}
			}
			if prev != nil {
				n.duplicate(prev, f, path)
				continue
			}
			if seen != nil {
				seen[f.Name] = f
			}
			kept = append(kept, f)
			if len(n.unplaced) > 0 {
				n.place(f.Value, f.KeyPos, path.Key(f.Name))
			}
			if f.Value.Kind == Object || f.Value.Kind == Array {
				n.node(f.Value, append(path, PathElem{Name: f.Name}))
			}
		}
		x.Fields = kept
		if keep && n.strings != nil && n.strings(path) {
			n.stringify(x, path)
		}
	}
}

func (n *normaliser) duplicate(prev, f *Field, path Path) {
	p := path.Key(diag.Shorten(f.Name)).String()
	rel := []diag.Related{{Pos: prev.KeyPos, Path: p, Message: "first given here as " + quote(prev.Written)}}
	if prev.Written == f.Written {
		n.diags.Add(diag.Diagnostic{Rule: RuleDuplicateKey, Severity: diag.Error, Pos: f.KeyPos, Path: p,
			Message: "key " + quote(f.Written) + " is given twice (first at " + prev.KeyPos.String() + ")",
			Hint:    "remove one of them; only one value can be used", Related: rel})
		return
	}
	n.diags.Add(diag.Diagnostic{Rule: RuleBothSpelling, Severity: diag.Error, Pos: f.KeyPos, Path: p,
		Message: "field " + quote(f.Name) + " is given twice, as " + quote(prev.Written) + " at " + prev.KeyPos.String() + " and as " + quote(f.Written),
		Hint:    "keep one spelling; snake_case and camelCase name the same field", Related: rel})
}

// quote quotes a key for a message, cut when it is long (diag.Shorten).
func quote(s string) string { return `"` + diag.Shorten(s) + `"` }
