package fidelity

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/schema/catalog"
)

// TestWideEdgesEveryType: every key a spec can set has valid and invalid
// edges of its type, and the types carry the values issue 26 names: every
// spelling of a boolean Slurm reads, NONE, UNLIMITED, INFINITE, 0, empty,
// negative, huge, units on a size, and a port's edges.
func TestWideEdgesEveryType(t *testing.T) {
	cat := catalog.Default()
	for _, p := range keys(cat) {
		g := valueGen{r: rand.New(rand.NewPCG(1, 2)), p: p, v: catalog.V2605}
		e := g.typeEdges()
		if len(e.valid) == 0 && p.Kind != catalog.KindEnum && p.Kind != catalog.KindPlugin && p.Kind != catalog.KindList || len(e.invalid) == 0 {
			t.Errorf("%s/%s (%s): %d valid and %d invalid edges", p.Scope, p.Name, e.name, len(e.valid), len(e.invalid))
		}
	}
	for _, b := range []string{"YES", "yes", "NO", "no", "TRUE", "true", "False", "UP", "DOWN", "down", "1", "0"} {
		if !slices.Contains(boolEdges.valid, b) {
			t.Errorf("the boolean edges lack %q", b)
		}
	}
	pp, ok := cat.Lookup(catalog.ScopeNode, "Port")
	if !ok {
		t.Fatal("the catalog has no node Port")
	}
	port := valueGen{r: rand.New(rand.NewPCG(1, 2)), p: pp, v: catalog.V2605}.typeEdges()
	for _, want := range []string{"NONE", "0", "65536", "-1", ""} {
		if !slices.Contains(port.invalid, want) {
			t.Errorf("the port edges lack %q", want)
		}
	}
	mem := sizeEdges(catalog.KindUint64)
	for _, want := range []string{"4G", "UNLIMITED", "18446744073709551616", "-1", ""} {
		if !slices.Contains(mem.invalid, want) && !slices.Contains(mem.valid, want) {
			t.Errorf("the size edges lack %q", want)
		}
	}
}

// TestGenerateDrawsWideValues: 300 cases of a release set the node set's
// Port, and draw edges of every type both valid and invalid; most
// partition and node set values are not ones the catalog lists.
func TestGenerateDrawsWideValues(t *testing.T) {
	cases := Generate(catalog.Default(), catalog.V2605, 20261211, 300)
	types := map[string]bool{}
	port := false
	for _, c := range cases {
		for _, s := range c.Settings {
			if s.Scope == catalog.ScopeNode && s.Key == "Port" {
				port = true
			}
			if strings.Contains(s.How, "edge of ") {
				types[s.How] = true
			}
		}
	}
	if !port {
		t.Error("300 cases never set the node set's Port")
	}
	for _, want := range []string{"valid edge of boolean", "invalid edge of boolean", "valid edge of time", "invalid edge of time",
		"valid edge of uint32", "invalid edge of uint16", "invalid edge of size uint64", "invalid edge of names", "invalid edge of host list"} {
		if !types[want] {
			t.Errorf("300 cases never drew a %s", want)
		}
	}
}
