package diff

// Effective values: what Slurm uses for a partition key, which is not
// always what the PartitionName line says.

import (
	"fmt"
	"strings"

	"github.com/slurmspec/slurmspec/schema/catalog"
)

// slurmDefaults are the values Slurm uses for a key of both scopes when
// neither the partition nor the global configuration sets it
// (slurm.conf(5) 26.05, each key's "default" sentence). A key missing here
// has a default slurmspec does not state, so its effective value is only
// known when one of the two lines sets it.
var slurmDefaults = map[string]string{
	"preemptmode":     "OFF",
	"defmempercpu":    "0",
	"defmempernode":   "0",
	"defmempergpu":    "0",
	"defcpupergpu":    "0",
	"maxmempercpu":    "0",
	"maxmempernode":   "0",
	"overtimelimit":   "0",
	"disablerootjobs": "NO",
}

// fallsBackToGlobal reports whether a partition key takes the global key
// of the same name when the partition does not set it: the keys the
// catalog has in both scopes (slurm.conf(5): the partition value
// "overrides" the global one).
func fallsBackToGlobal(key string) bool {
	if key == "" || strings.EqualFold(key, "Default") {
		return false
	}
	_, inPart := catalog.Default().Lookup(catalog.ScopePartition, key)
	_, inGlobal := catalog.Default().Lookup(catalog.ScopeGlobal, key)
	return inPart && inGlobal
}

// effective is the value Slurm uses for key in partition part of cf, and
// where it comes from; ok is false when slurmspec cannot tell (neither
// line sets it and the default is not in slurmDefaults).
func effective(cf *conf, part, key string) (value, from string, ok bool) {
	k := strings.ToLower(key)
	if a, set := cf.partitions[part][k]; set {
		return a.value, "the partition's own", true
	}
	if g := cf.global[k]; g != nil {
		return g.value(), "the global " + g.key, true
	}
	if d, known := slurmDefaults[k]; known {
		return d, "Slurm's default", true
	}
	return "", "", false
}

// explainEffective adds to each partition key change, of a key that
// falls back to the global one, what Slurm uses before and after. When
// that does not change (a partition's PreemptMode removed while the global
// PreemptMode is the same), the change is marked so and no longer said to
// hurt jobs: the line changes, the cluster's behaviour does not.
func (c *comparer) explainEffective(old, new *conf, from int) {
	for i := from; i < len(c.changes); i++ {
		ch := &c.changes[i]
		if ch.Kind != KindPartition || ch.Path == "" || ch.Key == "" || !fallsBackToGlobal(ch.Key) {
			continue
		}
		ov, ofrom, ok1 := effective(old, ch.Path, ch.Key)
		nv, nfrom, ok2 := effective(new, ch.Path, ch.Key)
		if !ok1 || !ok2 {
			continue
		}
		if strings.EqualFold(strings.TrimSpace(ov), strings.TrimSpace(nv)) {
			ch.Effective = fmt.Sprintf("unchanged (%s, now %s)", nv, nfrom)
			ch.HurtsJobs = ""
			continue
		}
		if ch.Op != OpChanged {
			ch.Effective = fmt.Sprintf("%s (%s) → %s (%s)", ov, ofrom, nv, nfrom)
		}
	}
}

// explainGlobalEffective adds to each change of a global key that
// partitions fall back to which partitions take it (those that set no
// value of their own, before or after). Slurm may read the global value
// elsewhere too (PreemptMode=GANG is global only; preempt/qos uses it for
// QOS without a mode), so a change no partition takes keeps what it says
// about jobs. SelectTypeParameters is left out: the global value sets the
// cluster's resource units, of which a partition may override only one.
func (c *comparer) explainGlobalEffective(old, new *conf, from int) {
	for i := from; i < len(c.changes); i++ {
		ch := &c.changes[i]
		if ch.Kind != KindGlobal || !fallsBackToGlobal(ch.Key) || strings.EqualFold(ch.Key, "SelectTypeParameters") || len(new.partitions)+len(old.partitions) == 0 {
			continue
		}
		k := strings.ToLower(ch.Key)
		var takers []string
		for _, p := range sortedKeys(new.partitions) {
			_, ownNew := new.partitions[p][k]
			_, ownOld := old.partitions[p][k]
			if !ownNew || !ownOld {
				takers = append(takers, p)
			}
		}
		if len(takers) == 0 {
			ch.Effective = fmt.Sprintf("no partition takes it: every partition sets its own %s", ch.Key)
			continue
		}
		ch.Effective = fmt.Sprintf("partitions that take it (no %s of their own): %s", ch.Key, strings.Join(takers, ", "))
	}
}
