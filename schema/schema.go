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
	"strings"
	"sync"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
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

// Strings reports whether the object at path is a free-form map whose
// values are strings (the slurm.conf config maps, labels). It is the
// loader's Options.Strings.
func (s *Schema) Strings(p load.Path) bool {
	sh := s.root.lookup(p)
	return sh != nil && sh.fields == nil && sh.pattern != nil && sh.pattern.leaf != nil && sh.pattern.leaf.kinds == cue.StringKind
}

// Check validates a loaded document and returns every problem found.
func (s *Schema) Check(doc *load.Document) diag.List {
	return s.Validate(doc).Diags
}

// check is Check; lean=false sends the whole document to CUE (the
// reference the tests compare the lean unification with).
func (s *Schema) check(doc *load.Document, lean bool) diag.List {
	return s.run(doc, lean).diags
}

// run validates doc and returns the checker with its findings.
func (s *Schema) run(doc *load.Document, lean bool) (c *checker) {
	c = &checker{doc: doc, schema: s}
	defer func() {
		if r := recover(); r != nil {
			c.diags.Errorf(RuleInternal, diag.Pos{File: doc.File}, "", "please report this with the spec that caused it",
				"internal error: CUE evaluation panicked: %v", r)
		}
	}()
	if doc.Root.Kind != load.Object {
		c.diags.Add(diag.Diagnostic{Rule: RuleType, Severity: diag.Error, Pos: doc.Root.Pos,
			Message: fmt.Sprintf("the spec is %s, but a cluster spec is an object", article(doc.Root.Kind.String())),
			Hint:    "write the ModelDevelopmentCluster body: an object with nodePools and orchestratorSpec"})
		return c
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
	c.report(c.uncovered(references(doc.Root)))
	return c
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
	// meant holds the paths of the fields that unknown fields probably
	// meant (Result.Unsound).
	meant []string
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
		// A required field that an unknown field misspells is reported
		// once, as the unknown field with its did-you-mean.
		var misspelt map[string]bool
		defer func() {
			if sh == nil || sh.any {
				return
			}
			for _, name := range sh.required {
				if n.Get(name) == nil && !misspelt[name] {
					c.diags.Add(diag.Diagnostic{Rule: RuleRequired, Severity: diag.Error, Pos: n.Pos, Path: path.Key(name).String(),
						Message: fmt.Sprintf("required field %q is missing", name), Hint: fmt.Sprintf("add %q to %s", name, describe(path))})
				}
			}
		}()
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
				if meant := c.unknown(n, f, sh, path); meant != "" {
					if misspelt == nil {
						misspelt = map[string]bool{}
					}
					misspelt[meant] = true
				}
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

// unknown reports a field the schema does not know. When it is a likely
// misspelling of a field the object lacks, that field is unsound (the spec
// meant to set it) and unknown returns its name.
//
// A name longer than diag.MaxEcho is cut in the message and the path
// (diag.Shorten), and is no typo of a field: huge unknown keys cost
// neither edit distances nor megabytes of output.
func (c *checker) unknown(obj *load.Node, f *load.Field, sh *shape, path load.Path) (meant string) {
	p := path.Key(diag.Shorten(f.Name))
	if m := diag.Suggest(f.Written, sh.names); m != "" && obj.Get(m) == nil {
		c.meant = append(c.meant, path.Key(m).String())
		meant = m
	}
	hint := diag.DidYouMean(f.Written, sh.names, "")
	if hint == "" {
		where := "at the top level"
		if len(path) > 0 {
			where = "in " + path.String()
		}
		hint = "known fields " + where + ": " + strings.Join(sh.names, ", ")
	}
	c.diags.Add(diag.Diagnostic{Rule: RuleUnknownField, Severity: diag.Error, Pos: f.KeyPos, Path: p.String(),
		Message: fmt.Sprintf("unknown field %q", diag.Shorten(f.Written)), Hint: hint})
	return meant
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
	c.diags.Add(diag.Diagnostic{Rule: "schema-key", Severity: diag.Error, Pos: f.KeyPos, Path: path.Key(diag.Shorten(f.Name)).String(),
		Message: fmt.Sprintf("key %q is not allowed in %s", diag.Shorten(f.Written), path), Hint: hint})
}

func describe(p load.Path) string {
	if len(p) == 0 {
		return "the top level of the spec"
	}
	return p.String()
}
