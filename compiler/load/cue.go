package load

import (
	"fmt"
	"runtime/metrics"
	"strings"
	"time"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/errors"
	"cuelang.org/go/cue/format"
	"cuelang.org/go/cue/parser"
	"cuelang.org/go/cue/token"

	"github.com/slurmspec/slurmspec/compiler/cuectx"
	"github.com/slurmspec/slurmspec/compiler/diag"
)

// Bounds of CUE evaluation. CUE cannot be interrupted, so evaluation runs
// on its own goroutine under a watchdog: past either bound the spec is
// refused and the evaluation abandoned (a command exits once it has
// reported, which ends it). An abandoned evaluation runs on until then, so
// the process evaluates no further CUE (CUEGate).
const (
	// CUETimeout bounds the time one CUE spec may take to evaluate: the
	// 2000-pool benchmark spec, as CUE, evaluates in half a second.
	CUETimeout = 5 * time.Second
	// CUEMaxHeap bounds how much the live heap may grow while a CUE spec
	// evaluates: the 2000-pool spec needs less than 64 MiB, one of 8500
	// pools (near MaxValues) less than 256 MiB. The heap is the
	// process's, so other files linted at the same time count too (CUE
	// files themselves are evaluated one at a time): the bound is a
	// backstop for what the estimate before evaluation (cueGrowth) cannot
	// see. An abandoned evaluation grows on until the process exits, and
	// the Go runtime keeps the address space it has mapped, so this bound
	// decides the address space a run needs (ulimit -v; docs/security.md
	// gives the measured figures).
	CUEMaxHeap = 512 << 20
	// maxCUEExprDepth bounds the nesting of the CUE syntax tree (data,
	// expressions and parentheses together).
	maxCUEExprDepth = 4 * MaxDepth
)

// parseCUE evaluates a CUE file and reads back its concrete value. The spec
// may use every feature of CUE (references, comprehensions, defaults), but
// the result must be concrete data, within the limits on what it expands
// to. It is evaluated under the gate's budget, or refused unevaluated
// when the gate has abandoned an evaluation already.
func parseCUE(li *lineIndex, data []byte, b *budget, gate *CUEGate) (root *Node, l diag.List) {
	name := li.file
	f, err := parser.ParseFile(name, data, parser.ParseComments)
	if err != nil {
		return nil, cueErrors(li, nil, err, RuleSyntax, "CUE syntax error: ", "fix the CUE syntax at this position")
	}
	if pos, deep := cueTooDeep(f); deep {
		l.Errorf(RuleLimit, li.cuePos(pos), "", "flatten the expression; a cluster spec is a few levels deep",
			"CUE nesting deeper than %d levels", maxCUEExprDepth)
		return nil, l
	}
	if est, at := cueGrowth(f); at.IsValid() {
		l.Errorf(RuleLimit, li.cuePos(at), "", "a cluster spec holds far fewer values; remove the references, concatenations or comprehensions that multiply them",
			"the CUE expands to about %.3g values or copies of text, more than %d (estimated before evaluating)", est, MaxValues)
		return nil, l
	}
	release, refused := gate.acquire()
	if refused != "" {
		l.Errorf(RuleLimit, li.lineCol(1, 1), "", "fix that file first (a cluster spec evaluates in well under a second and a few MiB), then lint this one again",
			"CUE not evaluated: %s and was abandoned; it runs on until slurmspec exits, so no further CUE is evaluated in this run", refused)
		return nil, l
	}
	defer release()
	type result struct {
		root *Node
		l    diag.List
	}
	done := make(chan result, 1)
	go func() {
		var r result
		defer func() {
			if p := recover(); p != nil {
				r = result{}
				r.l.Errorf(RuleSyntax, li.lineCol(1, 1), "", "simplify the CUE; this is a bug in the CUE evaluator",
					"internal error: CUE evaluation panicked: %v", p)
			}
			done <- r
		}()
		r.root, r.l = evalCUE(li, f, b)
	}()
	r, stopped := watch(done, gate.timeout, gate.maxHeap)
	if stopped != "" {
		gate.abandon(li.file, stopped)
		l.Errorf(RuleLimit, li.lineCol(1, 1), "", "simplify the CUE: a cluster spec evaluates in well under a second and a few MiB",
			"CUE evaluation %s; abandoned", stopped)
		return nil, l
	}
	return r.root, r.l
}

// watch waits for done, for at most timeout and while the live heap grows
// by less than maxHeap. It returns the result, or why it stopped waiting.
func watch[T any](done <-chan T, timeout time.Duration, maxHeap uint64) (T, string) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	heap := func() uint64 {
		metrics.Read(sample)
		if sample[0].Value.Kind() == metrics.KindUint64 {
			return sample[0].Value.Uint64()
		}
		return 0
	}
	base := heap()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case r := <-done:
			return r, ""
		case <-deadline.C:
			var zero T
			return zero, fmt.Sprintf("took longer than %s", timeout)
		case <-tick.C:
			if h := heap(); h > base+maxHeap {
				var zero T
				return zero, fmt.Sprintf("used more than %d MiB", maxHeap>>20)
			}
		}
	}
}

func evalCUE(li *lineIndex, f *ast.File, b *budget) (*Node, diag.List) {
	v := cuectx.New().BuildFile(f)
	if err := v.Err(); err != nil {
		return nil, cueErrors(li, f, err, RuleSyntax, "CUE evaluation error: ", "fix the CUE at this position")
	}
	if err := v.Validate(cue.Concrete(true), cue.Final()); err != nil {
		return nil, cueErrors(li, f, err, RuleSyntax, "CUE spec is not concrete data: ", "give every field a concrete value")
	}
	n := cueNode(li, v, b, 0, li.lineCol(1, 1))
	if b.exceeded() {
		return nil, diag.List{b.diag}
	}
	return n, nil
}

// cueTooDeep reports whether the syntax tree nests deeper than
// maxCUEExprDepth, and where. Label chains (a: b: c: 1), parentheses and
// operator chains count, not only braces.
func cueTooDeep(f *ast.File) (token.Pos, bool) {
	depth := 0
	var at token.Pos
	deep := false
	ast.Walk(f, func(n ast.Node) bool {
		if deep {
			return false
		}
		depth++
		if depth > maxCUEExprDepth {
			deep, at = true, n.Pos()
			return false
		}
		return true
	}, func(ast.Node) { depth-- })
	return at, deep
}

// cueErrors converts CUE's errors. An error without a position (a
// structural cycle, an incomplete value) is placed at the field its path
// names in f, or at the start of the file: every diagnostic has a line
// and column.
func cueErrors(li *lineIndex, f *ast.File, err error, rule, prefix, hint string) diag.List {
	var l diag.List
	for _, e := range errors.Errors(err) {
		pos := li.lineCol(1, 1)
		if ps := errors.Positions(e); len(ps) > 0 && ps[0].IsValid() {
			pos = li.cuePos(ps[0])
		} else if p := fieldPos(f, e.Path()); p.IsValid() {
			pos = li.cuePos(p)
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

// fieldPos returns the position of the deepest field of f that path
// names, or an invalid position.
func fieldPos(f *ast.File, path []string) token.Pos {
	if f == nil {
		return token.NoPos
	}
	var found token.Pos
	decls := f.Decls
	for _, name := range path {
		var next *ast.Field
		for _, d := range decls {
			if fd, ok := d.(*ast.Field); ok {
				if n, _, err := ast.LabelName(fd.Label); err == nil && n == name {
					next = fd
				}
			}
		}
		if next == nil {
			break
		}
		found = next.Pos()
		st, ok := next.Value.(*ast.StructLit)
		if !ok {
			break
		}
		decls = st.Elts
	}
	return found
}

// cueNode converts an evaluated value. A value without a position of its
// own (computed by a builtin or a comprehension) takes its parent's.
func cueNode(li *lineIndex, v cue.Value, b *budget, depth int, parent diag.Pos) *Node {
	// A field written with a default (`*1 | int`) holds the default, as
	// `cue export` gives it: without this the disjunction has no concrete
	// kind and would read as null.
	if d, ok := v.Default(); ok {
		v = d
	}
	n := &Node{Pos: li.cuePos(v.Pos())}
	if !n.Pos.IsValid() {
		n.Pos = parent.Start()
	} else if src := v.Source(); src != nil && src.Pos() == v.Pos() {
		// The range of the field (label and value) or element that
		// gave the value.
		n.Pos = n.Pos.Through(li.cuePos(src.End()))
	}
	if !b.value(n.Pos, depth, 0) {
		return n
	}
	switch v.Kind() {
	case cue.StructKind:
		n.Kind = Object
		it, _ := v.Fields()
		for it.Next() && !b.exceeded() {
			key := it.Selector().Unquoted()
			b.text(len(key))
			child := cueNode(li, it.Value(), b, depth+1, n.Pos)
			n.Fields = append(n.Fields, &Field{Name: key, Written: key, KeyPos: child.Pos, Value: child})
		}
	case cue.ListKind:
		n.Kind = Array
		it, _ := v.List()
		for it.Next() && !b.exceeded() {
			n.Items = append(n.Items, cueNode(li, it.Value(), b, depth+1, n.Pos))
		}
	case cue.StringKind:
		n.Kind = String
		n.Text, _ = v.String()
		b.text(len(n.Text))
	case cue.BoolKind:
		n.Kind = Bool
		n.True, _ = v.Bool()
	case cue.IntKind, cue.FloatKind, cue.NumberKind:
		n.Kind = Number
		s, _ := format.Node(v.Syntax())
		n.Text = string(s)
	default:
		n.Kind = Null
	}
	return n
}

// cuePos converts a CUE position (whose column counts bytes) to a
// position in characters.
func (li *lineIndex) cuePos(p token.Pos) diag.Pos {
	if !p.IsValid() {
		return diag.Pos{}
	}
	if p.Filename() != li.file {
		return diag.Pos{File: p.Filename(), Line: p.Line(), Col: p.Column()}
	}
	return li.byteLineCol(p.Line(), p.Column())
}
