package diff

// Which partition changes can preempt running jobs: checked with real jobs
// on Slurm 22.05, 24.11 and 26.05 (lab/localslurm/realslurm,
// TestPreemptionDiffWithJobs and TestPreemptionWithJobs).

import (
	"math"
	"strings"

	"github.com/slurmspec/slurmspec/schema/catalog"
)

// partitionPreemptKeys are the partition keys that only
// preempt/partition_prio reads for preemption: a partition's tier decides
// which jobs it may preempt, its PreemptMode what happens to its own. With
// another PreemptType (none, or preempt/qos, which takes the mode from the
// QOS or the global PreemptMode) changing them preempts nothing.
var partitionPreemptKeys = []string{"PriorityTier", "Priority", "PreemptMode"}

// preemptTypeOf is the PreemptType a configuration runs with, normalised
// ("partition_prio", "qos"; "none" when unset).
func preemptTypeOf(cf *conf) string {
	g := cf.global["preempttype"]
	if g == nil {
		return "none"
	}
	v := strings.TrimPrefix(strings.ToLower(strings.TrimSpace(g.value())), "preempt/")
	if v == "" {
		return "none"
	}
	return v
}

// explainPreemption takes back what a partition tier or mode change is said
// to do to running jobs when the new configuration's PreemptType is not
// preempt/partition_prio: such a change then preempts nothing (a change of
// PreemptType itself is a change of its own, which says so).
func (c *comparer) explainPreemption(new *conf, from int) {
	pt := preemptTypeOf(new)
	if pt == "partition_prio" {
		return
	}
	for i := from; i < len(c.changes); i++ {
		ch := &c.changes[i]
		if ch.Kind != KindPartition || ch.HurtsJobs == "" || !isPartitionPreemptKey(ch.Key) {
			continue
		}
		ch.HurtsJobs = ""
		what := "PreemptType is unset"
		if g := new.global["preempttype"]; g != nil {
			what = "PreemptType=" + g.value()
		}
		ch.Reason += "; it preempts no running job: " + what + ", and only preempt/partition_prio preempts by partition " + ch.Key
	}
}

func isPartitionPreemptKey(key string) bool {
	for _, k := range partitionPreemptKeys {
		if strings.EqualFold(k, key) {
			return true
		}
	}
	return false
}

// exemptHurts says what a change of the global PreemptExemptTime does to
// running jobs: when it shortens the time (or removes it; the default is
// 0), a running job that has run longer than the new time may be preempted
// at once, since Slurm applies the key to running jobs when it is read
// again (seen with jobs after `scontrol reconfigure`). A longer time hurts
// no job. "" when the change is of another key or does not shorten it.
func exemptHurts(ch *Change) string {
	if ch.Kind != KindGlobal || !strings.EqualFold(ch.Key, "PreemptExemptTime") {
		return ""
	}
	if exemptSeconds(ch.New) >= exemptSeconds(ch.Old) {
		return ""
	}
	return "running jobs that have run longer than the new PreemptExemptTime may be preempted at once (slurm.conf(5) 26.05 PreemptExemptTime)"
}

// exemptSeconds reads a PreemptExemptTime value as slurmctld does
// (time_str2secs); unset is 0, and no limit or a value Slurm refuses counts
// as the longest time.
func exemptSeconds(v string) int64 {
	if strings.TrimSpace(v) == "" {
		return 0
	}
	s, ok := catalog.ParseTimeSeconds(strings.TrimSpace(v))
	if !ok || s == catalog.Infinite {
		return math.MaxInt64
	}
	return s
}
