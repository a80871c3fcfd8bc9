package catalog

import "testing"

// TestBareNoneOn2205 pins which plugin keys take a bare none on 22.05, as
// the daemons decided (lab/localslurm/realslurm truth12_test.go): the
// loaders that prepend their type's prefix load <type>/none; the others
// look for a plugin named none and fail. A value that is no plugin name
// after the prefix stays an error.
func TestBareNoneOn2205(t *testing.T) {
	prefixed := []string{"JobContainerType", "PowerPlugin", "CoreSpecPlugin", "CliFilterPlugins",
		"AcctGatherEnergyType", "AcctGatherInterconnectType", "TaskPlugin"}
	whole := []string{"JobCompType", "SwitchType", "MCSPlugin", "PreemptType", "TopologyPlugin",
		"JobAcctGatherType", "AcctGatherProfileType", "AcctGatherFilesystemType", "ExtSensorsType",
		"PrioritySiteFactorPlugin"}
	check := func(key string, v Version, value string, wantOut want) {
		t.Helper()
		p, ok := Default().Lookup(ScopeGlobal, key)
		if !ok {
			t.Fatalf("%s not in the catalog", key)
		}
		if got := outcome(CheckValue(p, v, value)); got != wantOut {
			t.Errorf("%s=%s on %s: %s, want %s: %v", key, value, v, got, wantOut, CheckValue(p, v, value))
		}
	}
	for _, key := range prefixed {
		check(key, V2205, "none", clean)
		check(key, V2205, "none/none", errs)
		check(key, V2205, "NONE", errs)
	}
	for _, key := range whole {
		check(key, V2205, "none", errs)
	}
	for _, key := range []string{"JobContainerType", "AcctGatherEnergyType", "AcctGatherInterconnectType"} {
		check(key, V2411, "none", clean)
		check(key, V2605, "none", clean)
	}
}
