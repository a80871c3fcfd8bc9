// Package schema holds the CUE schema of a cluster spec, embedded in the
// binary, and checks loaded documents against it. The schema is the single
// statement of the spec's shape: field names, types, enums, id patterns,
// the Filestore name format and the cross references between partitions,
// node pools and the default partition.
//
// Check reports every problem in one run. CUE evaluates errors in rounds (an
// error inside a list hides the checks that range over it, and missing
// required fields are reported only once nothing else is wrong), so Check
// splits the work: unknown fields and missing required fields are found by
// walking the data beside the schema's shape, constraints by one CUE
// unification,
// and references on a projection of the spec that holds only its ids.
package schema

import (
	_ "embed"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/cuecontext"
	"cuelang.org/go/cue/errors"
	"cuelang.org/go/cue/literal"
	"cuelang.org/go/cue/token"

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

// Schema is a compiled schema. It is safe for concurrent use by Check.
type Schema struct {
	cluster cue.Value
	refs    cue.Value
	root    *shape
	// patternMsgs maps a regular expression of the schema to the message
	// its @msg attribute gives.
	patternMsgs map[string]message
}

// message is a friendly message from an @msg(rule, "text") attribute.
type message struct {
	rule, text string
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

// New compiles the embedded schema.
func New() (*Schema, error) { return compile(source) }

func compile(src []byte) (*Schema, error) {
	ctx := cuecontext.New()
	v := ctx.CompileBytes(src, cue.Filename("schema/cluster.cue"))
	if err := v.Err(); err != nil {
		return nil, fmt.Errorf("internal error: compiling embedded schema: %w", err)
	}
	s := &Schema{
		cluster: v.LookupPath(cue.ParsePath("#Cluster")),
		refs:    v.LookupPath(cue.ParsePath("#References")),
	}
	if !s.cluster.Exists() || !s.refs.Exists() {
		return nil, fmt.Errorf("internal error: embedded schema lacks #Cluster or #References")
	}
	s.root = buildShape(s.cluster, 0)
	s.patternMsgs = map[string]message{}
	collectPatternMsgs(v, s.patternMsgs, 0)
	return s, nil
}

// shape is the part of the schema that the data walk needs, read once from
// CUE: which fields an object may have, which objects are free-form maps and
// what lists hold.
type shape struct {
	value  cue.Value
	msg    *message // the field's @msg
	any    bool     // anything goes below (output-only fields)
	fields map[string]*shape
	names  []string // sorted field names, for did-you-mean
	// required lists the fields that must be present, in schema order.
	required []string
	pattern  *shape // set for free-form maps (marked @slurmspec(map) in the CUE): any value
	elem     *shape // element of a list
}

func buildShape(v cue.Value, depth int) *shape {
	s := &shape{value: v}
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
				if a := fv.Attribute("slurmspec"); a.Err() == nil && a.Contents() == "map" {
					// A free-form map: its keys are data; its values are
					// checked by unification.
					s.fields[name] = &shape{value: fv, pattern: &shape{any: true}}
				} else {
					s.fields[name] = buildShape(fv, depth+1)
				}
				if m, ok := attrMessage(fv); ok {
					s.fields[name].msg = &m
				}
				s.names = append(s.names, name)
			}
		}
		sort.Strings(s.names)
	}
	if k&cue.ListKind != 0 {
		if ev := v.LookupPath(cue.MakePath(cue.AnyIndex)); ev.Exists() {
			s.elem = buildShape(ev, depth+1)
		}
	}
	return s
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
	expr := c.walk(doc.Root, s.root, nil)
	// A one-off context per check: values from different contexts combine.
	ctx := cuecontext.New()
	u := s.cluster.Unify(ctx.BuildExpr(expr))
	c.cueErrors(u.Validate(cue.Concrete(true)))
	r := s.refs.Unify(ctx.BuildExpr(projectRefs(doc.Root)))
	c.cueErrors(r.Validate(cue.Concrete(true)))
	return c.diags
}

type checker struct {
	doc    *load.Document
	schema *Schema
	diags  diag.List
}

// walk reports unknown fields and missing required fields, and converts
// the rest of the data to a CUE expression for unification. Required fields
// are read from the schema once (shape.required), so this costs no CUE
// evaluation; the one conditional requirement (reservationAffinity for
// RESERVATION pools) is the lint rule reservation-affinity-missing.
func (c *checker) walk(n *load.Node, sh *shape, path load.Path) ast.Expr {
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
				if sh.fields == nil && !sh.value.Allows(cue.Str(f.Name)) {
					c.badKey(f, path)
					continue
				}
				child = sh.pattern
			case sh.fields != nil:
				c.unknown(f, sh, path)
				continue
			}
			st.Elts = append(st.Elts, &ast.Field{Label: ast.NewString(f.Name), Value: c.walk(f.Value, child, path.Key(f.Name))})
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
		for i, it := range n.Items {
			l.Elts = append(l.Elts, c.walk(it, elem, path.Index(i)))
		}
		return l
	case load.String:
		return ast.NewString(n.Text)
	case load.Number:
		return numberLit(n.Text)
	case load.Bool:
		return ast.NewBool(n.True)
	}
	return ast.NewNull()
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

// cueErrors turns CUE's errors into diagnostics positioned in the data.
func (c *checker) cueErrors(err error) {
	if err == nil {
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
	for _, e := range errors.Errors(err) {
		format, args := e.Msg()
		msg := fmt.Sprintf(format, args...)
		if strings.Contains(msg, "field is required but not present") || strings.HasPrefix(msg, "incomplete value") {
			continue // reported by required(), or a consequence of another error
		}
		path, node := c.resolve(e.Path())
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

// resolve maps a CUE error path to the deepest data node on it. Paths of
// #References checks name the data path in their last label.
func (c *checker) resolve(cuePath []string) (load.Path, *load.Node) {
	var p load.Path
	cur := c.doc.Root
	for i, label := range cuePath {
		if strings.HasPrefix(label, "#") && i == 0 {
			continue
		}
		if label == "_checks" && i+1 < len(cuePath) {
			key := cuePath[i+1]
			if u, err := strconv.Unquote(key); err == nil {
				key = u
			}
			if dp, err := load.ParsePath(key); err == nil {
				n, matched := c.doc.Root.Lookup(dp)
				return dp[:matched], n
			}
			break
		}
		if strings.HasPrefix(label, "_") {
			break
		}
		if u, err := strconv.Unquote(label); err == nil {
			label = u
		}
		var next *load.Node
		switch cur.Kind {
		case load.Array:
			if idx, err := strconv.Atoi(label); err == nil && idx >= 0 && idx < len(cur.Items) {
				next = cur.Items[idx]
				p = p.Index(idx)
			}
		case load.Object:
			if next = cur.Get(label); next != nil {
				p = p.Key(label)
			}
		}
		if next == nil {
			return p, cur
		}
		cur = next
	}
	return p, cur
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

// projectRefs builds the #References input: the ids of pools, partitions
// and node sets keyed by their index, with anything not a string left out.
func projectRefs(root *load.Node) ast.Expr {
	slurm := root.Get("orchestratorSpec").Get("slurmSpec")
	byIndex := func(list *load.Node, f func(*load.Node) ast.Expr) ast.Expr {
		st := &ast.StructLit{}
		if list != nil && list.Kind == load.Array {
			for i, it := range list.Items {
				if e := f(it); e != nil {
					st.Elts = append(st.Elts, &ast.Field{Label: ast.NewString(strconv.Itoa(i)), Value: e})
				}
			}
		}
		return st
	}
	str := func(n *load.Node) ast.Expr {
		if s, ok := n.Str(); ok {
			return ast.NewString(s)
		}
		return nil
	}
	fields := []ast.Decl{
		&ast.Field{Label: ast.NewIdent("pools"), Value: byIndex(root.Get("nodePools"), func(n *load.Node) ast.Expr { return str(n.Get("id")) })},
		&ast.Field{Label: ast.NewIdent("nodeSets"), Value: byIndex(slurm.Get("nodeSets"), func(n *load.Node) ast.Expr { return str(n.Get("nodePoolId")) })},
		&ast.Field{Label: ast.NewIdent("partitions"), Value: byIndex(slurm.Get("partitions"), func(n *load.Node) ast.Expr {
			if n.Kind != load.Object {
				return nil
			}
			id := str(n.Get("id"))
			if id == nil {
				id = ast.NewString("")
			}
			return ast.NewStruct("id", id, "nodePoolIds", byIndex(n.Get("nodePoolIds"), str))
		})},
	}
	for _, name := range []string{"loginNodePoolId", "defaultPartitionId"} {
		if e := str(slurm.Get(name)); e != nil {
			fields = append(fields, &ast.Field{Label: ast.NewIdent(name), Value: e})
		}
	}
	return &ast.StructLit{Elts: fields}
}

func article(noun string) string {
	if noun != "" && strings.ContainsRune("aeiou", rune(noun[0])) {
		return "an " + noun
	}
	return "a " + noun
}
