package load

import (
	"regexp"
	"strconv"

	"github.com/tailscale/hujson"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// hujsonErrPos matches the position hujson puts in its syntax errors.
var hujsonErrPos = regexp.MustCompile(`^hujson: line (\d+), column (\d+): (.*)$`)

// parseJSON parses JSON with comments (HuJSON: // and /* */ comments and
// trailing commas), keeping the position of every value.
func parseJSON(li *lineIndex, data []byte) (*Node, diag.List) {
	v, err := hujson.Parse(data)
	if err != nil {
		var l diag.List
		pos := diag.Pos{File: li.file}
		msg := err.Error()
		if m := hujsonErrPos.FindStringSubmatch(msg); m != nil {
			line, _ := strconv.Atoi(m[1])
			col, _ := strconv.Atoi(m[2])
			pos, msg = li.lineCol(line, col), m[3]
		}
		l.Errorf(RuleSyntax, pos, "", "fix the JSON syntax at this position", "JSON syntax error: %s", msg)
		return nil, l
	}
	return jsonNode(li, &v), nil
}

func jsonNode(li *lineIndex, v *hujson.Value) *Node {
	n := &Node{Pos: li.pos(v.StartOffset)}
	switch t := v.Value.(type) {
	case *hujson.Object:
		n.Kind = Object
		n.Fields = make([]*Field, 0, len(t.Members))
		for i := range t.Members {
			m := &t.Members[i]
			key := m.Name.Value.(hujson.Literal).String()
			n.Fields = append(n.Fields, &Field{Name: key, Written: key, KeyPos: li.pos(m.Name.StartOffset), Value: jsonNode(li, &m.Value)})
		}
	case *hujson.Array:
		n.Kind = Array
		n.Items = make([]*Node, 0, len(t.Elements))
		for i := range t.Elements {
			n.Items = append(n.Items, jsonNode(li, &t.Elements[i]))
		}
	case hujson.Literal:
		switch t.Kind() {
		case 'n':
			n.Kind = Null
		case 't', 'f':
			n.Kind, n.True = Bool, t.Bool()
		case '"':
			n.Kind, n.Text = String, t.String()
		case '0':
			n.Kind, n.Text = Number, string(t)
		}
	}
	return n
}
