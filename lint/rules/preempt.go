package rules

import (
	"fmt"
	"sort"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// Preemption and gang scheduling: constraints.md P1-P11.

// PreemptModeCombination reports PreemptMode values that preempt_mode_num
// rejects (P1).
var PreemptModeCombination = &lint.Rule{
	ID:       "preempt-mode-combination",
	Severity: diag.Error,
	Summary:  "PreemptMode gives two base modes, or combines GANG with WITHIN or PRIORITY",
	Doc: doc("PreemptMode takes one base mode (OFF, CANCEL, REQUEUE or SUSPEND) plus the modifiers GANG, "+
		"WITHIN and PRIORITY. Two base modes, or GANG together with WITHIN or PRIORITY, make slurmctld "+
		"refuse the configuration (globally) or the partition line (in a partition's config).",
		`config: {PreemptType: preempt/partition_prio, PreemptMode: "REQUEUE,CANCEL"}`,
		`config: {PreemptType: preempt/partition_prio, PreemptMode: REQUEUE}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		for _, m := range preemptModes(e) {
			if len(m.mode.bases) > 1 {
				reportValue(p, m.kv, "keep one of OFF, CANCEL, REQUEUE, SUSPEND; add GANG, WITHIN or PRIORITY as modifiers",
					"PreemptMode=%s gives %d base modes (%s); Slurm rejects it", m.kv.Value.Value, len(m.mode.bases), strings.Join(m.mode.bases, ", "))
			}
			if m.mode.gang && (m.mode.within || m.mode.priority) {
				reportValue(p, m.kv, "drop WITHIN/PRIORITY, or drop GANG",
					"PreemptMode=%s combines GANG with WITHIN or PRIORITY; Slurm rejects it", m.kv.Value.Value)
			}
		}
	},
}

// PreemptSuspendNeedsGang reports SUSPEND preemption without the gang
// scheduler, which is what resumes suspended jobs (P2).
var PreemptSuspendNeedsGang = &lint.Rule{
	ID:       "preempt-suspend-needs-gang",
	Severity: diag.Error,
	Summary:  "PreemptMode SUSPEND without GANG in the global PreemptMode",
	Doc: doc("Suspended jobs are resumed by the gang scheduler, which runs only when the global PreemptMode "+
		"includes GANG. slurmctld refuses a global PreemptMode=SUSPEND without GANG; a partition's "+
		"PreemptMode=SUSPEND without a global GANG suspends jobs that nothing resumes.",
		`config: {PreemptType: preempt/partition_prio, PreemptMode: SUSPEND}`,
		`config: {PreemptType: preempt/partition_prio, PreemptMode: "SUSPEND,GANG"}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		globalGang := parsePreemptMode(e.val("PreemptMode")).gang
		for _, m := range preemptModes(e) {
			if m.mode.base() != "suspend" || globalGang {
				continue
			}
			if m.part == nil {
				reportValue(p, m.kv, "write SUSPEND,GANG", "PreemptMode=%s: SUSPEND needs GANG at the global scope; Slurm rejects it", m.kv.Value.Value)
				continue
			}
			if e.preemptType() == "none" {
				continue // no preemption: partition-preempt-mode-ignored reports it
			}
			reportValue(p, m.kv, "add GANG to orchestratorSpec.slurmSpec.config.PreemptMode (e.g. SUSPEND,GANG or REQUEUE,GANG)",
				"partition %q suspends preempted jobs, but the global PreemptMode has no GANG, so nothing resumes them", m.part.ID.Value)
		}
	},
}

// PreemptModeWithoutType reports a preemption mode with no preemption
// plugin (P3).
var PreemptModeWithoutType = &lint.Rule{
	ID:       "preempt-mode-without-type",
	Severity: diag.Error,
	Summary:  "A global PreemptMode other than OFF while PreemptType is unset or preempt/none",
	Doc: doc("Without a PreemptType (or with preempt/none) the global PreemptMode, GANG aside, must be OFF; "+
		"slurmctld refuses anything else, WITHIN and PRIORITY included (OFF,WITHIN is refused).",
		`config: {PreemptMode: REQUEUE}`,
		`config: {PreemptType: preempt/partition_prio, PreemptMode: REQUEUE}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		kv := e.user("PreemptMode")
		if kv == nil || e.preemptType() != "none" {
			return
		}
		// read_config.c masks only GANG here: WITHIN and PRIORITY alone
		// are refused too ("PreemptType and PreemptMode values
		// incompatible", slurmctld 22.05 with PreemptMode=OFF,WITHIN).
		if m := parsePreemptMode(kv.Value.Value); m.base() != "off" || m.within || m.priority {
			hint := "set PreemptType: preempt/partition_prio (or preempt/qos), or PreemptMode: OFF"
			if m.gang {
				hint = "set PreemptType, or keep only GANG (PreemptMode: GANG) for time slicing without preemption"
			}
			reportValue(p, kv, hint, "PreemptMode=%s needs a PreemptType; with %s Slurm rejects it", kv.Value.Value, preemptTypeText(e))
		}
	},
}

func preemptTypeText(e *conf) string {
	if kv := e.user("PreemptType"); kv != nil {
		return "PreemptType=" + kv.Value.Value
	}
	return "PreemptType unset"
}

// PreemptTypeNeedsMode reports a preemption plugin whose global mode is OFF
// (P4).
var PreemptTypeNeedsMode = &lint.Rule{
	ID:       "preempt-type-needs-mode",
	Severity: diag.Error,
	Summary:  "PreemptType is partition_prio or qos but the global PreemptMode is OFF (the default)",
	Doc: doc("preempt/partition_prio and preempt/qos need a real global preemption mode: PreemptMode without "+
		"GANG, WITHIN and PRIORITY must not be OFF, and OFF is the default. slurmctld refuses the "+
		"configuration otherwise. Partition or QOS modes only override a valid global one.",
		`config: {PreemptType: preempt/qos}`,
		`config: {PreemptType: preempt/qos, PreemptMode: CANCEL}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		pt := e.preemptType()
		if pt != "partition_prio" && pt != "qos" {
			return
		}
		typ := e.user("PreemptType")
		if kv := e.user("PreemptMode"); kv != nil {
			if parsePreemptMode(kv.Value.Value).base() == "off" {
				reportValue(p, kv, "set a base mode: CANCEL, REQUEUE or SUSPEND,GANG",
					"PreemptMode=%s leaves preemption off, but PreemptType=%s needs a mode; Slurm rejects it", kv.Value.Value, typ.Value.Value)
			}
			return
		}
		reportValue(p, typ, "add PreemptMode: REQUEUE (or CANCEL, or SUSPEND,GANG) to the same config",
			"PreemptType=%s without a PreemptMode: the mode defaults to OFF and Slurm rejects the combination", typ.Value.Value)
	},
}

// PartitionPreemptGang reports GANG in a partition's PreemptMode (P5).
var PartitionPreemptGang = &lint.Rule{
	ID:       "partition-preempt-gang",
	Severity: diag.Error,
	Summary:  "A partition's PreemptMode includes GANG, which is cluster-wide only",
	Doc: doc("Gang scheduling is switched on by the global PreemptMode only. From 24.11 slurmctld drops GANG "+
		"from a partition's PreemptMode with an error (GANG alone then leaves the partition's mode OFF: its jobs "+
		"are never preempted); older releases ignore it beside a base mode, and suspend the partition's jobs "+
		"when it stands alone.",
		"partitions:\n- id: batch\n  nodePoolIds: [cpu]\n  config: {PreemptMode: \"SUSPEND,GANG\"}",
		"config: {PreemptType: preempt/partition_prio, PreemptMode: \"SUSPEND,GANG\"}\npartitions:\n- id: batch\n  nodePoolIds: [cpu]\n  config: {PreemptMode: SUSPEND}"),
	Check: func(p *lint.Pass) {
		e := effective(p)
		for _, m := range preemptModes(e) {
			if m.part == nil || !m.mode.gang {
				continue
			}
			// Checked with jobs (lab/localslurm/realslurm/preempt_test.go):
			// 22.05 ignores GANG beside a base mode but suspends the jobs
			// of a partition whose mode is GANG alone; 24.11 and 26.05 drop
			// it, and a mode of GANG alone becomes OFF.
			sev := diag.Error
			what := "slurmctld drops it with an error"
			if len(m.mode.bases) == 0 {
				what += ", which leaves the partition's PreemptMode OFF: its jobs are never preempted"
			}
			if e.v < catalog.V2411 {
				sev, what = diag.Warning, "Slurm "+e.v.String()+" ignores it"
				if len(m.mode.bases) == 0 {
					what = "Slurm " + e.v.String() + " suspends the partition's jobs for it (gang scheduling), whatever the global PreemptMode says"
				}
			}
			reportValueAs(p, sev, m.kv, "remove GANG here and add it to orchestratorSpec.slurmSpec.config.PreemptMode",
				"partition %q: GANG in a partition's PreemptMode is cluster-wide only; %s", m.part.ID.Value, what)
		}
	},
}

// partitionTier returns a partition's PriorityTier: the Priority alias
// wins over PriorityTier, as in _parse_partitionname; the default is 1.
func partitionTier(part *ir.Partition) int64 {
	tier := int64(1)
	if kv := lookupKV(part.Config, "PriorityTier"); kv != nil {
		if n, ok := slurmNum(catalog.ScopePartition, "PriorityTier", kv.Value.Value); ok {
			tier = n
		}
	}
	if kv := lookupKV(part.Config, "Priority"); kv != nil {
		if n, ok := slurmNum(catalog.ScopePartition, "Priority", kv.Value.Value); ok {
			tier = n
		}
	}
	return tier
}

// partitionPreemptable reports whether preempt/partition_prio preempts
// the jobs of a partition whose own PreemptMode is m, on release v. A mode
// without a base mode (GANG, WITHIN or PRIORITY alone) leaves the base
// OFF: checked with jobs (lab/localslurm/realslurm/preempt_test.go), a
// partition with PreemptMode=GANG or WITHIN keeps its jobs running on
// 24.11 and 26.05, while 22.05 suspends a GANG partition's jobs (the gang
// scheduler does).
func partitionPreemptable(m preemptMode, v catalog.Version) bool {
	if len(m.bases) == 0 {
		return m.gang && v < catalog.V2411
	}
	return !(len(m.bases) == 1 && m.bases[0] == "off")
}

// PreemptionNeverFires reports partition_prio preemption that no pair of
// partitions can trigger (P6).
var PreemptionNeverFires = &lint.Rule{
	ID:       "preemption-never-fires",
	Severity: diag.Warning,
	Summary:  "preempt/partition_prio is set but no two partitions sharing a node pool differ in PriorityTier",
	Doc: doc("With preempt/partition_prio a job preempts another only when its partition's PriorityTier is "+
		"strictly higher, the two partitions share nodes, and the lower partition's PreemptMode is not OFF (a "+
		"partition mode of modifiers alone, such as WITHIN, is OFF; GANG alone is OFF from 24.11). "+
		"When no pair of partitions that share a node pool qualifies, preemption is configured but can never "+
		"happen. A spec with a single partition is taken as one still being built and is not reported.",
		"config: {PreemptType: preempt/partition_prio, PreemptMode: REQUEUE}\npartitions:\n- {id: urgent, nodePoolIds: [a4]}\n- {id: batch, nodePoolIds: [a4]}",
		"config: {PreemptType: preempt/partition_prio, PreemptMode: REQUEUE}\npartitions:\n- {id: urgent, nodePoolIds: [a4], config: {PriorityTier: \"10\"}}\n- {id: batch, nodePoolIds: [a4]}"),
	Check: func(p *lint.Pass) {
		e := effective(p)
		typ := e.user("PreemptType")
		parts := p.Cluster.Slurm.Partitions
		if typ == nil || e.preemptType() != "partition_prio" || len(parts) < 2 || p.Cluster.PartitionsUnknown() {
			return
		}
		// Per node pool: the highest tier of any partition on it, and the
		// lowest tier of a preemptable partition on it. Linear in the
		// number of nodePoolIds entries.
		type span struct {
			max, minPreemptable int64
			havePreemptable     bool
		}
		pools := map[string]*span{}
		tiers := map[int64]bool{}
		for _, part := range parts {
			if p.Cluster.ConfigUnknown(part.Path+".config", part.Config) {
				return // the schema refused the tier or mode this rule reads
			}
			tier := partitionTier(part)
			tiers[tier] = true
			preemptable := true
			if kv := lookupKV(part.Config, "PreemptMode"); kv != nil {
				preemptable = partitionPreemptable(parsePreemptMode(kv.Value.Value), e.v)
			}
			for _, ref := range part.NodePoolIDs {
				s := pools[ref.Value]
				if s == nil {
					s = &span{max: tier, minPreemptable: tier}
					pools[ref.Value] = s
				}
				s.max = max(s.max, tier)
				if preemptable {
					if !s.havePreemptable || tier < s.minPreemptable {
						s.minPreemptable = tier
					}
					s.havePreemptable = true
				}
			}
		}
		for _, s := range pools {
			if s.havePreemptable && s.max > s.minPreemptable {
				return
			}
		}
		var why, hint string
		switch {
		case len(tiers) == 1:
			why = fmt.Sprintf("every partition has PriorityTier %d", partitionTier(parts[0]))
			hint = "give the partition whose jobs may preempt a higher PriorityTier (e.g. config: {PriorityTier: \"10\"}) and let it share a node pool with the others"
		default:
			why = "no two partitions that share a node pool differ in PriorityTier (with the lower one's PreemptMode not OFF)"
			hint = "list the node pools to share in both partitions' nodePoolIds, or give partitions on the same pool different PriorityTier values"
		}
		reportValue(p, typ, hint, "PreemptType=%s, but %s: preemption can never happen", typ.Value.Value, why)
	},
}

// PreemptPriorityBasic reports the PRIORITY modifier under priority/basic
// (P7).
var PreemptPriorityBasic = &lint.Rule{
	ID:       "preempt-priority-basic",
	Severity: diag.Warning,
	Summary:  "PreemptMode PRIORITY with PriorityType=priority/basic blocks nearly all preemption",
	Doc: doc("With the PRIORITY modifier a job may only preempt jobs of lower job priority. priority/basic "+
		"gives every job a lower priority than the jobs submitted before it, so a pending job almost never "+
		"outranks the running jobs it would preempt.",
		`config: {PriorityType: priority/basic, PreemptType: preempt/qos, PreemptMode: "REQUEUE,PRIORITY"}`,
		`config: {PriorityType: priority/multifactor, PreemptType: preempt/qos, PreemptMode: "REQUEUE,PRIORITY"}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		if e.v < catalog.V2505 || !pluginIs(e.val("PriorityType"), "priority/basic") {
			// Before 25.05 PRIORITY does not exist (invalid-config-value).
			return
		}
		for _, m := range preemptModes(e) {
			if m.mode.priority {
				reportValue(p, m.kv, "use PriorityType: priority/multifactor, or drop PRIORITY",
					"PreemptMode=%s: with priority/basic a newer job never has a higher priority than a running one, so PRIORITY blocks preemption", m.kv.Value.Value)
			}
		}
	},
}

// PartitionPreemptModeIgnored reports partition PreemptMode settings that
// the preemption plugin never reads (P8 and P3).
var PartitionPreemptModeIgnored = &lint.Rule{
	ID:       "partition-preempt-mode-ignored",
	Severity: diag.Warning,
	Summary:  "A partition sets PreemptMode but PreemptType is not preempt/partition_prio",
	Doc: doc("Only preempt/partition_prio reads a partition's PreemptMode. preempt/qos takes the mode from the "+
		"job's QOS (sacctmgr) or the global PreemptMode, and without a PreemptType nothing is preempted at all.",
		"config: {PreemptType: preempt/qos, PreemptMode: REQUEUE}\npartitions:\n- {id: batch, nodePoolIds: [cpu], config: {PreemptMode: CANCEL}}",
		"config: {PreemptType: preempt/qos, PreemptMode: REQUEUE}\npartitions:\n- {id: batch, nodePoolIds: [cpu]}\n# sacctmgr modify qos batch set PreemptMode=cancel"),
	Check: func(p *lint.Pass) {
		e := effective(p)
		pt := e.preemptType()
		if pt == "partition_prio" {
			return
		}
		for _, m := range preemptModes(e) {
			if m.part == nil || (m.mode.base() == "off" && len(m.mode.bases) > 0) || len(m.mode.bases) == 0 {
				continue
			}
			if pt == "qos" {
				reportValue(p, m.kv, "set the mode on the QOS with sacctmgr, or switch to PreemptType: preempt/partition_prio",
					"partition %q sets PreemptMode, but preempt/qos takes the mode from the QOS or the global PreemptMode", m.part.ID.Value)
				continue
			}
			reportValue(p, m.kv, "set PreemptType: preempt/partition_prio and a global PreemptMode, or remove it",
				"partition %q sets PreemptMode=%s, but %s: nothing is preempted", m.part.ID.Value, m.kv.Value.Value, preemptTypeText(e))
		}
	},
}

// GangTimeSlice reports SchedulerTimeSlice values that have no effect (P9).
var GangTimeSlice = &lint.Rule{
	ID:       "gang-time-slice",
	Severity: diag.Warning,
	Summary:  "SchedulerTimeSlice is below 5 seconds or set without GANG scheduling",
	Doc: doc("SchedulerTimeSlice is the gang scheduler's slice length. The gang scheduler runs only when the "+
		"global PreemptMode includes GANG (a warning otherwise), and a slice below 5 seconds is reset to 30 with an "+
		"error line (an error here: the value written is not used).",
		`config: {SchedulerTimeSlice: "2"}`,
		`config: {PreemptMode: GANG, SchedulerTimeSlice: "60"}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		kv := e.user("SchedulerTimeSlice")
		if kv == nil {
			return
		}
		if n, ok := slurmUint(kv); ok && n < 5 {
			// Reset with an error line ("SchedulerTimeSlice must be at
			// least 5 seconds"): the value written is not used.
			reportValueAs(p, diag.Error, kv, "use at least 5 seconds", "SchedulerTimeSlice=%s is below 5 seconds: slurmctld logs an error and uses 30", kv.Value.Value)
			return
		}
		if !parsePreemptMode(e.val("PreemptMode")).gang {
			reportValue(p, kv, "add GANG to the global PreemptMode, or remove SchedulerTimeSlice",
				"SchedulerTimeSlice has no effect: the global PreemptMode has no GANG, so the gang scheduler does not run")
		}
	},
}

// PreemptExemptTime reports a PreemptExemptTime Slurm cannot parse or that
// nothing reads (P10).
var PreemptExemptTime = &lint.Rule{
	ID:       "preempt-exempt-time",
	Severity: diag.Error,
	Summary:  "PreemptExemptTime is not a valid time string, or is set without preemption",
	Doc: doc("PreemptExemptTime must parse as a Slurm time string (minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, "+
		"D-HH:MM:SS); slurmctld refuses anything else. It only matters when a PreemptType is set.",
		`config: {PreemptType: preempt/partition_prio, PreemptMode: REQUEUE, PreemptExemptTime: 10m}`,
		`config: {PreemptType: preempt/partition_prio, PreemptMode: REQUEUE, PreemptExemptTime: "00:10:00"}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		kv := e.user("PreemptExemptTime")
		if kv == nil {
			return
		}
		if param, ok := catalog.Default().Lookup(catalog.ScopeGlobal, "PreemptExemptTime"); ok {
			if probs := catalog.CheckValue(param, e.v, kv.Value.Value); len(probs) > 0 {
				for _, pr := range probs {
					reportValueAs(p, problemSeverity(pr), kv, hintOr(pr.Hint, "write e.g. 00:10:00 or 10 (minutes)"), "%s", pr.Message)
				}
				return
			}
		}
		if e.preemptType() == "none" {
			reportValueAs(p, diag.Warning, kv, "set PreemptType, or remove PreemptExemptTime",
				"PreemptExemptTime has no effect: %s", preemptTypeText(e))
		}
	},
}

// legacyPreempt maps old homes of preemption options to PreemptParameters.
var legacyPreempt = []struct{ key, token, repl string }{
	{"SchedulerParameters", "preempt_strict_order", "strict_order"},
	{"SchedulerParameters", "preempt_reorder_count", "reorder_count="},
	{"SchedulerParameters", "preempt_youngest_first", "youngest_first"},
	{"SlurmctldParameters", "preempt_send_user_signal", "send_user_signal"},
}

// PreemptLegacyParameters reports preemption options in their pre-23.02
// homes (P11).
var PreemptLegacyParameters = &lint.Rule{
	ID:       "preempt-legacy-parameters",
	Severity: diag.Warning,
	Summary:  "A preemption option is set in SchedulerParameters or SlurmctldParameters instead of PreemptParameters",
	Doc: doc("From 23.02 PreemptParameters holds strict_order, reorder_count=, youngest_first and "+
		"send_user_signal. The old spellings in SchedulerParameters (preempt_*) and SlurmctldParameters "+
		"(preempt_send_user_signal) still work but are kept only for compatibility.",
		`config: {SchedulerParameters: "preempt_youngest_first"}`,
		`config: {PreemptParameters: "youngest_first"}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		if e.v < catalog.V2302 {
			return
		}
		for _, l := range legacyPreempt {
			kv := e.user(l.key)
			if kv == nil || !hasToken(kv.Value.Value, l.token) {
				continue
			}
			reportValue(p, kv, "move it to PreemptParameters: "+l.repl,
				"%s=%s: %s is the legacy spelling of PreemptParameters %s", l.key, kv.Value.Value, l.token, strings.TrimSuffix(l.repl, "="))
		}
	},
}

// PreemptRequeueDisabled reports REQUEUE preemption with JobRequeue=0.
var PreemptRequeueDisabled = &lint.Rule{
	ID:       "preempt-requeue-disabled",
	Severity: diag.Warning,
	Summary:  "PreemptMode REQUEUE with JobRequeue=0: preempted jobs are cancelled",
	Doc: doc("REQUEUE preemption requeues a job only if it may be requeued: submitted with --requeue, or "+
		"JobRequeue=1 cluster-wide (the default). With JobRequeue=0 other preempted jobs are cancelled.",
		`config: {PreemptType: preempt/partition_prio, PreemptMode: REQUEUE, JobRequeue: "0"}`,
		`config: {PreemptType: preempt/partition_prio, PreemptMode: REQUEUE}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		jr := e.user("JobRequeue")
		if jr == nil || jr.Value.Value != "0" {
			return
		}
		for _, m := range preemptModes(e) {
			if m.mode.base() == "requeue" {
				reportValue(p, jr, "remove JobRequeue=0, or use PreemptMode: CANCEL to say what happens",
					"JobRequeue=0 and PreemptMode=%s (%s): jobs not submitted with --requeue are cancelled when preempted", m.kv.Value.Value, m.kv.Key.Path)
				return
			}
		}
	},
}

// PreemptSuspendMemory reports SUSPEND preemption without memory tracking.
var PreemptSuspendMemory = &lint.Rule{
	ID:       "preempt-suspend-memory",
	Severity: diag.Warning,
	Summary:  "PreemptMode SUSPEND while SelectTypeParameters does not track memory",
	Doc: doc("Suspended jobs keep their memory. Slurm must track memory (SelectTypeParameters with a _Memory "+
		"unit, as the service default CR_Core_Memory has) so that a preemptor does not overcommit the node.",
		`config: {PreemptType: preempt/partition_prio, PreemptMode: "SUSPEND,GANG", SelectTypeParameters: CR_Core}`,
		`config: {PreemptType: preempt/partition_prio, PreemptMode: "SUSPEND,GANG", SelectTypeParameters: CR_Core_Memory}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		if e.memoryTracked() {
			return
		}
		for _, m := range preemptModes(e) {
			if m.mode.base() == "suspend" {
				stp := e.user("SelectTypeParameters")
				at := m.kv
				if stp != nil {
					at = stp
				}
				reportValue(p, at, "use a memory-tracking unit such as CR_Core_Memory",
					"PreemptMode=%s suspends jobs, but SelectTypeParameters=%s does not track memory", m.kv.Value.Value, e.val("SelectTypeParameters"))
				return
			}
		}
	},
}

// sortedKeys returns the keys of a set, sorted.
func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
