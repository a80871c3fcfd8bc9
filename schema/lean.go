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
// it. Those names are read from the schema's source when shape_gen.go is
// generated (shapebuild_test.go), so a new cross-field rule in cluster.cue
// is honoured by `make generate`, and TestShapeIsCurrent fails until then.
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
