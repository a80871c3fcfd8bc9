package load

import (
	"bytes"
	"regexp"
	"strconv"
	"sync"

	"github.com/tailscale/hujson"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// hujsonErrPos matches the position hujson puts in its syntax errors. It
// is compiled on first use: package initialisation is start-up time of
// every command.
var hujsonErrPos = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^hujson: line (\d+), column (\d+): (.*)$`)
})

// parseJSON parses JSON with comments (HuJSON: // and /* */ comments and
// trailing commas), keeping the position of every value.
func parseJSON(li *lineIndex, data []byte) (*Node, diag.List) {
	v, err := hujson.Parse(data)
	if err != nil {
		var l diag.List
		pos := diag.Pos{File: li.file}
		msg := err.Error()
		if m := hujsonErrPos().FindStringSubmatch(msg); m != nil {
			line, _ := strconv.Atoi(m[1])
			col, _ := strconv.Atoi(m[2])
			pos, msg = li.lineCol(line, col), m[3]
		}
		l.Errorf(RuleSyntax, pos, "", "fix the JSON syntax at this position", "JSON syntax error: %s", msg)
		return nil, l
	}
	c := jsonConverter{li: li}
	return c.node(&v), nil
}

// jsonConverter turns hujson's tree into Nodes. Nodes and Fields are
// allocated in blocks that grow up to maxBlock: a 1000-pool spec has
// a hundred thousand values.
type jsonConverter struct {
	li     *lineIndex
	nodes  []Node
	fields []Field
}

const maxBlock = 1024

func (c *jsonConverter) newNode() *Node {
	if len(c.nodes) == cap(c.nodes) {
		c.nodes = make([]Node, 0, min(max(16, 2*cap(c.nodes)), maxBlock))
	}
	c.nodes = c.nodes[:len(c.nodes)+1]
	return &c.nodes[len(c.nodes)-1]
}

func (c *jsonConverter) newField() *Field {
	if len(c.fields) == cap(c.fields) {
		c.fields = make([]Field, 0, min(max(16, 2*cap(c.fields)), maxBlock))
	}
	c.fields = c.fields[:len(c.fields)+1]
	return &c.fields[len(c.fields)-1]
}

func (c *jsonConverter) node(v *hujson.Value) *Node {
	n := c.newNode()
	n.Pos = c.li.pos(v.StartOffset)
	switch t := v.Value.(type) {
	case *hujson.Object:
		n.Kind = Object
		n.Fields = make([]*Field, 0, len(t.Members))
		for i := range t.Members {
			m := &t.Members[i]
			key := jsonString(m.Name.Value.(hujson.Literal))
			f := c.newField()
			*f = Field{Name: key, Written: key, KeyPos: c.li.pos(m.Name.StartOffset), Value: c.node(&m.Value)}
			n.Fields = append(n.Fields, f)
		}
	case *hujson.Array:
		n.Kind = Array
		n.Items = make([]*Node, 0, len(t.Elements))
		for i := range t.Elements {
			n.Items = append(n.Items, c.node(&t.Elements[i]))
		}
	case hujson.Literal:
		switch t.Kind() {
		case 'n':
			n.Kind = Null
		case 't', 'f':
			n.Kind, n.True = Bool, t.Bool()
		case '"':
			n.Kind, n.Text = String, jsonString(t)
		case '0':
			n.Kind, n.Text = Number, string(t)
		}
	}
	return n
}

// jsonString decodes a string literal that hujson has validated. Without
// escapes (nearly always) its text is the bytes between the quotes: the
// input is valid UTF-8 and a valid literal holds no control characters.
func jsonString(lit hujson.Literal) string {
	if len(lit) >= 2 && bytes.IndexByte(lit, '\\') < 0 {
		return string(lit[1 : len(lit)-1])
	}
	return lit.String()
}
