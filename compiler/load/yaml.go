package load

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// jsonNumber matches a number as JSON writes it. The regular expressions
// of the loader are compiled on first use, not at start-up.
var jsonNumber = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$`)
})

// yamlErrLine matches the line number go-yaml puts in its syntax errors.
var yamlErrLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: line (\d+): (.*)$`) })

// parseYAML parses a YAML stream that must hold exactly one document,
// keeping the position of every value. kind names the file in messages
// ("spec").
func parseYAML(li *lineIndex, data []byte, b *budget, kind string) (*Node, diag.List) {
	var l diag.List
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	err := dec.Decode(&doc)
	for err == nil {
		// A second document would be ignored by a reader of the first:
		// refuse it, so that what is linted is what is read. An empty
		// document (a trailing ---) is harmless.
		var next yaml.Node
		err2 := dec.Decode(&next)
		if errors.Is(err2, io.EOF) {
			break
		}
		if err2 != nil {
			err = err2
			break
		}
		if len(next.Content) == 1 && next.Content[0].Kind == yaml.ScalarNode && next.Content[0].ShortTag() == "!!null" && next.Content[0].Value == "" {
			continue
		}
		l.Errorf(RuleSyntax, li.yamlPos(next.Line, next.Column), "", "keep one document per file; remove the '---' and what follows",
			"a second YAML document starts here; the %s holds one document", kind)
		return nil, l
	}
	if errors.Is(err, io.EOF) {
		err = nil // an empty stream: reported below
	}
	if err != nil {
		pos, msg := li.lineCol(1, 1), err.Error() // when the parser names no position
		if m := yamlErrLine().FindStringSubmatch(msg); m != nil {
			line, _ := strconv.Atoi(m[1])
			if parserError(m[2]) {
				// go-yaml's parser (not its scanner) errors name the
				// 0-based line of the collection being parsed.
				line++
			}
			pos, msg = li.yamlPos(line, 1), m[2]
		} else if m := yamlUnknownAnchor().FindStringSubmatch(msg); m != nil {
			if i := bytes.Index(data, []byte("*"+m[1])); i >= 0 {
				pos = li.pos(i)
			}
			msg = strings.TrimPrefix(msg, "yaml: ")
		} else if i := nonPrintable(data); i >= 0 {
			// go-yaml says "control characters are not allowed" without
			// a position.
			pos = li.pos(i)
			r, _ := utf8.DecodeRune(data[i:])
			msg = fmt.Sprintf("%s (%U)", strings.TrimPrefix(msg, "yaml: "), r)
		}
		l.Errorf(RuleSyntax, pos, "", "fix the YAML syntax at this position", "YAML syntax error: %s", msg)
		return nil, l
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		l.Errorf(RuleSyntax, li.lineCol(1, 1), "", "write the "+kind+" as a YAML mapping", "%s is empty", kind)
		return nil, l
	}
	c := yamlConverter{li: li, budget: b}
	n := c.node(doc.Content[0], 0)
	if c.budget.exceeded() {
		return nil, append(c.diags, c.budget.diag)
	}
	return n, c.diags
}

type yamlConverter struct {
	li     *lineIndex
	budget *budget
	diags  diag.List
}

func (c *yamlConverter) pos(y *yaml.Node) diag.Pos { return c.li.yamlPos(y.Line, y.Column) }

// node converts a YAML node. Aliases are expanded: the budget bounds the
// expanded tree (values, text and depth), so that an alias bomb cannot
// exhaust memory or time.
func (c *yamlConverter) node(y *yaml.Node, depth int) *Node {
	n, _ := c.convert(y, depth)
	return n
}

// convert converts a YAML node and returns it with the byte offset of its
// end in the source, or -1 if it is unknown. The node's Pos is its range.
func (c *yamlConverter) convert(y *yaml.Node, depth int) (*Node, int) {
	n := &Node{Pos: c.pos(y)}
	if !c.budget.value(n.Pos, depth, len(y.Value)) {
		return n, -1
	}
	start := c.li.yamlOffset(y.Line, y.Column)
	end := -1
	switch y.Kind {
	case yaml.AliasNode:
		a, _ := c.convert(y.Alias, depth)
		end = yamlScalarEnd(c.li.data, start, y)
		a.Pos = c.span(n.Pos, start, end)
		return a, end
	case yaml.MappingNode:
		n.Kind = Object
		for i := 0; i+1 < len(y.Content) && !c.budget.exceeded(); i += 2 {
			k, v := y.Content[i], y.Content[i+1]
			if k.Kind != yaml.ScalarNode || k.ShortTag() == "!!merge" {
				c.diags.Errorf(RuleSyntax, c.pos(k), "", "use plain string keys and no merge keys (<<)", "unsupported YAML key")
				continue
			}
			c.budget.text(len(k.Value))
			keyStart := c.li.yamlOffset(k.Line, k.Column)
			keyEnd := yamlScalarEnd(c.li.data, keyStart, k)
			value, valueEnd := c.convert(v, depth+1)
			end = max(end, keyEnd, valueEnd)
			n.Fields = append(n.Fields, &Field{Name: k.Value, Written: k.Value, KeyPos: c.span(c.pos(k), keyStart, keyEnd), Value: value})
		}
	case yaml.SequenceNode:
		n.Kind = Array
		n.Items = make([]*Node, 0, len(y.Content))
		for _, it := range y.Content {
			if c.budget.exceeded() {
				break
			}
			item, itemEnd := c.convert(it, depth+1)
			end = max(end, itemEnd)
			n.Items = append(n.Items, item)
		}
	case yaml.ScalarNode:
		c.scalar(n, y)
		end = yamlScalarEnd(c.li.data, start, y)
	default:
		c.diags.Errorf(RuleSyntax, n.Pos, "", "", "unsupported YAML construct")
	}
	if y.Style&yaml.FlowStyle != 0 && (y.Kind == yaml.MappingNode || y.Kind == yaml.SequenceNode) {
		end = flowEnd(c.li.data, start, end)
	}
	n.Pos = c.span(n.Pos, start, end)
	return n, end
}

// span returns pos, the position of the byte at start, as the range that
// ends at byte end; an unknown end (or start) leaves it without one.
func (c *yamlConverter) span(pos diag.Pos, start, end int) diag.Pos {
	if start < 0 || end <= start {
		return pos
	}
	return pos.Through(c.li.pos(end))
}

// scalar converts a scalar with the JSON data model's one spelling per
// value: numbers and booleans must be written as JSON writes them, so a
// YAML spec and a JSON spec with the same text mean the same thing (YAML
// reads 010 as 8 and 1_000 as 1000; JSON refuses both).
func (c *yamlConverter) scalar(n *Node, y *yaml.Node) {
	quoteHint := func(canon string) string {
		h := "quote it (\"" + y.Value + "\") if it is text"
		if canon != "" {
			return "write " + canon + ", or " + h
		}
		return h
	}
	switch y.ShortTag() {
	case "!!null":
		n.Kind = Null
	case "!!bool":
		n.Kind = Bool
		n.True = strings.ToLower(y.Value) == "true" // as YAML reads it, though reported
		switch y.Value {
		case "true":
		case "false":
		default:
			c.diags.Errorf(RuleSyntax, n.Pos, "", quoteHint(strings.ToLower(y.Value)),
				"%q is read as a boolean only by YAML; write true or false", y.Value)
		}
	case "!!int", "!!float":
		n.Kind, n.Text = Number, y.Value
		if !c.budget.number(n.Pos, y.Value) {
			return
		}
		if jsonNumber().MatchString(y.Value) {
			return // kept as written: "16.0" stays a float, so the schema says an integer is expected
		}
		canon := ""
		if i, err := strconv.ParseInt(y.Value, 0, 64); err == nil {
			canon = strconv.FormatInt(i, 10)
		} else if f, err := strconv.ParseFloat(strings.ReplaceAll(y.Value, "_", ""), 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			canon = strconv.FormatFloat(f, 'g', -1, 64)
		}
		if strings.HasPrefix(strings.TrimLeft(y.Value, "+-"), "0") && len(strings.TrimLeft(y.Value, "+-")) > 1 && isDigits(strings.TrimLeft(y.Value, "+-")) {
			// YAML 1.1 readers take 010 as octal 8, YAML 1.2 as 10.
			if d, err := strconv.ParseInt(y.Value, 10, 64); err == nil {
				canon = strconv.FormatInt(d, 10)
			}
		}
		// Later stages see the plain value (or the text), not a literal
		// that only YAML reads, so the one error is reported once.
		if n.Text = canon; canon == "" {
			n.Kind, n.Text = String, y.Value
		}
		c.diags.Errorf(RuleSyntax, n.Pos, "", quoteHint(canon),
			"number %s is not written as JSON writes numbers (no leading zeros, hex, octal, binary, '_', '+', '.5', inf or nan); its value is ambiguous", y.Value)
	case "!!str", "!!timestamp":
		n.Kind, n.Text = String, y.Value
	case "!!binary":
		c.diags.Errorf(RuleSyntax, n.Pos, "", "remove the !!binary tag and write the text itself",
			"!!binary values are not supported: the spec would use the base64 text, not the bytes")
		n.Kind, n.Text = String, y.Value
	default:
		c.diags.Errorf(RuleSyntax, n.Pos, "", "remove the YAML tag", "unsupported YAML tag %s", y.Tag)
		n.Kind, n.Text = String, y.Value
	}
}

// yamlUnknownAnchor matches go-yaml's error for an alias to no anchor,
// which has no position.
var yamlUnknownAnchor = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: unknown anchor '(.*)' referenced$`) })

// parserError reports whether a go-yaml error message comes from its
// parser, whose "line N" is off by one, rather than its scanner.
func parserError(msg string) bool {
	switch strings.TrimPrefix(msg, "did not find expected ") {
	case "key", "'-' indicator", "',' or ']'", "',' or '}'", "node content", "<document start>":
		return strings.HasPrefix(msg, "did not find expected ")
	}
	return false
}

// nonPrintable returns the offset of the first character YAML does not
// allow in a stream (C0 controls other than tab, LF and CR; DEL; C1
// controls other than NEL), or -1.
func nonPrintable(data []byte) int {
	for i, r := range string(data) {
		switch {
		case r == '\t' || r == '\n' || r == '\r' || r == '\u0085':
		case r < 0x20, r >= 0x7f && r <= 0x9f:
			return i
		}
	}
	return -1
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}
