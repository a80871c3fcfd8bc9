package load

import (
	"math"
	"strconv"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/token"
)

// growth estimates, before evaluating, how many leaf values a CUE file
// expands to when every reference is replaced by what it names: string and
// list concatenation, interpolation, structs and lists built from
// references, list.Range, list.Repeat and strings.Repeat with literal
// arguments, and comprehensions over lists of known length. A file that
// doubles a string thirty times ("s1: s0 + s0") is a few hundred bytes and
// evaluates to 16 GiB; CUE cannot be interrupted, so an evaluation the
// watchdog abandons runs on until the process exits. This estimate stops
// such files before evaluation. References it cannot resolve count once,
// so it errs low; the watchdog and the value budget remain the backstop.
type growth struct {
	fields map[string][]ast.Expr // every field's value, by label
	memo   map[string]float64
	active map[string]bool // labels being estimated (cycles count once)
}

// maxGrowth is the estimate above which a CUE spec is refused: the value
// limit.
const maxGrowth = MaxValues

// cueGrowth returns the estimate for a file and the position of the field
// whose value first exceeds maxGrowth, if one does.
func cueGrowth(f *ast.File) (float64, token.Pos) {
	g := &growth{fields: map[string][]ast.Expr{}, memo: map[string]float64{}, active: map[string]bool{}}
	ast.Walk(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.Field:
			if name, _, err := ast.LabelName(x.Label); err == nil {
				g.fields[name] = append(g.fields[name], x.Value)
			}
		case *ast.LetClause:
			g.fields[x.Ident.Name] = append(g.fields[x.Ident.Name], x.Expr)
		}
		return true
	}, nil)
	total := 0.0
	for _, d := range f.Decls {
		v := g.decl(d)
		total += v
		if total > maxGrowth {
			return total, d.Pos()
		}
	}
	return total, token.NoPos
}

func (g *growth) decl(d ast.Decl) float64 {
	switch x := d.(type) {
	case *ast.Field:
		return g.expr(x.Value)
	case *ast.EmbedDecl:
		return g.expr(x.Expr)
	case *ast.Comprehension:
		return g.expr(x)
	case *ast.LetClause:
		return 0 // counted where it is used
	}
	return 0
}

// label estimates the growth of what a name refers to.
func (g *growth) label(name string) float64 {
	if v, ok := g.memo[name]; ok {
		return v
	}
	if g.active[name] {
		return 1
	}
	g.active[name] = true
	v := 1.0
	for _, e := range g.fields[name] {
		v = math.Max(v, g.expr(e))
	}
	delete(g.active, name)
	g.memo[name] = v
	return v
}

func (g *growth) expr(e ast.Expr) float64 {
	switch x := e.(type) {
	case nil:
		return 0
	case *ast.Ident:
		return g.label(x.Name)
	case *ast.SelectorExpr:
		if name, _, err := ast.LabelName(x.Sel); err == nil {
			return g.label(name)
		}
	case *ast.ParenExpr:
		return g.expr(x.X)
	case *ast.UnaryExpr:
		return g.expr(x.X)
	case *ast.BinaryExpr:
		a, b := g.expr(x.X), g.expr(x.Y)
		if x.Op == token.ADD {
			return a + b // concatenation copies both
		}
		return math.Max(a, b) // unification, disjunction, comparison, arithmetic
	case *ast.Interpolation:
		sum := 0.0
		for _, p := range x.Elts {
			sum += g.expr(p)
		}
		return math.Max(sum, 1)
	case *ast.ListLit:
		sum := 0.0
		for _, it := range x.Elts {
			sum += g.expr(it)
		}
		return math.Max(sum, 1)
	case *ast.StructLit:
		sum := 0.0
		for _, d := range x.Elts {
			sum += g.decl(d)
		}
		return math.Max(sum, 1)
	case *ast.Comprehension:
		n := g.expr(x.Value)
		for _, c := range x.Clauses {
			if fc, ok := c.(*ast.ForClause); ok {
				n *= g.length(fc.Source)
			}
		}
		return n
	case *ast.CallExpr:
		return g.call(x)
	case *ast.IndexExpr:
		return g.expr(x.X)
	case *ast.SliceExpr:
		return g.expr(x.X)
	}
	return 1
}

// call estimates list.Range, list.Repeat and strings.Repeat with literal
// arguments; other calls count their arguments.
func (g *growth) call(x *ast.CallExpr) float64 {
	sum := 1.0
	for _, a := range x.Args {
		sum += g.expr(a)
	}
	sel, ok := x.Fun.(*ast.SelectorExpr)
	if !ok {
		return sum
	}
	pkg, _ := sel.X.(*ast.Ident)
	fn, _, _ := ast.LabelName(sel.Sel)
	if pkg == nil {
		return sum
	}
	switch pkg.Name + "." + fn {
	case "list.Range":
		if len(x.Args) == 3 {
			a, b, s := intLit(x.Args[0]), intLit(x.Args[1]), intLit(x.Args[2])
			if !math.IsNaN(a+b+s) && s != 0 {
				return math.Max(math.Abs((b-a)/s), 1)
			}
		}
	case "list.Repeat", "strings.Repeat":
		if len(x.Args) == 2 {
			n := g.intConst(x.Args[1])
			if math.IsNaN(n) {
				// A count the estimate cannot work out is taken as
				// large: CUE builds the whole result in one allocation,
				// which no heap watchdog can stop (a 4 GB string is a
				// fatal error under a limit on the address space).
				n = unknownRepeat
			}
			return g.expr(x.Args[0]) * math.Max(n, 1)
		}
	}
	return sum
}

// unknownRepeat is the count assumed for a list.Repeat or strings.Repeat
// whose count is not a constant the estimate can fold: enough to refuse
// the call with anything but a tiny first argument.
const unknownRepeat = 1 << 20

// intConst folds an integer constant expression: literals, unary minus,
// + - * and /, parentheses, and labels whose one value is such an
// expression. Anything else is NaN.
func (g *growth) intConst(e ast.Expr) float64 {
	switch x := e.(type) {
	case *ast.BasicLit:
		return intLit(x)
	case *ast.ParenExpr:
		return g.intConst(x.X)
	case *ast.UnaryExpr:
		if x.Op == token.SUB {
			return -g.intConst(x.X)
		}
	case *ast.BinaryExpr:
		a, b := g.intConst(x.X), g.intConst(x.Y)
		switch x.Op {
		case token.ADD:
			return a + b
		case token.SUB:
			return a - b
		case token.MUL:
			return a * b
		case token.QUO:
			if b != 0 {
				return a / b
			}
		}
	case *ast.Ident:
		if fs := g.fields[x.Name]; len(fs) == 1 && !g.active[x.Name] {
			g.active[x.Name] = true
			v := g.intConst(fs[0])
			delete(g.active, x.Name)
			return v
		}
	}
	return math.NaN()
}

// length estimates how many elements a comprehension iterates over.
func (g *growth) length(e ast.Expr) float64 {
	switch x := e.(type) {
	case *ast.ListLit:
		return math.Max(float64(len(x.Elts)), 1)
	case *ast.CallExpr, *ast.ParenExpr:
		return g.expr(x)
	case *ast.Ident:
		v := 1.0
		if g.active[x.Name] {
			return 1
		}
		g.active[x.Name] = true
		for _, f := range g.fields[x.Name] {
			v = math.Max(v, g.length(f))
		}
		delete(g.active, x.Name)
		return v
	}
	return 1
}

// intLit returns the value of an integer literal (possibly negated), or
// NaN.
func intLit(e ast.Expr) float64 {
	neg := 1.0
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.SUB {
		neg, e = -1, u.X
	}
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.INT {
		return math.NaN()
	}
	v, err := strconv.ParseFloat(lit.Value, 64)
	if err != nil {
		return math.NaN()
	}
	return neg * v
}
