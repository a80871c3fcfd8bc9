package rules

import (
	"strings"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// Tasks, process tracking, prolog flags and containment: constraints.md
// T1-T14 (T1, T6, T13's UsePss/NoShared pair and T14 are checked inside
// one value by invalid-config-value).

// taskCgroup reports whether a TaskPlugin value loads task/cgroup (the
// "task/" prefix is optional).
func taskCgroup(v string) bool { return hasToken(v, "task/cgroup", "cgroup") }

// contained reports whether PrologFlags turns on Contain (RunInJob and X11
// imply it).
func contained(flags string) bool { return hasToken(flags, "contain", "runinjob", "x11") }

// OOMKillStepNeedsCgroup reports TaskPluginParam=OOMKillStep without
// task/cgroup (T2).
var OOMKillStepNeedsCgroup = &lint.Rule{
	ID:       "oom-kill-step-needs-cgroup",
	Severity: diag.Error,
	Summary:  "TaskPluginParam=OOMKillStep without task/cgroup in TaskPlugin",
	Doc: doc("OOMKillStep relies on task/cgroup; slurmctld rejects it otherwise. The service default TaskPlugin "+
		"(task/cgroup,task/affinity) has it, but a TaskPlugin in the spec replaces the default.",
		`config: {TaskPlugin: task/affinity, TaskPluginParam: OOMKillStep}`,
		`config: {TaskPlugin: "task/cgroup,task/affinity", TaskPluginParam: OOMKillStep}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		kv := e.user("TaskPluginParam")
		if kv == nil || !hasToken(kv.Value.Value, "oomkillstep") || taskCgroup(e.val("TaskPlugin")) {
			return
		}
		reportValue(p, kv, "add task/cgroup to TaskPlugin", "TaskPluginParam=OOMKillStep needs task/cgroup, but TaskPlugin=%s: slurmctld rejects it", e.val("TaskPlugin"))
	},
}

// SlurmdSpecOverride reports TaskPluginParam=SlurmdSpecOverride without its
// requirements (T3).
var SlurmdSpecOverride = &lint.Rule{
	ID:       "slurmd-spec-override",
	Severity: diag.Error,
	Summary:  "TaskPluginParam=SlurmdSpecOverride without task/cgroup and select/cons_tres, or with SlurmdOffSpec",
	Doc: doc("SlurmdSpecOverride needs TaskPlugin task/cgroup and SelectType select/cons_tres (both service "+
		"defaults) and excludes SlurmdOffSpec; slurmctld rejects anything else.",
		`config: {TaskPluginParam: "SlurmdSpecOverride,SlurmdOffSpec"}`,
		`config: {TaskPluginParam: SlurmdSpecOverride}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		kv := e.user("TaskPluginParam")
		if kv == nil || !hasToken(kv.Value.Value, "slurmdspecoverride") {
			return
		}
		switch {
		case hasToken(kv.Value.Value, "slurmdoffspec"):
			reportValue(p, kv, "keep one of SlurmdSpecOverride and SlurmdOffSpec", "TaskPluginParam: SlurmdSpecOverride and SlurmdOffSpec exclude each other; slurmctld rejects it")
		case !taskCgroup(e.val("TaskPlugin")):
			reportValue(p, kv, "add task/cgroup to TaskPlugin", "TaskPluginParam=SlurmdSpecOverride needs task/cgroup, but TaskPlugin=%s", e.val("TaskPlugin"))
		case !strings.Contains(strings.ToLower(e.val("SelectType")), "cons_tres"):
			reportValue(p, kv, "use SelectType select/cons_tres", "TaskPluginParam=SlurmdSpecOverride needs select/cons_tres, but SelectType=%s", e.val("SelectType"))
		}
	},
}

// PrologX11Linuxproc reports X11 forwarding with proctrack/linuxproc (T7).
var PrologX11Linuxproc = &lint.Rule{
	ID:       "prolog-x11-linuxproc",
	Severity: diag.Error,
	Summary:  "PrologFlags=X11 with ProctrackType=proctrack/linuxproc",
	Doc: doc("X11 forwarding needs the job's processes contained; with proctrack/linuxproc slurmctld exits.",
		`config: {PrologFlags: X11, ProctrackType: proctrack/linuxproc}`,
		`config: {PrologFlags: X11}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		if !e.has("PrologFlags", "x11") || !strings.EqualFold(e.val("ProctrackType"), "proctrack/linuxproc") {
			return
		}
		kv, _ := e.userAnchor("ProctrackType", "PrologFlags")
		reportValue(p, kv, "use proctrack/cgroup (the service default)", "PrologFlags=X11 cannot be combined with proctrack/linuxproc: slurmctld exits")
	},
}

// PrologContainProctrack reports Contain without proctrack/cgroup (T8).
var PrologContainProctrack = &lint.Rule{
	ID:       "prolog-contain-proctrack",
	Severity: diag.Warning,
	Summary:  "PrologFlags=Contain (or RunInJob, X11) without ProctrackType=proctrack/cgroup",
	Doc: doc("Contain creates the job's extern step for pam_slurm_adopt, which needs proctrack/cgroup (the "+
		"service default); slurmctld logs an error with any other ProctrackType.",
		`config: {PrologFlags: Contain, ProctrackType: proctrack/pgid}`,
		`config: {PrologFlags: Contain}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		if !contained(e.val("PrologFlags")) || strings.EqualFold(e.val("ProctrackType"), "proctrack/cgroup") {
			return
		}
		if e.has("PrologFlags", "x11") && strings.EqualFold(e.val("ProctrackType"), "proctrack/linuxproc") {
			return // prolog-x11-linuxproc reports the fatal combination
		}
		kv, _ := e.userAnchor("ProctrackType", "PrologFlags")
		reportValue(p, kv, "use proctrack/cgroup", "PrologFlags=%s with ProctrackType=%s: pam_slurm_adopt needs proctrack/cgroup", e.val("PrologFlags"), e.val("ProctrackType"))
	},
}

// PrologSerialRunInJob reports Serial with RunInJob (T9).
var PrologSerialRunInJob = &lint.Rule{
	ID:       "prolog-serial-runinjob",
	Severity: diag.Warning,
	Summary:  "PrologFlags combines Serial with RunInJob",
	Doc: doc("From 24.05 Slurm flags Serial and RunInJob as incompatible and logs an error.",
		`config: {PrologFlags: "Serial,RunInJob"}`,
		`config: {PrologFlags: RunInJob}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		kv := e.user("PrologFlags")
		if kv == nil || e.v < catalog.V2405 || !hasToken(kv.Value.Value, "serial") || !hasToken(kv.Value.Value, "runinjob") {
			return
		}
		reportValue(p, kv, "drop Serial or RunInJob", "PrologFlags=%s: Serial is incompatible with RunInJob", kv.Value.Value)
	},
}

// NamespaceNeedsContain reports a namespace plugin without PrologFlags
// Contain (T10).
var NamespaceNeedsContain = &lint.Rule{
	ID:       "namespace-needs-contain",
	Severity: diag.Error,
	Summary:  "NamespaceType (or JobContainerType tmpfs) without PrologFlags=Contain",
	Doc: doc("Job namespaces are built in the job's extern step. From 25.11 any NamespaceType (or its legacy "+
		"name JobContainerType) needs PrologFlags=Contain; 22.05-25.05 need it for job_container/tmpfs. "+
		"slurmctld exits otherwise.",
		`config: {NamespaceType: namespace/linux}`,
		`config: {NamespaceType: namespace/linux, PrologFlags: Contain}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		if contained(e.val("PrologFlags")) {
			return
		}
		kv, _ := e.userAnchor("NamespaceType", "JobContainerType")
		if kv == nil {
			return
		}
		v := strings.ToLower(kv.Value.Value)
		need := strings.Contains(v, "tmpfs")
		if e.v >= catalog.V2511 {
			need = !strings.Contains(v, "none")
		}
		if need {
			reportValue(p, kv, "add PrologFlags: Contain", "%s=%s needs PrologFlags=Contain: slurmctld exits", kv.Key.Value, kv.Value.Value)
		}
	},
}

// StepmgrNeedsContain reports enable_stepmgr without PrologFlags=Contain
// (T11).
var StepmgrNeedsContain = &lint.Rule{
	ID:       "stepmgr-needs-contain",
	Severity: diag.Error,
	Summary:  "SlurmctldParameters=enable_stepmgr without PrologFlags=Contain",
	Doc: doc("The step manager (24.05+) runs in the job's extern step; slurmctld exits without PrologFlags=Contain.",
		`config: {SlurmctldParameters: "cloud_dns,enable_stepmgr"}`,
		`config: {SlurmctldParameters: "cloud_dns,enable_stepmgr", PrologFlags: Contain}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		kv := e.user("SlurmctldParameters")
		if kv == nil || e.v < catalog.V2405 || !hasToken(kv.Value.Value, "enable_stepmgr") || contained(e.val("PrologFlags")) {
			return
		}
		reportValue(p, kv, "add PrologFlags: Contain", "SlurmctldParameters enable_stepmgr needs PrologFlags=Contain: slurmctld exits")
	},
}

// JobacctParamsNeedLinux reports UsePss or NoShared with a gatherer that
// ignores them (T13).
var JobacctParamsNeedLinux = &lint.Rule{
	ID:       "jobacct-params-need-linux",
	Severity: diag.Error,
	Summary:  "JobAcctGatherParams UsePss or NoShared without JobAcctGatherType=jobacct_gather/linux",
	Doc: doc("UsePss and NoShared are read only by jobacct_gather/linux. The service default is "+
		"jobacct_gather/cgroup, with which slurmctld logs an error (\"UsePSS and NoShared are only compatible "+
		"with jobacct_gather/linux\") and the options do nothing.",
		`config: {JobAcctGatherParams: UsePss}`,
		`config: {JobAcctGatherType: jobacct_gather/linux, JobAcctGatherParams: UsePss}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		kv := e.user("JobAcctGatherParams")
		if kv == nil || strings.Contains(strings.ToLower(e.val("JobAcctGatherType")), "linux") {
			return
		}
		v := strings.ToLower(kv.Value.Value)
		if strings.Contains(v, "usepss") || strings.Contains(v, "noshared") {
			reportValue(p, kv, "set JobAcctGatherType: jobacct_gather/linux, or drop UsePss/NoShared",
				"JobAcctGatherParams=%s needs jobacct_gather/linux, but JobAcctGatherType=%s", kv.Value.Value, e.val("JobAcctGatherType"))
		}
	},
}
