package schema

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/compiler/specgen"
)

// mutationValues are the values mutate puts in place of others: valid and
// invalid enum members, ids, patterns, bounds, kinds and edge cases of the
// Go leaf checks (floats, hex, separators, huge numbers, multi-byte runes).
var mutationValues = []*load.Node{
	str(""), str("SPOT"), str("RESERVATION"), str("FLEX_START"), str("ON_DEMAND"), str("BOGUS"),
	str("pd-ssd"), str("hyperdisk-balanced"), str("NVIDIA_B200"), str("SEV"), str("SPECIFIC_RESERVATION"),
	str("a b"), str("x#y"), str("a4"), str("login"), str("gpu"), str("Gpu"), str("train"), str("p0"),
	str("us-central1-a"), str("REGION-ZONE"), str("us-central1"), str("n2-standard-8"), str("a4-highgpu-8g"),
	str("projects/acme-ml-prod/locations/us-central1-b/instances/home"), str("projects/p/instances/i"),
	str("604800s"), str("1.5s"), str(strings.Repeat("x", 1030)), str(strings.Repeat("é", 130)), str("ünï"),
	str("projects/acme-ml-prod/locations/us-central1/modelDevelopmentClusters/c1"),
	num("0"), num("1"), num("-1"), num("2"), num("3"), num("16"), num("17"), num("10000"), num("10001"),
	num("1.5"), num("2.0"), num("1e3"), num("0x10"), num("1_000"), num("99999999999999999999"), num("-0"),
	{Kind: load.Bool, True: true}, {Kind: load.Bool}, {Kind: load.Null},
	{Kind: load.Object}, {Kind: load.Array}, {Kind: load.Array, Items: []*load.Node{str("a4")}},
}

func str(s string) *load.Node { return &load.Node{Kind: load.String, Text: s} }
func num(s string) *load.Node { return &load.Node{Kind: load.Number, Text: s} }

// clone copies a node tree.
func clone(n *load.Node) *load.Node {
	c := *n
	c.Fields = nil
	for _, f := range n.Fields {
		fc := *f
		fc.Value = clone(f.Value)
		c.Fields = append(c.Fields, &fc)
	}
	c.Items = nil
	for _, it := range n.Items {
		c.Items = append(c.Items, clone(it))
	}
	return &c
}

// mutate changes a random part of the tree: replaces a value, deletes a
// field, adds an unknown one, or duplicates, copies over or removes a list
// element (so that lists hold identical elements, valid or not).
func mutate(r *rand.Rand, root *load.Node) {
	var nodes []*load.Node
	var walk func(n *load.Node)
	walk = func(n *load.Node) {
		nodes = append(nodes, n)
		for _, f := range n.Fields {
			walk(f.Value)
		}
		for _, it := range n.Items {
			walk(it)
		}
	}
	walk(root)
	n := nodes[r.IntN(len(nodes))]
	switch {
	case n.Kind == load.Object && len(n.Fields) > 0 && r.IntN(3) == 0:
		i := r.IntN(len(n.Fields))
		n.Fields = append(n.Fields[:i:i], n.Fields[i+1:]...)
	case n.Kind == load.Object && r.IntN(6) == 0:
		n.Fields = append(n.Fields, &load.Field{Name: "bogusField", Written: "bogusField", Value: str("x")})
	case n.Kind == load.Array && len(n.Items) > 0:
		i, j := r.IntN(len(n.Items)), r.IntN(len(n.Items))
		switch r.IntN(3) {
		case 0:
			n.Items = append(n.Items, clone(n.Items[i]))
		case 1:
			n.Items[j] = clone(n.Items[i])
		default:
			n.Items = append(n.Items[:i:i], n.Items[i+1:]...)
		}
	case n != root:
		v := mutationValues[r.IntN(len(mutationValues))]
		pos := n.Pos
		*n = *clone(v)
		n.Pos = pos
	}
}

// TestLeanMatchesFull checks that Check, which leaves valid values out of
// the CUE input and sends identical list elements once (lean.go), reports
// exactly what unifying the whole document reports, on mutated specs.
func TestLeanMatchesFull(t *testing.T) {
	s, err := New()
	if err != nil {
		t.Fatal(err)
	}
	var bases []*load.Document
	for _, f := range []string{"../examples/seed.jsonc", "../examples/a4-training.yaml", "../testdata/specs/docs-excerpt.jsonc"} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc, _ := load.Bytes(filepath.Base(f), data, load.Options{Verbatim: s.Verbatim})
		bases = append(bases, doc)
	}
	for _, n := range []int{1, 3, 6} {
		doc, _ := load.Bytes("gen.json", specgen.JSON(n), load.Options{Verbatim: s.Verbatim})
		bases = append(bases, doc)
	}
	r := rand.New(rand.NewPCG(3, 4))
	n := 2500
	if testing.Short() {
		n = 250
	}
	withErrors := 0
	for i := range n {
		base := bases[i%len(bases)]
		doc := *base
		doc.Root = clone(base.Root)
		for range 1 + r.IntN(4) {
			mutate(r, doc.Root)
		}
		want, got := s.check(&doc, false).Sort(), s.check(&doc, true).Sort()
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("case %d (base %s): lean check differs (-full +lean):\n%s", i, base.File, diff)
		}
		if got.HasErrors() {
			withErrors++
		}
	}
	if withErrors < n/3 {
		t.Errorf("only %d of %d mutated specs have errors", withErrors, n)
	}
	t.Logf("%d mutated specs, %d with errors", n, withErrors)
}

// TestLeanLeavesOut checks that the lean walk does lean: valid leaves are
// left out, identical elements sent once, and fields other constraints
// read are always sent.
func TestLeanLeavesOut(t *testing.T) {
	s, err := New()
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := load.Bytes("gen.json", specgen.JSON(100), load.Options{Verbatim: s.Verbatim})
	c := checker{doc: doc, schema: s}
	var key strings.Builder
	exprKey(&key, c.walk(doc.Root, s.root, nil, true))
	got := key.String()
	for _, absent := range []string{`"id"`, `"machineType"`, `"zone"`, `"nodePoolIds"`, `"PriorityTier"`, `"homeDirectoryStorage"`} {
		if strings.Contains(got, absent) {
			t.Errorf("%s was sent to CUE", absent)
		}
	}
	for _, present := range []string{`"provisioningModel"`, `"minNodeCount"`, `"maxNodeCount"`} {
		if !strings.Contains(got, present) {
			t.Errorf("%s was not sent to CUE", present)
		}
	}
	if len(c.same) != 3 {
		t.Errorf("%d lists sent elementwise, want nodePools, partitions and nodeSets", len(c.same))
	}
	for list, groups := range c.same {
		if len(groups) > 61 {
			t.Errorf("list at %v: %d distinct elements sent", list.Pos, len(groups))
		}
	}
	reads := s.root.fields["nodePools"].elem.fields
	for _, name := range []string{"provisioningModel", "flexStartMaxDuration"} {
		if !reads[name].read {
			t.Errorf("%s is not marked as read by other constraints", name)
		}
	}
	if !reads["machineSpec"].fields["reservationAffinity"].read || reads["machineSpec"].read {
		t.Errorf("machineSpec.reservationAffinity, and not machineSpec, is declared by a comprehension")
	}
	if reads["id"].check() == nil || reads["bootDisk"].fields["bootDiskType"].check() == nil {
		t.Errorf("the id pattern or the bootDiskType enum is not checked in Go")
	}
}

// TestFullMatcherMatchesRegexp checks that every pattern of the schema,
// compiled unanchored with leftmost-longest matching (fullMatcher),
// accepts exactly the strings regexp.MatchString accepts.
func TestFullMatcherMatchesRegexp(t *testing.T) {
	s, err := New()
	if err != nil {
		t.Fatal(err)
	}
	var force func(sh *shape, depth int)
	force = func(sh *shape, depth int) {
		if sh == nil || depth > 32 {
			return
		}
		sh.check()
		for _, f := range sh.fields {
			force(f, depth+1)
		}
		force(sh.elem, depth+1)
		force(sh.pattern, depth+1)
	}
	force(s.root, 0)
	bases := []string{
		"", "a", "a4", "p0", "login", "gpu-pool", "train_q", "a4-highgpu-8g", "n2-standard-8", "us-central1-b",
		"REGION-ZONE", "PROJECT_ID", "us-central1", "604800s", "1.5s", "research", "cost-center", "ml-42",
		"projects/acme-ml-prod/locations/us-central1-b/instances/home",
		"projects/123456/locations/us-central1/instances/fs-1",
		"projects/acme-ml-prod/zones/us-central1-b/reservations/a4/reservationBlocks/b1/reservationSubBlocks/s2",
		"projects/acme-ml-prod/locations/us-central1/modelDevelopmentClusters/train",
		"projects/acme-ml-prod/global/images/family/slurm-debian", "priority/multifactor", "00:10:00",
		"gs-bucket.name", "example.com:my-project", "ünïcode", "#!/bin/bash\necho hi",
	}
	var corpus []string
	for _, b := range bases {
		corpus = append(corpus, b, b+"-", "-"+b, strings.ToUpper(b), b+"\n", b+" x", b+b)
		for i := range len(b) {
			corpus = append(corpus, b[:i], b[i:])
			for _, c := range []string{"A", "a", "-", "_", "/", "0", "é", " ", "#", "\x00", "."} {
				corpus = append(corpus, b[:i]+c+b[i+1:])
			}
		}
	}
	n := 0
	regexps.Range(func(k, v any) bool {
		pattern := k.(string)
		re := regexp.MustCompile(pattern)
		m, err := v.(*lazyRegexp).re()
		if err != nil {
			t.Errorf("%s: %v", pattern, err)
			return true
		}
		if !m.full {
			t.Errorf("%s is not compiled unanchored", pattern)
		}
		for _, c := range corpus {
			if want, got := re.MatchString(c), m.match(c); want != got {
				t.Errorf("%s on %q: regexp says %v, fullMatcher %v", pattern, c, want, got)
			}
		}
		n++
		return true
	})
	if n < 10 {
		t.Errorf("only %d patterns", n)
	}
}
