package catalog

import (
	"strings"
	"testing"
)

// TestSeverityPolicy checks every key and every token of the catalog, in
// every series, against the severity policy: a key's status and a token
// written alone get the severity PolicySeverity gives their treatment
// (CheckValue's most serious problem for a token that is refused or
// dropped; a dropped one gets warnings only).
func TestSeverityPolicy(t *testing.T) {
	want := map[Treatment]Severity{TreatRefused: SeverityError, TreatReplaced: SeverityError, TreatAsWritten: SeverityWarning, TreatDropped: SeverityWarning}
	for tr, sev := range want {
		if PolicySeverity(tr) != sev {
			t.Errorf("PolicySeverity(%s) = %s, want %s", tr, PolicySeverity(tr), sev)
		}
	}
	keys, tokens := 0, 0
	for _, sc := range Scopes() {
		for _, p := range Default().Params(sc) {
			for v := Oldest(); v <= Newest(); v++ {
				st := p.StatusIn(v)
				if st.Problem() && st.Status != StatusLine {
					keys++
					if st.Severity() != PolicySeverity(st.Status.Treatment()) {
						t.Errorf("%s %s in %s: %s is a %s, the policy says %s", sc, p.Name, v, st, st.Severity(), PolicySeverity(st.Status.Treatment()))
					}
				}
				if !p.PresentIn.Has(v) || (p.Kind != KindEnum && p.Kind != KindList && p.Kind != KindPlugin) {
					continue
				}
				for i := range p.Values {
					ev := &p.Values[i]
					tr := p.ValueTreatment(ev, v)
					if tr == TreatAsWritten || ev.Match == MatchTemplate || ev.TakesArg && !ev.ArgOptional || shadowed(p, ev, v) {
						continue
					}
					tokens++
					worst, any := SeverityWarning, false
					for _, pr := range CheckValue(p, v, ev.Name) {
						any = true
						worst = min(worst, pr.Severity)
					}
					if !any || worst != PolicySeverity(tr) {
						t.Errorf("%s %s=%s in %s is %s: CheckValue gives %v (a problem: %v), the policy says %s", sc, p.Name, ev.Name, v, tr, worst, any, PolicySeverity(tr))
					}
				}
			}
		}
	}
	t.Logf("%d key statuses and %d refused or dropped tokens checked", keys, tokens)
}

// shadowed reports whether another token of the key that series v has
// matches ev's name (task/none for TaskPlugin=none in 22.05), so that
// Slurm reads it as that one.
func shadowed(p *Param, ev *EnumValue, v Version) bool {
	for i := range p.Values {
		o := &p.Values[i]
		if o == ev || !o.PresentIn.Has(v) {
			continue
		}
		if o.Match == MatchContains && strings.Contains(strings.ToLower(ev.Name), strings.ToLower(o.Substr)) {
			return true
		}
		for _, pre := range p.OptionalPrefixes {
			if strings.EqualFold(strings.TrimPrefix(o.Name, pre), strings.TrimPrefix(ev.Name, pre)) {
				return true
			}
		}
	}
	return false
}
