package load

import (
	"math"
	"regexp"
	"strconv"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// decimal matches a plain decimal integer literal. The regular
// expressions of the loader are compiled on first use, not at start-up.
var decimal = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[-+]?[0-9]+$`) })

// yamlErrLine matches the line number go-yaml puts in its syntax errors.
var yamlErrLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: line (\d+): (.*)$`) })

// parseYAML parses one YAML document, keeping the position of every value.
func parseYAML(li *lineIndex, data []byte) (*Node, diag.List) {
	var l diag.List
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		pos, msg := diag.Pos{File: li.file}, err.Error()
		if m := yamlErrLine().FindStringSubmatch(msg); m != nil {
			line, _ := strconv.Atoi(m[1])
			pos, msg = li.lineCol(line, 1), m[2]
		}
		l.Errorf(RuleSyntax, pos, "", "fix the YAML syntax at this position", "YAML syntax error: %s", msg)
		return nil, l
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		l.Errorf(RuleSyntax, li.lineCol(1, 1), "", "write the cluster spec as a YAML mapping", "spec is empty")
		return nil, l
	}
	c := yamlConverter{li: li}
	n := c.node(doc.Content[0], 0)
	return n, c.diags
}

type yamlConverter struct {
	li    *lineIndex
	diags diag.List
}

func (c *yamlConverter) pos(y *yaml.Node) diag.Pos { return c.li.lineCol(y.Line, y.Column) }

// node converts a YAML node. Aliases are expanded; depth bounds that
// expansion so that alias bombs cannot exhaust memory.
func (c *yamlConverter) node(y *yaml.Node, depth int) *Node {
	n := &Node{Pos: c.pos(y)}
	if depth > MaxDepth {
		c.diags.Errorf(RuleLimit, n.Pos, "", "flatten the structure or remove recursive aliases", "nesting deeper than %d levels", MaxDepth)
		return n
	}
	switch y.Kind {
	case yaml.AliasNode:
		a := c.node(y.Alias, depth+1)
		a.Pos = n.Pos
		return a
	case yaml.MappingNode:
		n.Kind = Object
		for i := 0; i+1 < len(y.Content); i += 2 {
			k, v := y.Content[i], y.Content[i+1]
			if k.Kind != yaml.ScalarNode || k.ShortTag() == "!!merge" {
				c.diags.Errorf(RuleSyntax, c.pos(k), "", "use plain string keys and no merge keys (<<)", "unsupported YAML key")
				continue
			}
			n.Fields = append(n.Fields, &Field{Name: k.Value, Written: k.Value, KeyPos: c.pos(k), Value: c.node(v, depth+1)})
		}
	case yaml.SequenceNode:
		n.Kind = Array
		n.Items = make([]*Node, 0, len(y.Content))
		for _, it := range y.Content {
			n.Items = append(n.Items, c.node(it, depth+1))
		}
	case yaml.ScalarNode:
		c.scalar(n, y)
	default:
		c.diags.Errorf(RuleSyntax, n.Pos, "", "", "unsupported YAML construct")
	}
	return n
}

func (c *yamlConverter) scalar(n *Node, y *yaml.Node) {
	switch y.ShortTag() {
	case "!!null":
		n.Kind = Null
	case "!!bool":
		var b bool
		if err := y.Decode(&b); err != nil {
			c.diags.Errorf(RuleSyntax, n.Pos, "", "", "bad boolean %q", y.Value)
		}
		n.Kind, n.True = Bool, b
	case "!!int":
		var i int64
		n.Kind, n.Text = Number, y.Value
		if err := y.Decode(&i); err == nil {
			n.Text = strconv.FormatInt(i, 10)
		} else if !decimal().MatchString(y.Value) {
			c.diags.Errorf(RuleSyntax, n.Pos, "", "write a decimal integer", "bad integer %q: %v", y.Value, err)
		}
	case "!!float":
		var f float64
		if err := y.Decode(&f); err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			c.diags.Errorf(RuleSyntax, n.Pos, "", "write a finite number", "bad number %q", y.Value)
		}
		n.Kind, n.Text = Number, strconv.FormatFloat(f, 'g', -1, 64)
		if decimal().MatchString(y.Value) {
			n.Text = y.Value // an integer too large for int64: keep it exact
		}
	case "!!str", "!!binary", "!!timestamp":
		n.Kind, n.Text = String, y.Value
	default:
		c.diags.Errorf(RuleSyntax, n.Pos, "", "remove the YAML tag", "unsupported YAML tag %s", y.Tag)
		n.Kind, n.Text = String, y.Value
	}
}
