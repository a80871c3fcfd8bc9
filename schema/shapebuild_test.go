package schema

// The shape builder: it reads, from the compiled CUE schema, what the data
// walk needs (fields, required fields, free-form maps, list forms, the
// fields other constraints read, @msg attributes) and the leaf constraints
// Go can evaluate exactly (lean.go). It runs when shape_gen.go is
// generated (TestShapeIsCurrent), not at run time: reading constraints
// through CUE's API cost milliseconds of every lint's start-up.

import (
	"sort"
	"strconv"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/literal"
	"cuelang.org/go/cue/token"
)

// shapeBuilder reads shapes from the compiled schema.
type shapeBuilder struct {
	root  cue.Value       // the whole schema file
	reads map[string]bool // schemaReads
}

func (b shapeBuilder) build(v cue.Value, depth int) *shape {
	s := &shape{minLen: -1}
	k := v.IncompleteKind()
	if k == cue.TopKind || depth > 32 {
		s.any = true
		return s
	}
	if k&cue.StructKind != 0 {
		if it, err := v.Fields(cue.Optional(true)); err == nil {
			for it.Next() {
				if s.fields == nil {
					s.fields = map[string]*shape{}
				}
				name := it.Selector().Unquoted()
				if it.Selector().ConstraintType() == cue.RequiredConstraint {
					s.required = append(s.required, name)
				}
				fv := it.Value()
				var child *shape
				if a := fv.Attribute("slurmspec"); a.Err() == nil && a.Contents() == "map" {
					// A free-form map: its keys are data; its values are
					// checked by Go when their constraint allows, otherwise
					// by unification.
					child = &shape{minLen: -1, pattern: &shape{any: true, minLen: -1}}
					if key, mv, ok := mapPattern(fv, b.root); ok {
						child.keyRe = compiledLazily(key)
						child.pattern = &shape{leaf: leafOf(mv), minLen: -1}
					}
				} else {
					child = b.build(fv, depth+1)
				}
				child.read = b.reads[name]
				if m, ok := attrMessage(fv); ok {
					child.msg = &m
				}
				s.fields[name] = child
				s.names = append(s.names, name)
			}
		}
		sort.Strings(s.names)
	}
	if k&cue.ListKind != 0 {
		if ev := v.LookupPath(cue.MakePath(cue.AnyIndex)); ev.Exists() {
			s.elem = b.build(ev, depth+1)
			if n, ok := listForm(v); ok {
				s.minLen = n
				s.elementwise = s.elem.fields != nil
			}
		}
	}
	if k&^(cue.StringKind|cue.IntKind|cue.FloatKind|cue.BoolKind) == 0 {
		s.leaf = leafOf(v)
	}
	return s
}

// leafOf is the constraint of a scalar field when Go can evaluate it, nil
// otherwise.
func leafOf(v cue.Value) *leafCheck {
	lc, _ := compileLeaf(v)
	return lc
}

func attrMessage(v cue.Value) (message, bool) {
	a := v.Attribute("msg")
	if a.Err() != nil || a.NumArgs() < 2 {
		return message{}, false
	}
	rule, err1 := a.String(0)
	text, err2 := a.String(1)
	if err1 != nil || err2 != nil {
		return message{}, false
	}
	return message{rule, text}, true
}

// collectPatternMsgs records, for every definition and field carrying an
// @msg attribute, the regular expressions it constrains with.
func collectPatternMsgs(v cue.Value, out map[string]message, depth int) {
	if depth > 32 {
		return
	}
	it, err := v.Fields(cue.Optional(true), cue.Definitions(true))
	if err != nil {
		return
	}
	for it.Next() {
		fv := it.Value()
		if m, ok := attrMessage(fv); ok {
			for _, re := range regexesOf(fv, 0) {
				out[re] = m
			}
		}
		if it.Selector().IsDefinition() {
			collectPatternMsgs(fv, out, depth+1)
		}
	}
}

// regexesOf returns the =~ patterns of a constraint expression.
func regexesOf(v cue.Value, depth int) []string {
	if depth > 8 {
		return nil
	}
	op, args := v.Expr()
	switch op {
	case cue.RegexMatchOp:
		if len(args) == 1 {
			if re, err := args[0].String(); err == nil {
				return []string{re}
			}
		}
	case cue.AndOp, cue.OrOp:
		var out []string
		for _, a := range args {
			out = append(out, regexesOf(a, depth+1)...)
		}
		return out
	}
	return nil
}

// compileLeaf reads the constraint of a scalar field. ok is false when some
// part of it is not understood: the field is then always left to CUE.
func compileLeaf(v cue.Value) (lc *leafCheck, ok bool) {
	k := v.IncompleteKind()
	if k == 0 || k&^(cue.StringKind|cue.IntKind|cue.FloatKind|cue.BoolKind) != 0 {
		return nil, false
	}
	lc = &leafCheck{kinds: k, maxRunes: -1}
	if !lc.add(v, 0) {
		return nil, false
	}
	hasString := lc.enum != nil || len(lc.regexps)+len(lc.notRegexps)+len(lc.notEqual) > 0 || lc.maxRunes >= 0
	if hasString && len(lc.bounds) > 0 {
		return nil, false
	}
	return lc, true
}

func (lc *leafCheck) add(v cue.Value, depth int) bool {
	if depth > 16 {
		return false
	}
	op, args := v.Expr()
	switch op {
	case cue.NoOp:
		if v.IsConcrete() {
			s, err := v.String()
			if err != nil {
				return false
			}
			return lc.addEnum([]string{s})
		}
		switch v.IncompleteKind() {
		case cue.StringKind, cue.IntKind, cue.FloatKind, cue.NumberKind, cue.BoolKind:
			return true // a basic type: the kind check covers it
		}
		return false
	case cue.SelectorOp:
		d := cue.Dereference(v)
		if d == v {
			return false
		}
		return lc.add(d, depth+1)
	case cue.AndOp:
		for _, a := range args {
			if !lc.add(a, depth+1) {
				return false
			}
		}
		return true
	case cue.OrOp:
		var alts []string
		for _, a := range args {
			if op, _ := a.Expr(); op != cue.NoOp || !a.IsConcrete() {
				return false
			}
			s, err := a.String()
			if err != nil {
				return false
			}
			alts = append(alts, s)
		}
		return lc.addEnum(alts)
	case cue.RegexMatchOp, cue.NotRegexMatchOp:
		if len(args) != 1 {
			return false
		}
		s, err := args[0].String()
		if err != nil {
			return false
		}
		re := compiledLazily(s)
		if op == cue.RegexMatchOp {
			lc.regexps = append(lc.regexps, re)
		} else {
			lc.notRegexps = append(lc.notRegexps, re)
		}
		return true
	case cue.NotEqualOp:
		if len(args) != 1 {
			return false
		}
		if s, err := args[0].String(); err == nil {
			lc.notEqual = append(lc.notEqual, s)
			return true
		}
		return lc.addBound(op, args)
	case cue.GreaterThanEqualOp, cue.GreaterThanOp, cue.LessThanEqualOp, cue.LessThanOp:
		return lc.addBound(op, args)
	case cue.CallOp:
		// strings.MaxRunes(n), and nothing else.
		if len(args) != 2 || !isBuiltin(args[0], "strings", "MaxRunes") {
			return false
		}
		n, err := args[1].Int64()
		if err != nil || n < 0 {
			return false
		}
		if lc.maxRunes < 0 || int(n) < lc.maxRunes {
			lc.maxRunes = int(n)
		}
		return true
	}
	return false
}

func (lc *leafCheck) addEnum(alts []string) bool {
	if lc.enum == nil {
		lc.enum = alts
		return true
	}
	var both []string
	for _, a := range alts {
		for _, e := range lc.enum {
			if a == e {
				both = append(both, a)
				break
			}
		}
	}
	lc.enum = append([]string{}, both...) // never nil: an empty enum admits nothing
	return true
}

func (lc *leafCheck) addBound(op cue.Op, args []cue.Value) bool {
	if len(args) != 1 || args[0].IncompleteKind() != cue.IntKind {
		return false
	}
	n, err := args[0].Int64()
	if err != nil {
		return false
	}
	lc.bounds = append(lc.bounds, bound{op, n})
	return true
}

// isBuiltin reports whether v is the function pkg.name of CUE's standard
// library, imported under its own name.
func isBuiltin(v cue.Value, pkg, name string) bool {
	sel, ok := v.Source().(*ast.SelectorExpr)
	if !ok {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	if !ok || x.Name != pkg {
		return false
	}
	if spec, ok := x.Node.(*ast.ImportSpec); !ok || spec.Path == nil || spec.Path.Value != strconv.Quote(pkg) {
		return false
	}
	s, ok := sel.Sel.(*ast.Ident)
	return ok && s.Name == name
}

// schemaReads returns the names of the fields that other constraints of
// the schema depend on: every identifier used in an expression, and every
// field a comprehension declares (for a declared struct, the fields inside
// it). Values of fields with these names are always sent to CUE.
//
// #References is left out: it is evaluated in Go (references.go), never
// unified with the data.
func schemaReads(f *ast.File) map[string]bool {
	names := map[string]bool{}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.Field); ok {
			if name, _, err := ast.LabelName(fd.Label); err == nil && name == "#References" {
				continue
			}
		}
		uses(d, names)
	}
	return names
}

// uses records the identifiers used in n, and the fields declared by the
// comprehensions in it. Plain field labels are declarations, not uses.
func uses(n ast.Node, names map[string]bool) {
	ast.Walk(n, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.Field:
			switch x.Label.(type) {
			case *ast.Ident, *ast.BasicLit:
			default:
				uses(x.Label, names)
			}
			uses(x.Value, names)
			return false
		case *ast.Comprehension:
			for _, c := range x.Clauses {
				uses(c, names)
			}
			if st, ok := x.Value.(*ast.StructLit); ok {
				declaredNames(st, names)
			}
			uses(x.Value, names)
			return false
		case *ast.Ident:
			names[x.Name] = true
		}
		return true
	}, nil)
}

// declaredNames records the fields a comprehension body declares: for a
// struct value the fields inside it, otherwise the field itself.
func declaredNames(st *ast.StructLit, names map[string]bool) {
	for _, d := range st.Elts {
		fd, ok := d.(*ast.Field)
		if !ok {
			continue
		}
		if inner, ok := fd.Value.(*ast.StructLit); ok {
			declaredNames(inner, names)
			continue
		}
		if name, _, err := ast.LabelName(fd.Label); err == nil {
			names[name] = true
		}
	}
}

// listForm reads a list field written [...X] or [#X, ...#X] (the same
// definition throughout) and returns its minimum length. ok is false for any other
// form: such a list is always sent to CUE whole.
func listForm(v cue.Value) (minLen int, ok bool) {
	var lit *ast.ListLit
	switch x := v.Source().(type) {
	case *ast.Field:
		lit, _ = x.Value.(*ast.ListLit)
	case *ast.ListLit:
		lit = x
	}
	if lit == nil || len(lit.Elts) == 0 {
		return 0, false
	}
	ell, ok := lit.Elts[len(lit.Elts)-1].(*ast.Ellipsis)
	if !ok || ell.Type == nil {
		return 0, false
	}
	fixed := lit.Elts[:len(lit.Elts)-1]
	if len(fixed) > 0 {
		// [#X, ...#X]: the same definition throughout.
		want, ok := ell.Type.(*ast.Ident)
		if !ok {
			return 0, false
		}
		for _, e := range fixed {
			if id, ok := e.(*ast.Ident); !ok || id.Name != want.Name {
				return 0, false
			}
		}
	}
	return len(fixed), true
}

// mapPattern reads a free-form map whose definition is a single pattern
// constraint on its keys naming a definition for its values, as
// #SlurmConfig is: {[=~"..."]: #SlurmValue}. It returns the key pattern and
// the value constraint.
func mapPattern(v, root cue.Value) (key string, val cue.Value, ok bool) {
	var def ast.Node
	switch x := cue.Dereference(v).Source().(type) {
	case *ast.Field:
		def = x.Value
	default:
		def = x
	}
	st, ok := def.(*ast.StructLit)
	if !ok || len(st.Elts) != 1 {
		return "", cue.Value{}, false
	}
	f, ok := st.Elts[0].(*ast.Field)
	if !ok {
		return "", cue.Value{}, false
	}
	label, ok := f.Label.(*ast.ListLit)
	if !ok || len(label.Elts) != 1 {
		return "", cue.Value{}, false
	}
	match, ok := label.Elts[0].(*ast.UnaryExpr)
	if !ok || match.Op != token.MAT {
		return "", cue.Value{}, false
	}
	lit, ok := match.X.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", cue.Value{}, false
	}
	key, err := literal.Unquote(lit.Value)
	if err != nil {
		return "", cue.Value{}, false
	}
	id, ok := f.Value.(*ast.Ident)
	if !ok || !strings.HasPrefix(id.Name, "#") {
		return "", cue.Value{}, false
	}
	val = root.LookupPath(cue.ParsePath(id.Name))
	return key, val, val.Exists()
}
