package catalog

import (
	"slices"
	"strings"
)

// The severity policy (docs/fidelity.md, "The severity policy"): one table
// from how Slurm treats a setting to the severity lint gives it. Every
// status of a key and every kind of value the catalog records maps to one
// Treatment; PolicySeverity decides. TestSeverityPolicy checks the catalog
// against it, and lint/rules TestKeyStatusFollowsPolicy checks lint.

// Treatment is what Slurm does with a setting.
type Treatment uint8

// The treatments, in the policy table's order.
const (
	// TreatRefused: slurmctld or slurmd refuses the file, exits, or
	// cannot load what the setting names.
	TreatRefused Treatment = iota + 1
	// TreatReplaced: Slurm starts but runs with another value than the
	// one written (reset, clamped, or a setting that still has a meaning
	// ignored), usually with an error line.
	TreatReplaced
	// TreatAsWritten: Slurm runs with the value as written, renamed keys
	// included, and at most complains.
	TreatAsWritten
	// TreatDropped: Slurm accepts the key or value and ignores it because
	// its meaning is gone: defunct or never read, obsolete, or what a
	// later release made the default. The cluster behaves as the same
	// spec without it, whatever Slurm logs.
	TreatDropped
)

var treatmentNames = [...]string{"", "refused", "replaced", "as written", "dropped"}

// String returns the treatment's name in the policy table.
func (t Treatment) String() string {
	if int(t) < len(treatmentNames) && t != 0 {
		return treatmentNames[t]
	}
	return "invalid"
}

// PolicySeverity is the policy: an error when the cluster would not run
// the setting as written (refused, replaced), a warning when it does or
// when there is nothing left to run (as written, dropped).
func PolicySeverity(t Treatment) Severity {
	switch t {
	case TreatRefused, TreatReplaced:
		return SeverityError
	}
	return SeverityWarning
}

// Treatment returns how Slurm treats a key of this status.
func (s Status) Treatment() Treatment {
	switch s {
	case StatusRemoved, StatusNotAdded, StatusRemovedFatal:
		return TreatRefused
	case StatusDefunct, StatusUnused:
		return TreatDropped
	}
	return TreatAsWritten
}

// ValueTreatment returns how Slurm of series v treats the token ev of key
// p, written alone.
func (p *Param) ValueTreatment(ev *EnumValue, v Version) Treatment {
	switch {
	case ev.Reject != "" && (ev.RejectIn.Empty() || ev.RejectIn.Has(v)):
		return TreatRefused
	case !ev.PresentIn.Has(v) && ev.Ignored != "" && v > ev.PresentIn.Last():
		return TreatDropped
	case !ev.PresentIn.Has(v) && (p.Unknown == UnknownError && ev.Source.Certain()):
		return TreatRefused
	}
	return TreatAsWritten
}

// ArgIsName reports whether Slurm of series v reads "=arg" after ev as part
// of a plugin's name: ev is a plugin that takes no argument, and Slurm's
// plugin loader looks for a plugin named "proctrack/pgid=-1", which does not
// exist (fatal). From 23.11 a plugin value holding "none" is dropped
// before it is loaded (read_config.c), argument and all, and a value Slurm
// finds by a substring (MpiDefault's none) never reaches the loader.
func (ev *EnumValue) ArgIsName(v Version) bool {
	return !ev.TakesArg && ev.Library != "" && ev.Match != MatchContains && (v < V2311 || !strings.Contains(strings.ToLower(ev.Name), "none"))
}

// ArgRefused reports whether Slurm of series v refuses ev written with an
// argument it does not take: a plugin loaded by the whole token's name
// (ArgIsName), a token of a list Slurm reads token by token
// (wholeTokenLists), or a token of a single-value key that Slurm compares
// whole and refuses when unknown (partition SuspendTime=-1=: "Bad value",
// fatal; fidelity seed 20261214) (SlurmdSyslogDebug=quiet=: "Invalid
// SlurmdSyslogDebug quiet=", fatal; fidelity seed 20261212).
func (p *Param) ArgRefused(ev *EnumValue, v Version) bool {
	if ev.TakesArg {
		return false
	}
	if ev.Library != "" {
		return ev.ArgIsName(v)
	}
	if p.Kind == KindList {
		return ev.Match == MatchExact && slices.Contains(wholeTokenLists, p.Name)
	}
	if p.Kind != KindEnum || ev.Match != MatchExact || p.Unknown != UnknownError {
		return false
	}
	// A key some of whose tokens Slurm compares by a prefix (node State:
	// FAIL) may read "FAILING=1" as another token.
	return !slices.ContainsFunc(p.Values, func(o EnumValue) bool { return o.Match == MatchPrefix })
}

// wholeTokenLists are the list keys whose parser splits the value at commas
// and compares each token whole, refusing or ignoring one it does not know:
// CpuBind (xlate_cpu_bind_str: "CpuBind='threads=' is invalid, ignored"),
// PropagateResourceLimits and PropagateResourceLimitsExcept (parse_rlimits:
// "Bad rlimit name: STACK=", fatal), DebugFlags (debug_str2flags),
// PrologFlags (prolog_str2flags: "Invalid PrologFlag: X11=", fatal; seed
// 20261213), TaskPluginParam ("Bad TaskPluginParam: Threads=") and
// ReconfigFlags ("Invalid ReconfigFlag: KeepPowerSaveSettings=-1", seed
// 20261217) and PreemptMode (preempt_mode_num: an unknown token sets every
// bit, GANG included; partition PreemptMode=cluster=-1, seed 20261217),
// and the global SelectTypeParameters (_parse_select_type_param: "Bad
// SelectTypeParameter: CR_Core_Memory=-1", fatal; truth11), and
// HealthCheckNodeState ("Invalid HealthCheckNodeState value ALLOC=-1
// ignored" on 22.05, 24.11 and 26.05; related seed 20265005, truth13). Most
// other lists are read with xstrcasestr, which finds "bf_continue" in
// "bf_continue=1".
var wholeTokenLists = []string{"CpuBind", "PropagateResourceLimits", "PropagateResourceLimitsExcept", "DebugFlags", "PrologFlags", "TaskPluginParam", "ReconfigFlags", "PreemptMode", "SelectTypeParameters", "HealthCheckNodeState"}
