package load

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// Kind is the kind of a value in a loaded document.
type Kind int

// Value kinds. They are the JSON data model: every input format is reduced
// to it.
const (
	Null Kind = iota
	Bool
	Number
	String
	Object
	Array
)

// String returns the JSON name of the kind.
func (k Kind) String() string {
	return [...]string{"null", "boolean", "number", "string", "object", "array"}[k]
}

// Node is one value of a loaded document together with where it was written.
type Node struct {
	Kind Kind
	// Pos is the position of the value itself.
	Pos diag.Pos
	// Text is the value of a String, and the literal of a Number as written
	// (in CUE number syntax, e.g. "1_000" or "0x10" from YAML).
	Text string
	// True is the value of a Bool.
	True bool
	// Fields are the members of an Object, in source order.
	Fields []*Field
	// Items are the elements of an Array.
	Items []*Node
}

// Field is one member of an Object.
type Field struct {
	// Name is the normalised (camelCase) name; for free-form maps such as
	// slurm.conf "config" or "labels" it is the key exactly as written.
	Name string
	// Written is the key as it appears in the source (snake_case or camelCase).
	Written string
	// KeyPos is the position of the key.
	KeyPos diag.Pos
	Value  *Node
}

// Get returns the value of the named field of an Object, or nil.
func (n *Node) Get(name string) *Node {
	if n == nil || n.Kind != Object {
		return nil
	}
	for _, f := range n.Fields {
		if f.Name == name {
			return f.Value
		}
	}
	return nil
}

// Field returns the named field of an Object, or nil.
func (n *Node) Field(name string) *Field {
	if n == nil || n.Kind != Object {
		return nil
	}
	for _, f := range n.Fields {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// Str returns the value of a String node and whether n is one.
func (n *Node) Str() (string, bool) {
	if n == nil || n.Kind != String {
		return "", false
	}
	return n.Text, true
}

// Int returns the value of an integral Number node.
func (n *Node) Int() (int64, bool) {
	if n == nil || n.Kind != Number {
		return 0, false
	}
	i, err := strconv.ParseInt(strings.ReplaceAll(n.Text, "_", ""), 0, 64)
	return i, err == nil
}

// Path is a spec path: a list of field names and list indices, printed as
// "orchestratorSpec.slurmSpec.partitions[1].nodePoolIds[0]".
type Path []PathElem

// PathElem is one step of a Path: a field name, or an index when IsIndex.
type PathElem struct {
	Name    string
	Index   int
	IsIndex bool
}

// Key returns p extended by a field name.
func (p Path) Key(name string) Path {
	return append(p[:len(p):len(p)], PathElem{Name: name})
}

// Index returns p extended by a list index.
func (p Path) Index(i int) Path {
	return append(p[:len(p):len(p)], PathElem{Index: i, IsIndex: true})
}

// String formats the path. Field names that are not plain identifiers are
// quoted, as in config["Foo.Bar"].
func (p Path) String() string {
	var b strings.Builder
	for i, e := range p {
		switch {
		case e.IsIndex:
			b.WriteString("[" + strconv.Itoa(e.Index) + "]")
		case !isIdent(e.Name):
			b.WriteString("[" + strconv.Quote(e.Name) + "]")
		default:
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(e.Name)
		}
	}
	return b.String()
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
		case i > 0 && r >= '0' && r <= '9':
		default:
			return false
		}
	}
	return true
}

// Lookup walks the path from n and returns the deepest node that exists
// together with how many path elements were matched.
func (n *Node) Lookup(p Path) (*Node, int) {
	cur := n
	for i, e := range p {
		var next *Node
		switch {
		case e.IsIndex && cur.Kind == Array && e.Index >= 0 && e.Index < len(cur.Items):
			next = cur.Items[e.Index]
		case !e.IsIndex && cur.Kind == Object:
			next = cur.Get(e.Name)
		}
		if next == nil {
			return cur, i
		}
		cur = next
	}
	return cur, len(p)
}

// ParsePath parses the String form of a Path.
func ParsePath(s string) (Path, error) {
	var p Path
	for i := 0; i < len(s); {
		switch s[i] {
		case '.':
			i++
		case '[':
			end := strings.IndexByte(s[i:], ']')
			if end < 0 {
				return nil, fmt.Errorf("path %q: unclosed [", s)
			}
			inner := s[i+1 : i+end]
			if strings.HasPrefix(inner, `"`) {
				// A quoted key may itself contain ']'; find the closing quote.
				q, err := strconv.QuotedPrefix(s[i+1:])
				if err != nil {
					return nil, fmt.Errorf("path %q: %w", s, err)
				}
				name, _ := strconv.Unquote(q)
				p = p.Key(name)
				i += 1 + len(q) + 1
				continue
			}
			n, err := strconv.Atoi(inner)
			if err != nil {
				return nil, fmt.Errorf("path %q: bad index %q", s, inner)
			}
			p = p.Index(n)
			i += end + 1
		default:
			end := strings.IndexAny(s[i:], ".[")
			if end < 0 {
				end = len(s) - i
			}
			p = p.Key(s[i : i+end])
			i += end
		}
	}
	return p, nil
}
