package schema

// CUE's errors turned into diagnostics: each error is traced back to the
// spec value it is about (position and path), classified into a rule, and
// given the schema's own @msg text and a hint.

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"cuelang.org/go/cue/errors"
	"cuelang.org/go/cue/literal"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/load"
)

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
	case (n.Kind == load.Number || n.Kind == load.Bool) && want == "string":
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
		return strconv.Quote(diag.Shorten(n.Text))
	case load.Number:
		return diag.Shorten(n.Text)
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
