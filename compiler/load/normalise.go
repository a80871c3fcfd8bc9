package load

import (
	"strings"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// CamelCase converts an API field name from snake_case to the camelCase
// spelling used everywhere downstream. Names without an underscore are
// returned unchanged.
func CamelCase(name string) string {
	if !strings.Contains(name, "_") {
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

// normaliser renames fields to camelCase and reports keys given twice,
// whether spelled the same way or once in each spelling.
type normaliser struct {
	verbatim func(Path) bool
	diags    diag.List
}

func (n *normaliser) node(x *Node, path Path) {
	switch x.Kind {
	case Array:
		for i, it := range x.Items {
			n.node(it, path.Index(i))
		}
	case Object:
		keep := n.verbatim != nil && n.verbatim(path)
		seen := make(map[string]*Field, len(x.Fields))
		kept := x.Fields[:0]
		for _, f := range x.Fields {
			if !keep {
				f.Name = CamelCase(f.Written)
			}
			if prev, dup := seen[f.Name]; dup {
				n.duplicate(prev, f, path)
				continue
			}
			seen[f.Name] = f
			kept = append(kept, f)
			n.node(f.Value, path.Key(f.Name))
		}
		x.Fields = kept
	}
}

func (n *normaliser) duplicate(prev, f *Field, path Path) {
	p := path.Key(f.Name).String()
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

func quote(s string) string { return `"` + s + `"` }
