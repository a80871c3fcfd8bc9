package fidelity

import (
	"testing"

	"github.com/slurmspec/slurmspec/schema/catalog"
)

// TestSweep: every plugin value of the release once, with an argument where
// one is needed, none of another release.
func TestSweep(t *testing.T) {
	cat := catalog.Default()
	all := Sweep(cat, catalog.V2605, false)
	plugins := Sweep(cat, catalog.V2605, true)
	if len(plugins) < 50 || len(all) <= len(plugins) {
		t.Fatalf("%d plugin values, %d values: too few", len(plugins), len(all))
	}
	seen := map[string]bool{}
	for i, c := range all {
		if c.Index != i || len(c.Settings) != 1 {
			t.Fatalf("case %d: %+v", i, c)
		}
		s := c.Settings[0]
		id := s.Scope.String() + " " + s.Key + "=" + s.Value
		if seen[id] {
			t.Errorf("%s twice", id)
		}
		seen[id] = true
	}
	for _, want := range []string{"global TLSType=tls/s2n", "global TaskPluginParam=autobind=threads", "global SelectType=select/cons_tres"} {
		if !seen[want] {
			t.Errorf("no case %s", want)
		}
	}
	for _, c := range Sweep(cat, catalog.V2205, true) {
		if s := c.Settings[0]; s.Key == "TLSType" {
			t.Errorf("22.05 has no TLSType, got %s=%s", s.Key, s.Value)
		}
	}
}
