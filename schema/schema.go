// Package schema holds the CUE schema of a cluster spec, embedded in the
// binary, and checks loaded documents against it. The schema is the single
// statement of the spec's shape: field names, types, enums, id patterns and
// the Filestore name format. The cross references between partitions, node
// pools and the default partition are checked in Go (references.go).
//
// Check reports every problem in one run. CUE evaluates errors in rounds (an
// error inside a list hides the checks that range over it, and missing
// required fields are reported only once nothing else is wrong), so Check
// splits the work: unknown fields and missing required fields are found by
// walking the data beside the schema's shape, constraints by CUE
// unification, and references on the ids alone.
package schema

import (
	_ "embed"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/errors"
	"cuelang.org/go/cue/literal"
	"cuelang.org/go/cue/token"

	"github.com/slurmspec/slurmspec/compiler/cuectx"
	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/load"
)

//go:embed cluster.cue
var source []byte

// Source returns the CUE source of the schema.
func Source() []byte { return append([]byte(nil), source...) }

// Rule ids of the schema's own diagnostics. Messages written with error() in
// the CUE source carry further ids ("schema-reference", "schema-id", ...).
const (
	RuleUnknownField = "schema-unknown-field"
	RuleRequired     = "schema-required"
	RuleType         = "schema-type"
	RuleEnum         = "schema-enum"
	RuleRange        = "schema-range"
	RulePattern      = "schema-pattern"
	RuleConstraint   = "schema-constraint"
	RuleInternal     = "internal-error"
)

// Schema is the embedded schema, ready to check documents. It is safe for
// concurrent use by Check.
type Schema struct {
	// root is the shape of #Cluster, generated from the CUE (shape_gen.go).
	root *shape
	// patternMsgs maps a regular expression of the schema to the message
	// its @msg attribute gives (generated too).
	patternMsgs map[string]message
	// cluster is #Cluster, compiled on first use: a spec whose values Go
	// finds valid and whose lean document was unified before needs no CUE.
	cluster func() (cue.Value, error)
	results resultCache // by lean document
}

// message is a friendly message from an @msg(rule, "text") attribute.
type message struct {
	rule, text string
}

// New returns the embedded schema. Its shape, the part the data walk
// needs, is Go code generated from cluster.cue; the CUE itself starts
// compiling in the background, so that it is ready (on two cores) by the
// time a spec has been read and walked and needs unification. The error is
// for schemas that cannot be used; the embedded one always can (tested).
func New() (*Schema, error) {
	s := &Schema{
		root:        generatedShape(),
		patternMsgs: generatedPatternMsgs(),
		cluster:     sync.OnceValues(func() (cue.Value, error) { return compileCluster(source) }),
	}
	go s.cluster() // the Once keeps the result for unify
	return s, nil
}

// compileCluster compiles a schema source and returns its #Cluster. It
// runs in New's goroutine, where a panic would end the process: one in the
// CUE evaluator is returned as an error instead.
func compileCluster(src []byte) (cluster cue.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("CUE panicked compiling the embedded schema: %v", r)
		}
	}()
	v := cuectx.New().CompileBytes(src, cue.Filename("schema/cluster.cue"))
	if err := v.Err(); err != nil {
		return cue.Value{}, fmt.Errorf("compiling the embedded schema: %w", err)
	}
	cluster = v.LookupPath(cue.ParsePath("#Cluster"))
	if !cluster.Exists() {
		return cue.Value{}, fmt.Errorf("the embedded schema lacks #Cluster")
	}
	return cluster, nil
}

// shape is the part of the schema that the data walk needs: which fields
// an object may have, which objects are free-form maps and what lists
// hold, and what Go can check itself (lean.go). It is read from the CUE by
// the shape builder (shapebuild_test.go) into shape_gen.go.
type shape struct {
	msg    *message // the field's @msg
	any    bool     // anything goes below (output-only fields)
	fields map[string]*shape
	names  []string // sorted field names, for did-you-mean
	// required lists the fields that must be present, in schema order.
	required []string
	pattern  *shape // set for free-form maps (marked @slurmspec(map) in the CUE): their values
	elem     *shape // element of a list

	// leaf is the constraint of a scalar field when Go can evaluate it,
	// nil otherwise.
	leaf *leafCheck
	// read marks a field that other constraints read: it and everything
	// below it always go to CUE.
	read bool
	// minLen is the minimum length of a list of the form [#X, ...#X] or
	// [...X] (listForm); it is -1 for other lists.
	minLen int
	// elementwise marks a list of that form whose elements are structs:
	// CUE validates each distinct element once.
	elementwise bool
	// keyRe is the pattern every key of a free-form map must match, when
	// the map's definition is that one pattern.
	keyRe *lazyRegexp
}

// check returns the shape's leaf constraint, or nil.
func (s *shape) check() *leafCheck {
	if s == nil {
		return nil
	}
	return s.leaf
}

func (s *shape) lookup(p load.Path) *shape {
	cur := s
	for _, e := range p {
		switch {
		case cur == nil || cur.any:
			return cur
		case e.IsIndex:
			cur = cur.elem
		case cur.fields[e.Name] != nil:
			cur = cur.fields[e.Name]
		default:
			cur = cur.pattern
		}
	}
	return cur
}

// Verbatim reports whether the object at path is a free-form map whose keys
// are data (slurm.conf keys, labels), to be kept exactly as written. It is
// the loader's Options.Verbatim.
func (s *Schema) Verbatim(p load.Path) bool {
	sh := s.root.lookup(p)
	return sh != nil && sh.fields == nil && sh.pattern != nil
}

// Check validates a loaded document and returns every problem found.
func (s *Schema) Check(doc *load.Document) (l diag.List) {
	return s.check(doc, true)
}

// check is Check; lean=false sends the whole document to CUE (the
// reference the tests compare the lean unification with).
func (s *Schema) check(doc *load.Document, lean bool) (l diag.List) {
	defer func() {
		if r := recover(); r != nil {
			l.Errorf(RuleInternal, diag.Pos{File: doc.File}, "", "please report this with the spec that caused it",
				"internal error: CUE evaluation panicked: %v", r)
		}
	}()
	c := checker{doc: doc, schema: s}
	if doc.Root.Kind != load.Object {
		c.diags.Add(diag.Diagnostic{Rule: RuleType, Severity: diag.Error, Pos: doc.Root.Pos,
			Message: fmt.Sprintf("the spec is %s, but a cluster spec is an object", article(doc.Root.Kind.String())),
			Hint:    "write the ModelDevelopmentCluster body: an object with nodePools and orchestratorSpec"})
		return c.diags
	}
	expr := c.walk(doc.Root, s.root, make(load.Path, 0, 16), lean)
	var key strings.Builder
	var err error
	if !lean || !exprKey(&key, expr) {
		var errs []cueError
		errs, err = s.unify(expr)
		c.cueErrors(errs)
	} else {
		var errs []cueError
		errs, err = s.results.get(key.String(), func() ([]cueError, error) { return s.unify(expr) })
		c.cueErrors(errs)
	}
	if err != nil {
		c.diags.Errorf(RuleInternal, diag.Pos{File: doc.File}, "", "please report this", "internal error: %v", err)
	}
	c.report(references(doc.Root))
	return c.diags
}

// unify validates a document given as a CUE expression.
func (s *Schema) unify(expr ast.Expr) ([]cueError, error) {
	cluster, err := s.cluster()
	if err != nil {
		return nil, err
	}
	// A one-off context per check: values from different contexts combine.
	ctx := cuectx.New()
	return cueErrorList(cluster.Unify(ctx.BuildExpr(expr)).Validate(cue.Concrete(true))), nil
}

// resultCache remembers the CUE errors of lean documents. Specs written
// from one template (per environment, per team) differ in names, ids and
// other values that Go checks and leaves out, so they often send CUE the
// same lean document: a directory of them is unified once.
type resultCache struct {
	mu sync.Mutex
	m  map[string][]cueError
}

// maxCachedResults bounds the cache; it is emptied when full.
const maxCachedResults = 256

func (r *resultCache) get(key string, compute func() ([]cueError, error)) ([]cueError, error) {
	r.mu.Lock()
	errs, ok := r.m[key]
	r.mu.Unlock()
	if ok {
		return errs, nil
	}
	errs, err := compute()
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	if r.m == nil || len(r.m) >= maxCachedResults {
		r.m = map[string][]cueError{}
	}
	r.m[key] = errs
	r.mu.Unlock()
	return errs, nil
}

type checker struct {
	doc    *load.Document
	schema *Schema
	diags  diag.List
	// same maps an elementwise list sent to CUE with its identical
	// elements once to the indices each element sent stands for.
	same map[*load.Node][][]int
	// valid remembers the Go checks of strings: specs repeat their zones,
	// machine types and ids.
	valid map[validKey]bool
}

type validKey struct {
	lc *leafCheck
	s  string
}

// validLeaf is lc.valid(n), remembered for strings.
func (c *checker) validLeaf(lc *leafCheck, n *load.Node) bool {
	if n.Kind != load.String {
		return lc.valid(n)
	}
	k := validKey{lc, n.Text}
	if ok, seen := c.valid[k]; seen {
		return ok
	}
	ok := lc.valid(n)
	if c.valid == nil {
		c.valid = map[validKey]bool{}
	}
	c.valid[k] = ok
	return ok
}

// walk reports unknown fields and missing required fields, and converts
// the rest of the data to a CUE expression for unification. Required fields
// are read from the schema once (shape.required), so this costs no CUE
// evaluation; the one conditional requirement (reservationAffinity for
// RESERVATION pools) is the lint rule reservation-affinity-missing.
//
// With lean set, values that Go finds valid are left out (walk returns
// nil) and elementwise lists are sent with each distinct element once; see
// lean.go.
//
// Children's paths are appended to path in place: diagnostics turn a path
// into a string at once and nothing keeps it.
func (c *checker) walk(n *load.Node, sh *shape, path load.Path, lean bool) ast.Expr {
	if sh != nil && sh.read {
		lean = false
	}
	switch n.Kind {
	case load.Object:
		if sh != nil && !sh.any {
			for _, name := range sh.required {
				if n.Get(name) == nil {
					c.diags.Add(diag.Diagnostic{Rule: RuleRequired, Severity: diag.Error, Pos: n.Pos, Path: path.Key(name).String(),
						Message: fmt.Sprintf("required field %q is missing", name), Hint: fmt.Sprintf("add %q to %s", name, describe(path))})
				}
			}
		}
		st := &ast.StructLit{}
		for _, f := range n.Fields {
			var child *shape
			switch {
			case sh == nil || sh.any:
				child = sh
			case sh.fields[f.Name] != nil:
				child = sh.fields[f.Name]
			case sh.pattern != nil:
				if sh.fields == nil && !c.allows(sh, path, f.Name) {
					c.badKey(f, path)
					continue
				}
				child = sh.pattern
			case sh.fields != nil:
				c.unknown(f, sh, path)
				continue
			}
			if e := c.walk(f.Value, child, append(path, load.PathElem{Name: f.Name}), lean); e != nil {
				st.Elts = append(st.Elts, &ast.Field{Label: ast.NewString(f.Name), Value: e})
			}
		}
		return st
	case load.Array:
		l := &ast.ListLit{}
		var elem *shape
		if sh != nil {
			elem = sh.elem
			if sh.any {
				elem = sh
			}
		}
		switch {
		case !lean || sh == nil || sh.any || elem == nil || sh.minLen < 0:
		case elem.check() != nil && !elem.read && len(n.Items) >= sh.minLen && c.allValid(n.Items, elem.check()):
			return nil
		case sh.elementwise && !elem.read:
			return c.elementwise(n, elem, path)
		}
		for i, it := range n.Items {
			l.Elts = append(l.Elts, c.walk(it, elem, append(path, load.PathElem{Index: i, IsIndex: true}), false))
		}
		return l
	}
	if lc := sh.check(); lean && lc != nil && c.validLeaf(lc, n) {
		return nil
	}
	switch n.Kind {
	case load.String:
		return ast.NewString(n.Text)
	case load.Number:
		return numberLit(n.Text)
	case load.Bool:
		return ast.NewBool(n.True)
	}
	return ast.NewNull()
}

// allows reports whether the free-form map at path may have the key: by
// its pattern in Go when it matches (CUE compiles the patterns of label
// keys anew after every garbage collection), by CUE otherwise.
func (c *checker) allows(sh *shape, path load.Path, key string) bool {
	if sh.keyRe != nil {
		if m, ok := sh.keyRe.match(key); ok && m {
			return true
		}
	}
	cluster, err := c.schema.cluster()
	if err != nil {
		return false // unify reports the error
	}
	return cluster.LookupPath(cuePath(path)).Allows(cue.Str(key))
}

// cuePath is the path in #Cluster of a data path: list indices become any
// element, as every element of a list of the schema has one constraint.
func cuePath(p load.Path) cue.Path {
	sels := make([]cue.Selector, len(p))
	for i, e := range p {
		if e.IsIndex {
			sels[i] = cue.AnyIndex
		} else {
			sels[i] = cue.Str(e.Name).Optional()
		}
	}
	return cue.MakePath(sels...)
}

func (c *checker) allValid(items []*load.Node, lc *leafCheck) bool {
	for _, it := range items {
		if !c.validLeaf(lc, it) {
			return false
		}
	}
	return true
}

// elementwise converts a list whose elements CUE validates independently,
// sending each distinct (leaned) element once.
func (c *checker) elementwise(n *load.Node, elem *shape, path load.Path) ast.Expr {
	l := &ast.ListLit{}
	var groups [][]int
	seen := map[string]int{}
	var key strings.Builder
	for i, it := range n.Items {
		e := c.walk(it, elem, append(path, load.PathElem{Index: i, IsIndex: true}), true)
		key.Reset()
		if exprKey(&key, e) {
			if g, ok := seen[key.String()]; ok {
				groups[g] = append(groups[g], i)
				continue
			}
			seen[key.String()] = len(groups)
		}
		groups = append(groups, []int{i})
		l.Elts = append(l.Elts, e)
	}
	if len(groups) < len(n.Items) {
		if c.same == nil {
			c.same = map[*load.Node][][]int{}
		}
		c.same[n] = groups
	}
	return l
}

func numberLit(text string) ast.Expr {
	neg := strings.HasPrefix(text, "-")
	text = strings.TrimLeft(text, "+-")
	kind := token.INT
	if !strings.HasPrefix(text, "0x") && strings.ContainsAny(text, ".eE") {
		kind = token.FLOAT
	}
	var e ast.Expr = &ast.BasicLit{Kind: kind, Value: text}
	if neg {
		e = &ast.UnaryExpr{Op: token.SUB, X: e}
	}
	return e
}

func (c *checker) unknown(f *load.Field, sh *shape, path load.Path) {
	p := path.Key(f.Name)
	hint := diag.DidYouMean(f.Written, sh.names, "")
	if hint == "" {
		where := "at the top level"
		if len(path) > 0 {
			where = "in " + path.String()
		}
		hint = "known fields " + where + ": " + strings.Join(sh.names, ", ")
	}
	c.diags.Add(diag.Diagnostic{Rule: RuleUnknownField, Severity: diag.Error, Pos: f.KeyPos, Path: p.String(),
		Message: fmt.Sprintf("unknown field %q", f.Written), Hint: hint})
}

// badKey reports a key of a free-form map (slurm.conf config, labels) that
// the map's key pattern refuses.
func (c *checker) badKey(f *load.Field, path load.Path) {
	hint := "check the key's spelling"
	if n := len(path); n > 0 {
		switch path[n-1].Name {
		case "config":
			hint = "slurm.conf keys are 1-64 ASCII letters and digits, starting with a letter"
		case "labels":
			hint = "label keys are at most 63 lowercase letters, digits, _ and -, starting with a letter"
		}
	}
	c.diags.Add(diag.Diagnostic{Rule: "schema-key", Severity: diag.Error, Pos: f.KeyPos, Path: path.Key(f.Name).String(),
		Message: fmt.Sprintf("key %q is not allowed in %s", f.Written, path), Hint: hint})
}

func describe(p load.Path) string {
	if len(p) == 0 {
		return "the top level of the spec"
	}
	return p.String()
}

// cueError is one error of a CUE validation: its path and message.
type cueError struct {
	path []string
	msg  string
}

// cueErrorList flattens CUE's errors, leaving out those that walk
// reports (missing required fields) or that follow from another error.
func cueErrorList(err error) []cueError {
	var out []cueError
	for _, e := range errors.Errors(err) {
		format, args := e.Msg()
		msg := fmt.Sprintf(format, args...)
		if strings.Contains(msg, "field is required but not present") || strings.HasPrefix(msg, "incomplete value") {
			continue // reported by required(), or a consequence of another error
		}
		out = append(out, cueError{e.Path(), msg})
	}
	return out
}

// cueErrors turns CUE's errors into diagnostics positioned in the data.
func (c *checker) cueErrors(errs []cueError) {
	var raw []rawError
	for _, e := range errs {
		for _, t := range c.resolve(e.path) {
			raw = append(raw, rawError{t.path, t.node, e.msg})
		}
	}
	c.report(raw)
}

// rawError is one error in CUE's terms (a message as CUE words it, or as
// an error() in the schema would), placed on the data node it is about.
type rawError struct {
	path load.Path
	node *load.Node
	msg  string
}

// report turns raw errors into diagnostics: one per data path, worded by
// the schema's @msg attributes and the rule ids the messages carry.
func (c *checker) report(raw []rawError) {
	if len(raw) == 0 {
		return
	}
	type group struct {
		path     load.Path
		node     *load.Node
		msgs     []string
		conflict []string // alternatives of a failed disjunction
	}
	var order []string
	groups := map[string]*group{}
	for _, r := range raw {
		path, node, msg := r.path, r.node, r.msg
		key := path.String()
		g := groups[key]
		if g == nil {
			g = &group{path: path, node: node}
			groups[key] = g
			order = append(order, key)
		}
		if strings.HasSuffix(msg, "errors in empty disjunction:") {
			continue
		}
		if alt, ok := conflictAlternative(msg, node); ok {
			g.conflict = append(g.conflict, alt)
			continue
		}
		g.msgs = append(g.msgs, msg)
	}
	for _, key := range order {
		g := groups[key]
		d := diag.Diagnostic{Severity: diag.Error, Pos: g.node.Pos, Path: key}
		switch {
		case len(g.msgs) > 0:
			d.Rule, d.Message, d.Hint = c.classify(g.msgs[0], g.node, g.path)
		case len(g.conflict) > 0:
			sort.Strings(g.conflict)
			d.Rule = RuleEnum
			d.Message = fmt.Sprintf("%s is not one of %s", show(g.node), strings.Join(g.conflict, ", "))
			var plain []string
			for _, a := range g.conflict {
				if u, err := strconv.Unquote(a); err == nil {
					plain = append(plain, u)
				}
			}
			d.Hint = diag.DidYouMean(g.node.Text, plain, "use one of the listed values")
		default:
			continue
		}
		if d.Rule == "schema-reference" && g.node.Kind == load.String {
			isPart := strings.HasSuffix(key, "defaultPartitionId")
			ids := declaredIDs(c.doc.Root, isPart)
			fallback := "declared: " + strings.Join(ids, ", ")
			switch {
			case len(ids) == 0 && isPart:
				fallback = "no partitions are declared: add one to partitions"
			case len(ids) == 0:
				fallback = "no node pools are declared: add one to nodePools"
			}
			d.Hint = diag.DidYouMean(g.node.Text, ids, fallback)
		}
		c.diags.Add(d)
	}
}

// target is a data node an error is about, and its path.
type target struct {
	path load.Path
	node *load.Node
}

// resolve maps a CUE error path to the deepest data node on it: to several
// nodes when the path goes through an element that stood for identical
// elements (checker.same). A label after _checks names a data path (the
// form of error() checks keyed by the path they are about).
func (c *checker) resolve(cuePath []string) []target {
	if len(cuePath) > 0 && strings.HasPrefix(cuePath[0], "#") {
		cuePath = cuePath[1:]
	}
	var out []target
	var walk func(cur *load.Node, p load.Path, rest []string)
	walk = func(cur *load.Node, p load.Path, rest []string) {
		if len(rest) >= 2 && rest[0] == "_checks" {
			// An error() check keyed by the data path it is about.
			key := rest[1]
			if u, err := strconv.Unquote(key); err == nil {
				key = u
			}
			if dp, err := load.ParsePath(key); err == nil {
				n, matched := c.doc.Root.Lookup(dp)
				out = append(out, target{dp[:matched], n})
				return
			}
		}
		if len(rest) == 0 || strings.HasPrefix(rest[0], "_") {
			out = append(out, target{p, cur})
			return
		}
		label := rest[0]
		if u, err := strconv.Unquote(label); err == nil {
			label = u
		}
		switch cur.Kind {
		case load.Array:
			idx, err := strconv.Atoi(label)
			if groups, ok := c.same[cur]; ok && err == nil && idx >= 0 && idx < len(groups) {
				for _, i := range groups[idx] {
					walk(cur.Items[i], p.Index(i), rest[1:])
				}
				return
			}
			if err == nil && idx >= 0 && idx < len(cur.Items) {
				walk(cur.Items[idx], p.Index(idx), rest[1:])
				return
			}
		case load.Object:
			if next := cur.Get(label); next != nil {
				walk(next, p.Key(label), rest[1:])
				return
			}
		}
		out = append(out, target{p, cur})
	}
	walk(c.doc.Root, nil, cuePath)
	return out
}

// messageFor finds the @msg that explains a CUE error: the failed field's
// own, or the one of the regular expression that did not match.
func (s *Schema) messageFor(msg string, path load.Path) (message, bool) {
	if sh := s.root.lookup(path); sh != nil && sh.msg != nil {
		return *sh.msg, true
	}
	const marker = "(out of bound =~"
	i := strings.LastIndex(msg, marker)
	if i < 0 || !strings.HasSuffix(msg, ")") {
		return message{}, false
	}
	re, err := literal.Unquote(msg[i+len(marker) : len(msg)-1])
	if err != nil {
		return message{}, false
	}
	m, ok := s.patternMsgs[re]
	return m, ok
}

// conflictAlternative recognises one branch of a failed enum disjunction:
// `conflicting values "SPOT" and "BOGUS"`.
func conflictAlternative(msg string, n *load.Node) (string, bool) {
	const prefix = "conflicting values "
	if !strings.HasPrefix(msg, prefix) || n.Kind != load.String {
		return "", false
	}
	rest := msg[len(prefix):]
	got := " and " + strconv.Quote(n.Text)
	if !strings.HasSuffix(rest, got) {
		return "", false
	}
	alt := strings.TrimSuffix(rest, got)
	if _, err := strconv.Unquote(alt); err != nil {
		return "", false
	}
	return alt, true
}

// classify picks the rule id and wording for one CUE message: the @msg of
// the failed field or pattern when there is one.
func (c *checker) classify(msg string, n *load.Node, path load.Path) (rule, text, hint string) {
	if m, ok := c.schema.messageFor(msg, path); ok {
		msg = m.rule + ": " + m.text
	}
	if id, rest, ok := strings.Cut(msg, ": "); ok && strings.HasPrefix(id, "schema-") && !strings.Contains(id, " ") {
		if n.Kind == load.String && !strings.Contains(rest, strconv.Quote(n.Text)) {
			rest = fmt.Sprintf("%s: %s", show(n), rest)
		}
		return id, rest, hintFor(id)
	}
	switch {
	case strings.Contains(msg, "mismatched types"):
		want := expectedKind(msg, n)
		return RuleType, fmt.Sprintf("%s is %s, but %s is expected here", show(n), article(n.Kind.String()), article(want)), typeHint(n, want)
	case strings.HasPrefix(msg, "conflicting values"):
		return RuleType, fmt.Sprintf("%s is not allowed here: %s", show(n), msg), "check the type and values the field expects"
	case strings.HasPrefix(msg, "incompatible list lengths (0 and"):
		return RuleRequired, "the list is empty; it needs at least one entry", "add an entry"
	case strings.Contains(msg, "out of bound =~") || strings.Contains(msg, "does not match"):
		return RulePattern, msg, "fix the value's format"
	case strings.Contains(msg, "out of bound"):
		return RuleRange, boundMessage(msg, n), rangeHint(path)
	case strings.Contains(msg, "MaxRunes"):
		return RuleRange, "the value is too long: " + msg, "shorten it"
	}
	return RuleConstraint, msg, "change the value so that it satisfies the constraint"
}

// expectedKind reads "(mismatched types A and B)" and returns, in JSON
// terms, the kind that is not the data's own.
func expectedKind(msg string, n *load.Node) string {
	i := strings.LastIndex(msg, "mismatched types ")
	kinds := strings.Split(strings.TrimSuffix(msg[i+len("mismatched types "):], ")"), " and ")
	json := map[string]string{"struct": "object", "list": "array", "int": "integer", "float": "number", "number": "number",
		"string": "string", "bool": "boolean", "null": "null"}
	own := map[load.Kind]string{load.Object: "object", load.Array: "array", load.String: "string", load.Bool: "boolean", load.Null: "null"}[n.Kind]
	want := ""
	for _, k := range kinds {
		if j, ok := json[k]; ok && j != own && !(n.Kind == load.Number && (j == "number")) {
			want = j
		}
	}
	if want == "" && len(kinds) > 0 {
		want = json[kinds[len(kinds)-1]]
	}
	return want
}

// boundMessage rewords "invalid value 2 (out of bound >=4)".
func boundMessage(msg string, n *load.Node) string {
	i := strings.LastIndex(msg, "(out of bound ")
	if i < 0 || !strings.HasSuffix(msg, ")") {
		return msg
	}
	bound := msg[i+len("(out of bound ") : len(msg)-1]
	words := map[string]string{">=": "at least", "<=": "at most", ">": "more than", "<": "less than", "!=": "other than"}
	for _, op := range []string{">=", "<=", ">", "<", "!="} {
		if rest, ok := strings.CutPrefix(bound, op); ok {
			return fmt.Sprintf("%s is out of range: it must be %s %s", show(n), words[op], rest)
		}
	}
	return msg
}

func rangeHint(path load.Path) string {
	if n := len(path); n > 0 && path[n-1].Name == "maxNodeCount" {
		return "maxNodeCount must be at least minNodeCount and at most 10000"
	}
	return "use a value in the allowed range"
}

func typeHint(n *load.Node, want string) string {
	switch {
	case n.Kind == load.String && (want == "integer" || want == "number"):
		return "write the number without quotes"
	case n.Kind == load.Number && want == "string":
		return "quote the value: the API takes it as a string"
	}
	return "give the field " + article(want)
}

// declaredIDs lists the node pool ids, or the partition ids, of a spec.
func declaredIDs(root *load.Node, partitions bool) []string {
	list, field := root.Get("nodePools"), "id"
	if partitions {
		list = root.Get("orchestratorSpec").Get("slurmSpec").Get("partitions")
	}
	var ids []string
	if list != nil {
		for _, it := range list.Items {
			if s, ok := it.Get(field).Str(); ok {
				ids = append(ids, s)
			}
		}
	}
	return ids
}

func hintFor(rule string) string {
	switch rule {
	case "schema-range":
		return "use a value in the allowed range"
	case "schema-reference":
		return "declare it, or use one of the declared ids"
	case "schema-duplicate-id":
		return "give each entry its own id"
	case "schema-provisioning":
		return "RESERVATION needs machineSpec.reservationAffinity; ON_DEMAND, SPOT and FLEX_START must not have one; flexStartMaxDuration only with FLEX_START"
	case "schema-slurm-value":
		return "remove the offending characters; each value must stay one Key=Value token"
	case "schema-filestore-name":
		return "copy the instance's full resource name, e.g. projects/my-project/locations/us-central1-a/instances/home"
	case "schema-cluster-name":
		return "e.g. projects/my-project/locations/us-central1/modelDevelopmentClusters/train"
	case "schema-id":
		return "rename it; ids become Slurm node, node set and partition names"
	case "schema-script":
		return "remove the NUL bytes from the script"
	}
	return "change the value to the form described"
}

func show(n *load.Node) string {
	switch n.Kind {
	case load.String:
		return strconv.Quote(n.Text)
	case load.Number:
		return n.Text
	case load.Bool:
		return strconv.FormatBool(n.True)
	}
	return "the value"
}

func article(noun string) string {
	if noun != "" && strings.ContainsRune("aeiou", rune(noun[0])) {
		return "an " + noun
	}
	return "a " + noun
}
