package accounting

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"cuelang.org/go/cue"
	cueerrors "cuelang.org/go/cue/errors"

	"github.com/slurmspec/slurmspec/compiler/cuectx"
	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/load"
)

// compiledSchema is the schema's #Accounting and its context, compiled
// once per process. A CUE context is not safe for concurrent use (specs
// are analysed on a worker pool): validate holds mu while it uses it.
type compiledSchema struct {
	mu  sync.Mutex
	ctx *cue.Context
	def cue.Value
}

var compiled = sync.OnceValues(func() (*compiledSchema, error) {
	ctx := cuectx.New()
	v := ctx.CompileString(cueSource, cue.Filename("accounting.cue"))
	if err := v.Err(); err != nil {
		return nil, fmt.Errorf("compile the accounting schema: %w", err)
	}
	return &compiledSchema{ctx: ctx, def: v.LookupPath(cue.ParsePath("#Accounting"))}, nil
})

// conflictRe reads CUE's message for a value that is not an alternative.
var conflictRe = regexp.MustCompile(`^conflicting values ("[^"]*"|[^ ]+) and ("[^"]*"|[^ ]+)`)

// validate checks a loaded document against the schema: one diagnostic
// per problem, at the value (or the object missing a field).
func validate(doc *load.Document) diag.List {
	var l diag.List
	cs, err := compiled()
	if err != nil {
		l.Errorf("internal-error", diag.Pos{File: doc.File}, "", "please report this", "%v", err)
		return l
	}
	cs.mu.Lock()
	err = cs.def.Unify(cs.ctx.Encode(plain(doc.Root))).Validate(cue.Concrete(true), cue.Final())
	var errs []cueerrors.Error
	if err != nil {
		errs = cueerrors.Errors(err)
	}
	cs.mu.Unlock()
	if err == nil {
		return l
	}
	// One diagnostic per path: a value outside an enumeration is one
	// error per alternative in CUE ("conflicting values").
	type found struct {
		path  load.Path
		msg   string
		alts  []string
		value string
	}
	var order []string
	byPath := map[string]*found{}
	for _, e := range errs {
		path := pathOf(doc.Root, e.Path())
		format, args := e.Msg()
		msg := fmt.Sprintf(format, args...)
		f := byPath[path.String()]
		if f == nil {
			f = &found{path: path, msg: msg}
			byPath[path.String()] = f
			order = append(order, path.String())
		}
		if m := conflictRe.FindStringSubmatch(msg); m != nil {
			f.alts = append(f.alts, m[1])
			f.value = m[2]
		}
	}
	for _, key := range order {
		f := byPath[key]
		n, _ := doc.Root.Lookup(f.path)
		pos := n.Pos
		if pos.File == "" {
			pos.File = doc.File
		}
		msg := f.msg
		if len(f.alts) > 0 {
			msg = fmt.Sprintf("invalid value %s (want one of %s)", f.value, strings.Join(f.alts, ", "))
		}
		l.Errorf(RuleSchema, pos, key, hintFor(f.path, msg), "%s: %s", orRoot(key), msg)
	}
	return l
}

func orRoot(p string) string {
	if p == "" {
		return "the file"
	}
	return p
}

// hintFor says how to fix a schema error.
func hintFor(p load.Path, msg string) string {
	last := ""
	if len(p) > 0 {
		last = p[len(p)-1].Name
	}
	switch {
	case strings.Contains(msg, "not allowed"):
		return "the accounting file has qos, accounts and users; see docs/accounting.md for their fields"
	case strings.Contains(msg, "incomplete") || strings.Contains(msg, "required"):
		return "add the field"
	case last == "name" || last == "parent" || last == "defaultAccount" || last == "defaultQos" || len(p) > 0 && p[len(p)-1].IsIndex:
		return "account and QOS names are 1-64 lowercase letters, digits, _, . and -, starting with a letter or digit (sacctmgr lowercases them); user names are Linux user names"
	}
	return "see docs/accounting.md"
}

// pathOf converts a CUE error path to a load.Path: a list index is a
// number where the document has a list.
func pathOf(root *load.Node, sel []string) load.Path {
	var p load.Path
	cur := root
	for i, s := range sel {
		s = strings.Trim(s, `"`)
		if i == 0 && strings.HasPrefix(s, "#") {
			continue
		}
		if cur != nil && cur.Kind == load.Array {
			if i, err := strconv.Atoi(s); err == nil {
				p = p.Index(i)
				if i >= 0 && i < len(cur.Items) {
					cur = cur.Items[i]
				} else {
					cur = nil
				}
				continue
			}
		}
		p = p.Key(s)
		cur = cur.Get(s)
	}
	return p
}

// plain converts a node to Go values CUE encodes as JSON would read them;
// numbers as int64 or float64 (CUE encodes a json.Number as a string).
func plain(n *load.Node) any {
	switch n.Kind {
	case load.Bool:
		return n.True
	case load.Number:
		t := strings.ReplaceAll(n.Text, "_", "")
		if i, err := strconv.ParseInt(t, 0, 64); err == nil {
			return i
		}
		if f, err := strconv.ParseFloat(t, 64); err == nil {
			return f
		}
		return n.Text
	case load.String:
		return n.Text
	case load.Object:
		m := make(map[string]any, len(n.Fields))
		for _, f := range n.Fields {
			m[f.Name] = plain(f.Value)
		}
		return m
	case load.Array:
		s := make([]any, len(n.Items))
		for i, it := range n.Items {
			s[i] = plain(it)
		}
		return s
	}
	return nil
}
