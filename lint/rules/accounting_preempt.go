package rules

import (
	"strings"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/lint"
)

// QOSPreemptModeUnset reports, under preempt/qos, a preempted QOS without
// a preemptMode of its own while partitions set modes that do not apply.
var QOSPreemptModeUnset = &lint.Rule{
	ID:       "qos-preempt-mode-unset",
	Severity: diag.Warning,
	Summary:  "Under preempt/qos a preempted QOS has no preemptMode, and a partition's PreemptMode, which does not apply, differs from the global one",
	Doc: doc("Under PreemptType=preempt/qos a preempted job stops with the PreemptMode of its own QOS, or, when the QOS "+
		"has none (unset, cluster or off), with the global PreemptMode; a partition's PreemptMode is not consulted "+
		"(preempt/qos's _job_preempt_mode; preempt/partition_prio reads the partition's instead). A partition that says "+
		"PreemptMode=REQUEUE while the global mode is CANCEL then cancels the preempted QOS's jobs: give the QOS the mode "+
		"meant.",
		"config: {PreemptType: preempt/qos, PreemptMode: CANCEL}\npartitions:\n- {id: spot, nodePoolIds: [cpu], config: {PreemptMode: REQUEUE}}\n"+
			"# accounting file\nqos: [{name: urgent, preempt: [scavenger]}, {name: scavenger}]",
		"config: {PreemptType: preempt/qos, PreemptMode: CANCEL}\npartitions:\n- {id: spot, nodePoolIds: [cpu], config: {PreemptMode: REQUEUE}}\n"+
			"# accounting file\nqos: [{name: urgent, preempt: [scavenger]}, {name: scavenger, preemptMode: requeue}]"),
	Check: func(p *lint.Pass) {
		f := p.Options.Accounting
		e := effective(p)
		if f == nil || e.preemptType() != "qos" {
			return
		}
		global := parsePreemptMode(e.val("PreemptMode")).base()
		var differ []string
		for _, m := range preemptModes(e) {
			if m.part != nil && m.mode.base() != global {
				differ = append(differ, m.part.ID.Value+" ("+m.kv.Value.Value+")")
			}
		}
		if len(differ) == 0 {
			return
		}
		own := map[string]bool{}
		for _, q := range f.QOS {
			if m := strings.ToLower(q.PreemptMode.Text); m != "" && m != "cluster" && m != "off" {
				own[q.Name.Text] = true
			}
		}
		for _, q := range f.QOS {
			for _, v := range q.Preempt {
				if own[v.Text] || v.Text == q.Name.Text {
					continue
				}
				p.Report(v.Pos, v.Path, "set preemptMode on QOS "+v.Text+" to the mode meant: under preempt/qos only QOS modes and the global one apply",
					"QOS %q preempts %q, whose jobs stop with the global PreemptMode=%s: under preempt/qos the PreemptMode of partition %s does not apply",
					q.Name.Text, v.Text, strings.ToUpper(global), strings.Join(differ, ", "))
			}
		}
	},
}
