package lint_test

import (
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/diag/ids"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/lint"
)

var guardCatalog = ids.MustNew(lint.Entries(guardRules))

var guardRules = []*lint.Rule{
	{ID: "guarded", Severity: diag.Error, Guard: "it keeps render safe", Summary: "s", Doc: "d", Check: func(p *lint.Pass) {
		p.Report(diag.Pos{File: "s.yaml", Line: 1, Col: 1}, "x", "fix it", "found")
	}},
	{ID: "plain", Severity: diag.Warning, Summary: "s", Doc: "d", Check: func(p *lint.Pass) {
		p.Report(diag.Pos{File: "s.yaml", Line: 1, Col: 1}, "x", "fix it", "found")
	}},
}

// TestGuardedRulesCannotBeSilenced: disabling a guarded rule, or lowering
// its severity, is refused, from the flag and from a project config; Run
// runs it even when a caller disables it (#15.3).
func TestGuardedRulesCannotBeSilenced(t *testing.T) {
	if err := lint.CheckOverrides(guardCatalog, []string{"guarded"}, nil); err == nil || !strings.Contains(err.Error(), "it keeps render safe") {
		t.Errorf("disable: %v", err)
	}
	for _, sev := range []diag.Severity{diag.Warning, diag.Info} {
		if err := lint.CheckOverrides(guardCatalog, nil, map[string]diag.Severity{"guarded": sev}); err == nil {
			t.Errorf("lowering to %v accepted", sev)
		}
	}
	if err := lint.CheckOverrides(guardCatalog, []string{"plain"}, map[string]diag.Severity{"guarded": diag.Error, "plain": diag.Info}); err != nil {
		t.Errorf("allowed overrides refused: %v", err)
	}
	for _, src := range []string{"disable: [guarded]\n", "severity: {guarded: info}\n", "severity: {guarded: warning}\n"} {
		pc, err := lint.ParseProjectConfig(".slurmspec.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if err := pc.Check(guardCatalog); err == nil || !strings.Contains(err.Error(), "guarded cannot be") {
			t.Errorf("%q: %v", src, err)
		}
		if _, err := pc.Apply(lint.Config{}, guardCatalog); err == nil {
			t.Errorf("%q: Apply accepted it", src)
		}
	}
	l := lint.Run(&ir.Cluster{}, guardRules, lint.Config{Disabled: map[string]bool{"guarded": true, "plain": true}})
	if len(l) != 1 || l[0].Rule != "guarded" {
		t.Errorf("Run with both disabled: %v", l)
	}
	if err := lint.Validate([]*lint.Rule{{ID: "weak", Severity: diag.Warning, Guard: "x", Summary: "s", Doc: "Bad: Good:", Check: func(*lint.Pass) {}}}); err == nil {
		t.Error("a guarded warning passed Validate")
	}
}
