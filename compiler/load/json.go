package load

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/tailscale/hujson"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// hujsonErrPos matches the position hujson puts in its syntax errors; the
// rest may span lines (an unclosed string's literal runs to the next
// quote). It is compiled on first use: package initialisation is start-up
// time of every command.
var hujsonErrPos = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?s)^hujson: line (\d+), column (\d+): (.*)$`)
})

// parseJSON parses JSON with comments (HuJSON: // and /* */ comments and
// trailing commas), keeping the position of every value.
func parseJSON(li *lineIndex, data []byte, b *budget) (*Node, diag.List) {
	v, err := hujson.Parse(data)
	if err != nil {
		var l diag.List
		pos := li.lineCol(1, 1) // when the parser names no position
		msg := err.Error()
		if m := hujsonErrPos().FindStringSubmatch(msg); m != nil {
			line, _ := strconv.Atoi(m[1])
			col, _ := strconv.Atoi(m[2])
			pos, msg = li.byteLineCol(line, col), m[3]
		}
		if lit, ok := strings.CutPrefix(msg, "invalid literal: "); ok {
			// The literal of an unclosed string runs to the next quote:
			// megabytes, perhaps.
			msg = "invalid literal: " + diag.Shorten(lit)
		}
		l.Errorf(RuleSyntax, pos, "", "fix the JSON syntax at this position", "JSON syntax error: %s", msg)
		return nil, l
	}
	c := jsonConverter{li: li, budget: b}
	n := c.node(&v, 0)
	if b.exceeded() {
		return nil, append(c.diags, b.diag)
	}
	return n, c.diags
}

// jsonConverter turns hujson's tree into Nodes. Nodes and Fields are
// allocated in blocks that grow up to maxBlock: a 1000-pool spec has
// a hundred thousand values.
type jsonConverter struct {
	li     *lineIndex
	budget *budget
	diags  diag.List
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

func (c *jsonConverter) node(v *hujson.Value, depth int) *Node {
	n := c.newNode()
	n.Pos = c.li.span(v.StartOffset, v.EndOffset)
	if lit, _ := v.Value.(hujson.Literal); !c.budget.value(n.Pos, depth, len(lit)) {
		return n
	}
	switch t := v.Value.(type) {
	case *hujson.Object:
		n.Kind = Object
		n.Fields = make([]*Field, 0, len(t.Members))
		for i := range t.Members {
			m := &t.Members[i]
			keyPos := c.li.span(m.Name.StartOffset, m.Name.EndOffset)
			key := c.str(m.Name.Value.(hujson.Literal), keyPos)
			c.budget.text(len(key))
			f := c.newField()
			*f = Field{Name: key, Written: key, KeyPos: keyPos, Value: c.node(&m.Value, depth+1)}
			n.Fields = append(n.Fields, f)
		}
	case *hujson.Array:
		n.Kind = Array
		n.Items = make([]*Node, 0, len(t.Elements))
		for i := range t.Elements {
			n.Items = append(n.Items, c.node(&t.Elements[i], depth+1))
		}
	case hujson.Literal:
		switch t.Kind() {
		case 'n':
			n.Kind = Null
		case 't', 'f':
			n.Kind, n.True = Bool, t.Bool()
		case '"':
			n.Kind, n.Text = String, c.str(t, n.Pos)
		case '0':
			n.Kind, n.Text = Number, string(t)
		}
	}
	return n
}

// str decodes a string literal that hujson has validated, refusing escapes
// of lone UTF-16 surrogates: Go's decoder turns them into U+FFFD, a value
// nobody wrote.
func (c *jsonConverter) str(lit hujson.Literal, pos diag.Pos) string {
	if len(lit) >= 2 && bytes.IndexByte(lit, '\\') < 0 {
		// Without escapes (nearly always) the text is the bytes between
		// the quotes: the input is valid UTF-8 and a valid literal holds
		// no control characters.
		return string(lit[1 : len(lit)-1])
	}
	if esc, ok := loneSurrogate(lit); ok {
		c.diags.Errorf(RuleEncoding, pos, "", "escape a character outside the Basic Multilingual Plane as a surrogate pair (\\ud83d\\ude00), or write it as UTF-8",
			"string holds %s, half of a UTF-16 surrogate pair, which is not a character", esc)
	}
	return lit.String()
}

// loneSurrogate returns the first \uXXXX escape in a JSON string literal
// that is a UTF-16 surrogate without its other half.
func loneSurrogate(lit []byte) (string, bool) {
	hex4 := func(i int) (rune, bool) {
		if i+6 > len(lit) || lit[i] != '\\' || lit[i+1] != 'u' {
			return 0, false
		}
		v, err := strconv.ParseUint(string(lit[i+2:i+6]), 16, 16)
		return rune(v), err == nil
	}
	for i := 0; i < len(lit); i++ {
		if lit[i] != '\\' {
			continue
		}
		r, ok := hex4(i)
		if !ok {
			i++ // a two-character escape such as \\ or \"
			continue
		}
		switch {
		case r >= 0xd800 && r < 0xdc00:
			if r2, ok := hex4(i + 6); ok && r2 >= 0xdc00 && r2 < 0xe000 {
				i += 11
				continue
			}
			return string(lit[i : i+6]), true
		case r >= 0xdc00 && r < 0xe000:
			return string(lit[i : i+6]), true
		}
		i += 5
	}
	return "", false
}
