package diff

// Which partition changes can preempt running jobs: checked with real jobs
// on Slurm 22.05, 24.11 and 26.05 (lab/localslurm/realslurm,
// TestPreemptionDiffWithJobs and TestPreemptionWithJobs).

import (
	"fmt"
	"math"
	"strconv"
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

// explainPreemption corrects what partition changes are said to do to
// running jobs. Under preempt/partition_prio, a partition that gains nodes
// may preempt the running jobs of lower-tier partitions on them
// (nodesHurt). Under any other PreemptType a tier or mode change preempts
// nothing, and what it was said to do is taken back (a change of
// PreemptType itself is a change of its own, which says so).
func (c *comparer) explainPreemption(new *conf, from int) {
	pt := preemptTypeOf(new)
	if pt == "partition_prio" {
		for i := from; i < len(c.changes); i++ {
			if ch := &c.changes[i]; ch.Kind == KindPartition && strings.EqualFold(ch.Key, "Nodes") && ch.HurtsJobs == "" {
				ch.HurtsJobs = nodesHurt(new, ch)
			}
		}
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

// nodesHurt says which running jobs a partition's Nodes change may preempt
// under preempt/partition_prio: those of every partition of a lower tier,
// whose jobs are preemptable, on the nodes (or node sets) the change adds.
// Seen with jobs: a high-tier partition extended over a low-tier
// partition's node requeues the job running there.
func nodesHurt(new *conf, ch *Change) string {
	added := map[string]bool{}
	for _, n := range listTokens(ch.New) {
		added[n] = true
	}
	for _, n := range listTokens(ch.Old) {
		delete(added, n)
	}
	if len(added) == 0 {
		return ""
	}
	tier := partitionTier(new.partitions[ch.Path])
	var victims []string
	for _, name := range sortedKeys(new.partitions) {
		a := new.partitions[name]
		if name == ch.Path || partitionTier(a) >= tier {
			continue
		}
		if mode, _, ok := effective(new, name, "PreemptMode"); ok && !modePreempts(mode) {
			continue
		}
		var on []string
		for _, n := range listTokens(a["nodes"].value) {
			if added[n] {
				on = append(on, n)
			}
		}
		if len(on) > 0 {
			victims = append(victims, fmt.Sprintf("%s (PriorityTier %d) on %s", name, partitionTier(a), strings.Join(on, ",")))
		}
	}
	if len(victims) == 0 {
		return ""
	}
	return fmt.Sprintf("running jobs of lower-tier partitions may be preempted by this one's (PriorityTier %d): %s (slurm.conf(5) 26.05 PriorityTier, PreemptType=preempt/partition_prio)",
		tier, strings.Join(victims, "; "))
}

// partitionTier is a partition's PriorityTier: Priority, the older alias,
// wins when both are set (as the partition line is read); the default is 1.
func partitionTier(a attrs) int64 {
	tier := int64(1)
	for _, k := range []string{"prioritytier", "priority"} {
		if v, ok := a[k]; ok {
			if n, err := strconv.ParseInt(strings.TrimSpace(v.value), 10, 64); err == nil {
				tier = n
			}
		}
	}
	return tier
}

// modePreempts reports whether a partition's effective PreemptMode lets
// its jobs be preempted: a base mode other than OFF, or GANG alone (22.05
// suspends such a partition's jobs). Modifiers alone leave the base OFF.
func modePreempts(mode string) bool {
	gang := false
	for _, t := range listTokens(strings.ToLower(mode)) {
		switch t {
		case "off", "cluster":
			return false
		case "cancel", "requeue", "suspend", "on":
			return true
		case "gang":
			gang = true
		}
	}
	return gang
}

// listTokens splits a comma-separated value into its trimmed, non-empty
// items.
func listTokens(v string) []string {
	var out []string
	for _, t := range strings.Split(v, ",") {
		if t = strings.TrimSpace(t); t != "" {
			out = append(out, t)
		}
	}
	return out
}
