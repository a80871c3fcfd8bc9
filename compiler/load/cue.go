package load

import (
	"fmt"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/errors"
	"cuelang.org/go/cue/format"
	"cuelang.org/go/cue/parser"
	"cuelang.org/go/cue/token"

	"github.com/slurmspec/slurmspec/compiler/cuectx"
	"github.com/slurmspec/slurmspec/compiler/diag"
)

// parseCUE evaluates a CUE file and reads back its concrete value. The spec
// may use every feature of CUE (references, comprehensions, defaults), but
// the result must be concrete data.
func parseCUE(name string, data []byte) (root *Node, l diag.List) {
	defer func() {
		if r := recover(); r != nil {
			root = nil
			l.Errorf(RuleSyntax, diag.Pos{File: name}, "", "simplify the CUE; this is a bug in the CUE evaluator",
				"internal error: CUE evaluation panicked: %v", r)
		}
	}()
	f, err := parser.ParseFile(name, data, parser.ParseComments)
	if err != nil {
		return nil, cueErrors(name, err, RuleSyntax, "CUE syntax error: ", "fix the CUE syntax at this position")
	}
	v := cuectx.New().BuildFile(f)
	if err := v.Err(); err != nil {
		return nil, cueErrors(name, err, RuleSyntax, "CUE evaluation error: ", "")
	}
	if err := v.Validate(cue.Concrete(true), cue.Final()); err != nil {
		return nil, cueErrors(name, err, RuleSyntax, "CUE spec is not concrete data: ", "give every field a concrete value")
	}
	return cueNode(name, v), nil
}

func cueErrors(name string, err error, rule, prefix, hint string) diag.List {
	var l diag.List
	for _, e := range errors.Errors(err) {
		pos := diag.Pos{File: name}
		if ps := errors.Positions(e); len(ps) > 0 {
			pos = fromToken(ps[0])
		}
		format, args := e.Msg()
		path := strings.Join(e.Path(), ".")
		msg := fmt.Sprintf(format, args...)
		if path != "" {
			msg = path + ": " + msg
		}
		l.Errorf(rule, pos, "", hint, "%s%s", prefix, msg)
	}
	return l
}

func cueNode(name string, v cue.Value) *Node {
	n := &Node{Pos: fromToken(v.Pos())}
	if n.Pos.File == "" {
		n.Pos.File = name
	}
	switch v.Kind() {
	case cue.StructKind:
		n.Kind = Object
		it, _ := v.Fields()
		for it.Next() {
			key := it.Selector().Unquoted()
			child := cueNode(name, it.Value())
			n.Fields = append(n.Fields, &Field{Name: key, Written: key, KeyPos: child.Pos, Value: child})
		}
	case cue.ListKind:
		n.Kind = Array
		it, _ := v.List()
		for it.Next() {
			n.Items = append(n.Items, cueNode(name, it.Value()))
		}
	case cue.StringKind:
		n.Kind = String
		n.Text, _ = v.String()
	case cue.BoolKind:
		n.Kind = Bool
		n.True, _ = v.Bool()
	case cue.IntKind, cue.FloatKind, cue.NumberKind:
		n.Kind = Number
		b, _ := format.Node(v.Syntax())
		n.Text = string(b)
	default:
		n.Kind = Null
	}
	return n
}

func fromToken(p token.Pos) diag.Pos {
	if !p.IsValid() {
		return diag.Pos{}
	}
	return diag.Pos{File: p.Filename(), Line: p.Line(), Col: p.Column()}
}
