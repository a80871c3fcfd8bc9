package schema

// Lean unification.
//
// Unifying a large spec with #Cluster costs CUE time per list element, not
// per constraint: on a 1000-pool spec, leaving every leaf value out of the
// input saved only a tenth of it. What does save is giving CUE fewer
// elements. So the walk over the data (Check) does two things before
// unification:
//
//   - Leaves (strings, numbers, booleans) whose constraint Go can evaluate
//     exactly — a kind, an enum of strings, regular expressions, integer
//     bounds, != and strings.MaxRunes — are checked in Go, and left out of
//     the CUE input when they are valid. A leaf that fails, or that Go is
//     not sure about, goes to CUE, which reports it in its own words.
//   - Elements of lists of the form [X, ...X] or [...X] are validated
//     independently of each other, so CUE needs to see each distinct
//     (leaned) element once: identical elements are sent once and CUE's
//     errors on them are reported at every element that was the same.
//
// Both are sound only for values that no other constraint reads: a field
// whose name the schema uses in an expression (provisioningModel,
// minNodeCount) or declares inside a comprehension (flexStartMaxDuration,
// machineSpec.reservationAffinity) is always sent, with everything below
// it. Those names are read from the schema's source, so a new cross-field
// rule in cluster.cue is honoured without any change here.
//
// TestLeanMatchesFull checks, on thousands of broken specs, that the
// diagnostics are exactly those of unifying the whole document.

import (
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/literal"
	"cuelang.org/go/cue/token"

	"github.com/slurmspec/slurmspec/compiler/load"
)

// leafCheck is a constraint on a scalar that Go evaluates exactly as CUE
// does. Its valid method answers true only when CUE would accept the value.
type leafCheck struct {
	kinds      cue.Kind // the kinds the constraint allows
	enum       []string // non-nil: the value is one of these strings
	regexps    []*lazyRegexp
	notRegexps []*lazyRegexp
	notEqual   []string
	maxRunes   int // -1 when unbounded
	// Integer bounds; a leaf with any of them takes only integers.
	bounds []bound
}

type bound struct {
	op cue.Op
	n  int64
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

// lazyRegexp is a regular expression of the schema, compiled when a value
// first needs it: most specs use a few of the schema's patterns.
type lazyRegexp struct {
	re func() (fullMatcher, error)
}

// regexps holds every lazyRegexp by pattern, for all Schemas of the process.
var regexps sync.Map // string -> *lazyRegexp

func compiledLazily(pattern string) *lazyRegexp {
	if re, ok := regexps.Load(pattern); ok {
		return re.(*lazyRegexp)
	}
	re, _ := regexps.LoadOrStore(pattern, &lazyRegexp{re: sync.OnceValues(func() (fullMatcher, error) {
		return compileMatcher(pattern)
	})})
	return re.(*lazyRegexp)
}

// match reports whether s matches; ok is false when the pattern does not
// compile in Go (CUE then decides).
func (l *lazyRegexp) match(s string) (matched, ok bool) {
	m, err := l.re()
	if err != nil {
		return false, false
	}
	return m.match(s), true
}

// fullMatcher matches as regexp.MatchString does. A pattern anchored at
// both ends, ^X$, as the schema's are, is compiled as X with leftmost-longest
// matching and matches when X matches all of s: the same strings, since a
// match of all of s is the leftmost and the longest. Go compiles anchored
// patterns into a one-pass matcher, which takes milliseconds for large
// character classes (6 ms for a label's \p{Ll}\p{Lo}\p{N}) where the
// unanchored form takes a tenth of one; start-up time counts.
type fullMatcher struct {
	re   *regexp.Regexp
	full bool // re is the unanchored X of ^X$
}

func compileMatcher(pattern string) (fullMatcher, error) {
	if x, ok := unanchored(pattern); ok {
		if re, err := regexp.Compile(x); err == nil {
			re.Longest()
			return fullMatcher{re: re, full: true}, nil
		}
	}
	re, err := regexp.Compile(pattern)
	return fullMatcher{re: re}, err
}

// unanchored returns X for a pattern written ^X$ whose ^ and $ anchor the
// whole of X (not one branch of an alternation: regexp.Compile parses it
// as the concatenation of ^, X and $).
func unanchored(pattern string) (string, bool) {
	if len(pattern) < 2 || pattern[0] != '^' || pattern[len(pattern)-1] != '$' {
		return "", false
	}
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil || re.Op != syntax.OpConcat || len(re.Sub) < 2 ||
		re.Sub[0].Op != syntax.OpBeginText || re.Sub[len(re.Sub)-1].Op != syntax.OpEndText {
		return "", false
	}
	return pattern[1 : len(pattern)-1], true
}

func (m fullMatcher) match(s string) bool {
	if !m.full {
		return m.re.MatchString(s)
	}
	loc := m.re.FindStringIndex(s)
	return loc != nil && loc[0] == 0 && loc[1] == len(s)
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

// valid reports whether CUE certainly accepts the data value n.
func (lc *leafCheck) valid(n *load.Node) bool {
	switch n.Kind {
	case load.String:
		if lc.kinds&cue.StringKind == 0 || len(lc.bounds) > 0 {
			return false
		}
		s := n.Text
		if lc.enum != nil && !contains(lc.enum, s) {
			return false
		}
		for _, x := range lc.notEqual {
			if s == x {
				return false
			}
		}
		if lc.maxRunes >= 0 && utf8.RuneCountInString(s) > lc.maxRunes {
			return false
		}
		for _, re := range lc.regexps {
			if m, ok := re.match(s); !ok || !m {
				return false
			}
		}
		for _, re := range lc.notRegexps {
			if m, ok := re.match(s); !ok || m {
				return false
			}
		}
		return true
	case load.Number:
		if lc.kinds&cue.IntKind == 0 || lc.enum != nil || len(lc.regexps)+len(lc.notRegexps)+len(lc.notEqual) > 0 || lc.maxRunes >= 0 {
			return false
		}
		i, ok := plainInt(n.Text)
		if !ok {
			return false // a float, hex, 1_000...: CUE decides
		}
		for _, b := range lc.bounds {
			var in bool
			switch b.op {
			case cue.GreaterThanEqualOp:
				in = i >= b.n
			case cue.GreaterThanOp:
				in = i > b.n
			case cue.LessThanEqualOp:
				in = i <= b.n
			case cue.LessThanOp:
				in = i < b.n
			case cue.NotEqualOp:
				in = i != b.n
			}
			if !in {
				return false
			}
		}
		return true
	case load.Bool:
		return lc.kinds&cue.BoolKind != 0 && lc.enum == nil && len(lc.bounds)+len(lc.regexps)+len(lc.notRegexps)+len(lc.notEqual) == 0 && lc.maxRunes < 0
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// plainInt parses a decimal integer literal without sign tricks, leading
// zeros or separators, which CUE reads as the same int64.
func plainInt(s string) (int64, bool) {
	digits := strings.TrimPrefix(s, "-")
	if digits == "" || len(digits) > 18 || (len(digits) > 1 && digits[0] == '0') {
		return 0, false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, false
		}
	}
	i, err := strconv.ParseInt(s, 10, 64)
	return i, err == nil
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

// exprKey writes a canonical form of a CUE expression built by walk, so
// that identical elements can be sent to CUE once. It reports false for a
// node type that walk does not build.
func exprKey(b *strings.Builder, e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.StructLit:
		b.WriteByte('{')
		for _, d := range x.Elts {
			f, ok := d.(*ast.Field)
			if !ok {
				return false
			}
			l, ok := f.Label.(*ast.BasicLit)
			if !ok {
				return false
			}
			b.WriteString(l.Value)
			b.WriteByte(':')
			if !exprKey(b, f.Value) {
				return false
			}
			b.WriteByte(',')
		}
		b.WriteByte('}')
	case *ast.ListLit:
		b.WriteByte('[')
		for _, it := range x.Elts {
			if !exprKey(b, it) {
				return false
			}
			b.WriteByte(',')
		}
		b.WriteByte(']')
	case *ast.BasicLit:
		b.WriteString(x.Kind.String())
		b.WriteByte(' ')
		b.WriteString(x.Value)
	case *ast.UnaryExpr:
		if x.Op != token.SUB {
			return false
		}
		b.WriteByte('-')
		return exprKey(b, x.X)
	default:
		return false
	}
	return true
}
