package schema

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/cuecontext"
	"github.com/google/go-cmp/cmp"

	"github.com/slurmspec/slurmspec/compiler/load"
)

// formerProjection builds the input of #References in cluster.cue.
func formerProjection(root *load.Node) ast.Expr {
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

// randomRefsSpec writes a spec whose ids collide, dangle and are
// sometimes not strings.
func randomRefsSpec(r *rand.Rand) string {
	ids := []string{`"a"`, `"b"`, `"c"`, `""`, `"a\"b"`, `"gpu pool"`, `7`, `null`, `["a"]`}
	id := func() string { return ids[r.IntN(len(ids))] }
	list := func(n int, item func() string) string {
		var parts []string
		for range n {
			parts = append(parts, item())
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	var b strings.Builder
	b.WriteString(`{"nodePools": `)
	if r.IntN(10) == 0 {
		b.WriteString(`{"id": "a"}`)
	} else {
		b.WriteString(list(r.IntN(5), func() string {
			if r.IntN(8) == 0 {
				return `"not a pool"`
			}
			if r.IntN(8) == 0 {
				return `{}`
			}
			return `{"id": ` + id() + `}`
		}))
	}
	b.WriteString(`, "orchestratorSpec": {"slurmSpec": {"partitions": `)
	b.WriteString(list(r.IntN(4), func() string {
		switch r.IntN(10) {
		case 0:
			return `"p"`
		case 1:
			return `{"nodePoolIds": ["a"]}`
		case 2:
			return `{"id": "p", "nodePoolIds": "a"}`
		}
		return `{"id": ` + id() + `, "nodePoolIds": ` + list(r.IntN(4), id) + `}`
	}))
	b.WriteString(`, "nodeSets": `)
	b.WriteString(list(r.IntN(4), func() string {
		if r.IntN(6) == 0 {
			return `5`
		}
		return `{"nodePoolId": ` + id() + `}`
	}))
	if r.IntN(3) > 0 {
		b.WriteString(`, "loginNodePoolId": ` + id())
	}
	if r.IntN(3) > 0 {
		b.WriteString(`, "defaultPartitionId": ` + id())
	}
	b.WriteString("}}}")
	return b.String()
}

// TestReferencesMatchCUE checks that the Go reference checks report
// exactly what the CUE they replaced reported, on random specs.
func TestReferencesMatchCUE(t *testing.T) {
	s, err := New()
	if err != nil {
		t.Fatal(err)
	}
	v := cuecontext.New().CompileBytes(source)
	if err := v.Err(); err != nil {
		t.Fatal(err)
	}
	refs := v.LookupPath(cue.ParsePath("#References"))
	r := rand.New(rand.NewPCG(1, 2))
	n := 3000
	if testing.Short() {
		n = 300
	}
	reported := 0
	for i := range n {
		src := randomRefsSpec(r)
		doc, l := load.Bytes("spec.json", []byte(src), load.Options{Verbatim: s.Verbatim})
		if l.HasErrors() {
			t.Fatalf("%s: %v", src, l)
		}
		former := checker{doc: doc, schema: s}
		former.cueErrors(cueErrorList(refs.Unify(cuecontext.New().BuildExpr(formerProjection(doc.Root))).Validate(cue.Concrete(true))))
		now := checker{doc: doc, schema: s}
		now.report(references(doc.Root))
		want, got := former.diags.Sort(), now.diags.Sort()
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("case %d: %s\n(-former CUE +Go):\n%s", i, src, diff)
		}
		reported += len(got)
	}
	if reported < n {
		t.Errorf("only %d diagnostics in %d cases: the generator rarely makes mistakes", reported, n)
	}
	t.Logf("%d cases, %d diagnostics", n, reported)
}
