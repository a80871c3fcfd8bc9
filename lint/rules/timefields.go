package rules

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/schema/accounting"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// TimeMinutesSeconds reports time values written with two fields, which
// Slurm reads as minutes:seconds although they look like hours:minutes.
var TimeMinutesSeconds = &lint.Rule{
	ID:       "time-minutes-seconds",
	Severity: diag.Warning,
	Summary:  "A time limit of two fields reads as minutes:seconds, not hours:minutes",
	Doc: doc("Slurm reads a time of two fields, such as \"12:00\", as minutes:seconds (time_str2mins and "+
		"time_str2secs): MaxTime=12:00 in slurm.conf and MaxWall=12:00 in sacctmgr are twelve minutes, shown as "+
		"00:12:00, not twelve hours. This applies to the spec's time keys (MaxTime, DefaultTime, PreemptExemptTime, "+
		"PriorityDecayHalfLife, PriorityMaxAge, PriorityCalcPeriod) and to MaxWall in the accounting file. Write "+
		"hours:minutes:seconds (12:00:00) or days-hours (0-12) for hours, and plain minutes (12) for minutes.",
		"partitions:\n- {id: gpu, nodePoolIds: [a4], config: {MaxTime: \"12:00\"}}\n# accounting file\nqos: [{name: short, limits: {MaxWall: \"4:00\"}}]",
		"partitions:\n- {id: gpu, nodePoolIds: [a4], config: {MaxTime: \"12:00:00\"}}\n# accounting file\nqos: [{name: short, limits: {MaxWall: \"4:00:00\"}}]"),
	Check: func(p *lint.Pass) {
		cat := catalog.Default()
		spec := func(scope catalog.Scope, kvs []ir.KV) {
			for i := range kvs {
				kv := &kvs[i]
				if kv.Value.Unknown {
					continue
				}
				if param, ok := cat.Lookup(scope, kv.Key.Value); !ok || param.Kind != catalog.KindTime {
					continue
				}
				if msg, hint, ok := minutesSeconds(kv.Key.Value, kv.Value.Value); ok {
					reportValue(p, kv, hint, "%s", msg)
				}
			}
		}
		spec(catalog.ScopeGlobal, p.Cluster.Slurm.Config)
		for _, part := range p.Cluster.Slurm.Partitions {
			spec(catalog.ScopePartition, part.Config)
		}
		f := p.Options.Accounting
		if f == nil {
			return
		}
		acct := func(ls []accounting.Limit) {
			for _, l := range ls {
				if l.Key != "MaxWall" {
					continue
				}
				if msg, hint, ok := minutesSeconds(l.Key, l.Value.Text); ok {
					p.Report(l.Value.Pos, l.Value.Path, hint, "%s", msg)
				}
			}
		}
		for _, q := range f.QOS {
			acct(q.Limits)
		}
		for _, a := range f.Accounts {
			acct(a.Limits)
		}
	},
}

// minutesSeconds returns the finding and fix for a value of two fields
// whose first is at least 1 and whose second is below 60 (so it could be
// meant as hours:minutes); ok is false for any other value.
func minutesSeconds(key, value string) (msg, hint string, ok bool) {
	a, b, found := strings.Cut(strings.TrimSpace(value), ":")
	if !found || strings.ContainsAny(b, ":") {
		return "", "", false
	}
	m, err1 := strconv.Atoi(a)
	s, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || m < 1 || s < 0 || s >= 60 || strings.HasPrefix(a, "+") || strings.HasPrefix(b, "+") {
		return "", "", false
	}
	read := count(m, "minute")
	hours := count(m, "hour")
	if s > 0 {
		read += " " + count(s, "second")
		hours += " " + count(s, "minute")
	}
	keep := fmt.Sprintf("0:%02d:%02d to keep %s", m, s, read)
	if s == 0 {
		keep = fmt.Sprintf("%d for %s", m, read)
	}
	msg = fmt.Sprintf("%s=%s is %s, not %s: Slurm reads a time of two fields as minutes:seconds", key, value, read, hours)
	hint = fmt.Sprintf("write %d:%02d:00 for %s, or %s", m, s, hours, keep)
	return msg, hint, true
}

// count spells n units: "1 minute", "12 minutes".
func count(n int, unit string) string {
	return fmt.Sprintf("%d %s", n, plural(n, unit, unit+"s"))
}
