package fidelity

import (
	"strings"
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

// TestSweepArgRanges: each numeric option argument at its edges, inside
// ones plausible and outside ones not, only for the keys asked and the
// release's options.
func TestSweepArgRanges(t *testing.T) {
	cat := catalog.Default()
	got := map[string]bool{}
	for _, c := range SweepArgRanges(cat, catalog.V2411, "schedulerparameters") {
		s := c.Settings[0]
		if s.Key != "SchedulerParameters" {
			t.Fatalf("key %s not asked for", s.Key)
		}
		got[s.Value] = s.Plausible
	}
	for tok, plausible := range map[string]bool{
		"bf_interval=0": false, "bf_interval=1": true, "bf_interval=10800": true, "bf_interval=10801": false, "bf_interval=-1": true,
		"bf_node_space_size=1": false, "bf_topopt_iterations=1": false, "bf_topopt_iterations=31": false,
	} {
		if p, ok := got[tok]; !ok || p != plausible {
			t.Errorf("%s: in the sweep %v, plausible %v; want plausible %v", tok, ok, p, plausible)
		}
	}
	if _, ok := got["bf_yield_rpc_cnt=201"]; ok {
		t.Error("24.11 has no bf_yield_rpc_cnt")
	}
	if _, ok := got["max_script_size=-2147483649"]; ok {
		t.Error("an edge below INT_MIN for atoi")
	}
	if n := len(SweepArgRanges(cat, catalog.V2411)); n <= len(got) {
		t.Errorf("all keys: %d cases, SchedulerParameters alone %d", n, len(got))
	}
}

// TestSweepDoubled: every value of a list key once, written twice; no
// value of a single-valued key.
func TestSweepDoubled(t *testing.T) {
	got := map[string]bool{}
	for i, c := range SweepDoubled(catalog.Default(), catalog.V2411) {
		s := c.Settings[0]
		if c.Index != i || s.Plausible != true {
			t.Fatalf("case %d: %+v", i, c)
		}
		got[s.Scope.String()+" "+s.Key+"="+s.Value] = true
	}
	for _, want := range []string{"global SelectTypeParameters=CR_Core,CR_Core", "global TaskPluginParam=None,None", "partition CpuBind=core,core"} {
		if !got[want] {
			t.Errorf("no case %s", want)
		}
	}
	for id := range got {
		if strings.Contains(id, "SelectType=") || strings.Contains(id, "TLSType=") {
			t.Errorf("%s: not a list key", id)
		}
	}
}
