package catalog

import (
	"strconv"
	"strings"
	"testing"
)

// want is the expected outcome of CheckValue: clean, a warning at worst, or
// at least one error.
type want uint8

const (
	clean want = iota
	warns
	errs
)

func outcome(probs []Problem) want {
	w := clean
	for _, p := range probs {
		if p.Severity == SeverityError {
			return errs
		}
		w = warns
	}
	return w
}

func (w want) String() string { return [...]string{"clean", "warning", "error"}[w] }

type valueCase struct {
	scope Scope
	key   string
	v     Version
	value string
	want  want
	msg   string // substring of some problem message or hint, if not empty
}

func runValueCases(t *testing.T, cases []valueCase) {
	t.Helper()
	runTargetCases(t, DefaultTarget().Build, cases)
}

// runTargetCases runs the cases for a build of each case's release.
func runTargetCases(t *testing.T, build Build, cases []valueCase) {
	t.Helper()
	c := Default()
	for _, tc := range cases {
		p, ok := c.Lookup(tc.scope, tc.key)
		if !ok {
			t.Errorf("no %v key %s", tc.scope, tc.key)
			continue
		}
		probs := CheckTarget(p, Target{Release: tc.v, Build: build}, tc.value)
		if got := outcome(probs); got != tc.want {
			t.Errorf("%s=%q @%v: got %v %v, want %v", tc.key, tc.value, tc.v, got, probs, tc.want)
			continue
		}
		if tc.msg != "" && !strings.Contains(joinProblems(probs), tc.msg) {
			t.Errorf("%s=%q @%v: problems %v lack %q", tc.key, tc.value, tc.v, probs, tc.msg)
		}
	}
}

func joinProblems(probs []Problem) string {
	var b strings.Builder
	for _, p := range probs {
		b.WriteString(p.String())
		b.WriteByte('\n')
	}
	return b.String()
}

func TestSeedConfigIsClean(t *testing.T) {
	seed := [][2]string{
		{"AccountingStorageEnforce", "associations,limits,qos"},
		{"PriorityType", "priority/multifactor"},
		{"PriorityWeightAge", "1000"},
		{"PriorityWeightFairshare", "10000"},
		{"PreemptType", "preempt/partition_prio"},
		{"PreemptMode", "REQUEUE"},
		{"PreemptExemptTime", "00:10:00"},
	}
	var cases []valueCase
	for _, v := range []Version{V2205, V2605} {
		for _, kv := range seed {
			cases = append(cases, valueCase{ScopeGlobal, kv[0], v, kv[1], clean, ""})
		}
	}
	runValueCases(t, cases)
}

func TestCheckBool(t *testing.T) {
	var cases []valueCase
	for _, v := range []string{"YES", "yes", "No", "TRUE", "false", "Up", "DOWN", "1", "0"} {
		cases = append(cases, valueCase{ScopeGlobal, "UsePAM", V2205, v, clean, ""})
	}
	for _, v := range []string{"2", "y", "on", "", "yes ", "enabled"} {
		cases = append(cases, valueCase{ScopeGlobal, "UsePAM", V2605, v, errs, "not a boolean"})
	}
	cases = append(cases, valueCase{ScopePartition, "Default", V2605, "YES", clean, ""})
	runValueCases(t, cases)
}

func TestCheckIntegers(t *testing.T) {
	runValueCases(t, []valueCase{
		{ScopeGlobal, "TreeWidth", V2605, "65535", clean, ""},
		{ScopeGlobal, "TreeWidth", V2605, "0x10", clean, ""},
		{ScopeGlobal, "TreeWidth", V2605, "010", clean, ""},
		{ScopeGlobal, "TreeWidth", V2605, "+7", clean, ""},
		{ScopeGlobal, "TreeWidth", V2605, "UNLIMITED", clean, ""},
		{ScopeGlobal, "TreeWidth", V2605, "infinite", clean, ""},
		{ScopeGlobal, "TreeWidth", V2605, "65536", errs, "greater than 65535"},
		{ScopeGlobal, "TreeWidth", V2605, "-1", errs, "less than zero"},
		{ScopeGlobal, "TreeWidth", V2605, "-0", errs, "less than zero"},
		{ScopeGlobal, "TreeWidth", V2605, "08", errs, "not a valid number"},
		{ScopeGlobal, "TreeWidth", V2605, "10k", errs, "not a valid number"},
		{ScopeGlobal, "TreeWidth", V2605, "ten", errs, "not a valid number"},
		{ScopeGlobal, "TreeWidth", V2605, "5 ", errs, "not a valid number"},
		{ScopeGlobal, "TreeWidth", V2605, "", warns, "empty"},
		{ScopeGlobal, "PriorityWeightAge", V2205, "4294967295", clean, ""},
		{ScopeGlobal, "PriorityWeightAge", V2205, "4k", clean, ""},
		{ScopeGlobal, "PriorityWeightAge", V2205, "4K", clean, ""},
		{ScopeGlobal, "PriorityWeightAge", V2205, "4194304k", errs, "greater than 4294967295"},
		{ScopeGlobal, "PriorityWeightAge", V2205, "4294967296", errs, "greater than"},
		{ScopeGlobal, "PriorityWeightAge", V2205, "1000.5", errs, "not a valid number"},
		{ScopeGlobal, "DefMemPerCPU", V2205, "18446744073709551615", clean, ""},
		{ScopeGlobal, "DefMemPerCPU", V2205, "18446744073709551616", errs, "out of range"},
		{ScopeGlobal, "DefMemPerCPU", V2205, "16k", clean, ""},
		{ScopeGlobal, "DefMemPerCPU", V2205, "16G", errs, "not a valid number"},
		{ScopeGlobal, "JobRequeue", V2205, "1", clean, ""},
		{ScopeGlobal, "JobRequeue", V2205, "5", warns, "documented values"},
		{ScopeGlobal, "PropagatePrioProcess", V2205, "3", errs, "documented values"},
		// read_config.c: "Bad PropagatePrioProcess: 65535", fatal.
		{ScopeGlobal, "PropagatePrioProcess", V2411, "UNLIMITED", errs, "not one of the accepted values"},
		{ScopeNode, "Weight", V2605, "100", clean, ""},
	})
}

func TestCheckLongAndFloat(t *testing.T) {
	long := &Param{Name: "SomeLong", Scope: ScopeGlobal, Kind: KindLong, PresentIn: AllVersions}
	float := &Param{Name: "SomeFloat", Scope: ScopeGlobal, Kind: KindFloat, PresentIn: AllVersions}
	tests := []struct {
		p     *Param
		value string
		want  want
	}{
		{long, "-5", clean},
		{long, "0x7fffffffffffffff", clean},
		{long, "-9223372036854775808", clean},
		{long, "9223372036854775808", errs},
		{long, "UNLIMITED", clean},
		{long, "5k", errs},
		{long, "--5", errs},
		{float, "1.5", clean},
		{float, "-2e3", clean},
		{float, ".5", clean},
		{float, "INFINITE", clean},
		{float, "1e39", errs},
		{float, "1.5x", errs},
		{float, "1_000", errs},
		{float, "", errs},
	}
	for _, tc := range tests {
		if got := outcome(CheckValue(tc.p, V2605, tc.value)); got != tc.want {
			t.Errorf("%s=%q: got %v, want %v", tc.p.Name, tc.value, got, tc.want)
		}
	}
	if CheckValue(nil, V2605, "x") != nil {
		t.Error("CheckValue(nil) must return nil")
	}
}

func TestParseTime(t *testing.T) {
	good := map[string]int64{
		"90": 90, "0": 0, "5:30": 6, "0:90": 2, "12:00:00": 720, "30:00:00": 1800,
		"00:10:00": 10, "2-12": 3600, "1-06:30": 1830, "7-00:00:00": 10080,
		"1-": 1440, "0-0:0:1": 1, "UNLIMITED": Infinite, "infinite": Infinite, "-1": Infinite,
	}
	for in, wantMin := range good {
		if got, ok := ParseTime(in); !ok || got != wantMin {
			t.Errorf("ParseTime(%q) = %d, %v; want %d", in, got, ok, wantMin)
		}
	}
	bad := []string{
		"", "1h", "10m", " 5", "5 ", "1:2:3:4", "1-2-3", "1:2-3", ":5", "5:", "1-2:",
		"1-2:3:", "1::2", "abc", "-", "--1", "+5", "1.5", "-2", "99999999999", "30000-0",
	}
	for _, in := range bad {
		if got, ok := ParseTime(in); ok {
			t.Errorf("ParseTime(%q) = %d, want failure", in, got)
		}
	}
	if s, ok := ParseTimeSeconds("5:30"); !ok || s != 330 {
		t.Errorf("ParseTimeSeconds(5:30) = %d, %v", s, ok)
	}
	if s, ok := ParseTimeSeconds("unlimited"); !ok || s != Infinite {
		t.Errorf("ParseTimeSeconds(unlimited) = %d, %v", s, ok)
	}
}

func TestCheckTime(t *testing.T) {
	runValueCases(t, []valueCase{
		{ScopeGlobal, "PreemptExemptTime", V2205, "00:10:00", clean, ""},
		{ScopeGlobal, "PreemptExemptTime", V2205, "-1", clean, ""},
		{ScopeGlobal, "PreemptExemptTime", V2205, "10min", errs, "not a valid Slurm time string"},
		{ScopeGlobal, "PreemptExemptTime", V2205, "-3", warns, "negative"},
		{ScopePartition, "MaxTime", V2605, "7-00:00:00", clean, ""},
		{ScopePartition, "MaxTime", V2605, "UNLIMITED", clean, ""},
		{ScopePartition, "MaxTime", V2605, "-3", errs, "negative"},
		{ScopePartition, "MaxTime", V2605, "1:2:3:4", errs, "time string"},
		{ScopePartition, "DefaultTime", V2605, "30", clean, ""},
		{ScopeGlobal, "PriorityCalcPeriod", V2605, "5", clean, ""},
		{ScopeGlobal, "PriorityCalcPeriod", V2605, "0:30", clean, ""},
		{ScopeGlobal, "PriorityCalcPeriod", V2605, "0", errs, "at least one minute"},
		{ScopeGlobal, "PriorityCalcPeriod", V2605, "INFINITE", errs, "at least one minute"},
		{ScopeGlobal, "PriorityDecayHalfLife", V2605, "7-0", clean, ""},
		{ScopeGlobal, "PriorityMaxAge", V2605, "99999999999", errs, "out of range"},
	})
}

func TestCheckEnumsAndLists(t *testing.T) {
	runValueCases(t, []valueCase{
		// Case-insensitive enum and list tokens.
		{ScopeGlobal, "PreemptMode", V2205, "requeue", clean, ""},
		{ScopeGlobal, "PreemptMode", V2205, "Suspend,Gang", clean, ""},
		{ScopeGlobal, "AccountingStorageEnforce", V2605, "ASSOCIATIONS,Limits,qos,safe", clean, ""},
		{ScopeGlobal, "PriorityUsageResetPeriod", V2605, "monthly", clean, ""},
		{ScopeGlobal, "DebugFlags", V2605, "Backfill,backfillmap,CPU_Bind", clean, ""},
		{ScopeGlobal, "DebugFlags", V2605, "Backfil", errs, "did you mean Backfill?"},
		{ScopeGlobal, "DebugFlags", V2605, "Backfill,,Gang", warns, "empty list item"},
		// debug_str2flags logs the removed flag and sets nothing: ignored, so an error.
		{ScopeGlobal, "DebugFlags", V2605, "Task", errs, "use CPU_Bind"},
		{ScopeGlobal, "PriorityFlags", V2205, "MAX_TRES_GRES", errs, "exists in 25.05+"},
		{ScopeGlobal, "PriorityFlags", V2505, "MAX_TRES_GRES,NO_FAIR_TREE", clean, ""},
		// GpuFreqDef is [<type>=]value[,<type>=value] (slurm.conf(5)); its
		// default is high,memory=high, and a value may be MHz.
		{ScopeGlobal, "GpuFreqDef", V2205, "high,memory=high", clean, ""},
		{ScopeGlobal, "GpuFreqDef", V2605, "medium,memory=1215", clean, ""},
		{ScopeGlobal, "GpuFreqDef", V2411, "450", clean, ""},
		{ScopeGlobal, "GpuFreqDef", V2411, "fastest", warns, "unknown"},
		// NoOverMemoryKill is the default since 19.05: Slurm ignores the
		// word (read_config.c compares tokens with OverMemoryKill).
		{ScopeGlobal, "JobAcctGatherParams", V2205, "NoOverMemoryKill,UsePSS", warns, "default since Slurm 19.05"},
		{ScopeGlobal, "JobAcctGatherParams", V2605, "NoOverMemoryKill", warns, "default since Slurm 19.05"},
		{ScopeGlobal, "SchedulerParameters", V2205, "bf_interval=30,bf_continue,defer,max_rpc_cnt=150", clean, ""},
		{ScopeGlobal, "SchedulerParameters", V2205, "bf_interval", warns, "expects a value"},
		{ScopeGlobal, "SchedulerParameters", V2205, "bf_continue=1", warns, "does not take a value"},
		// A plugin's name is the whole token: no plugin "proctrack/pgid=-1" (fatal);
		// from 23.11 a value holding "none" is dropped first.
		{ScopeGlobal, "ProctrackType", V2411, "proctrack/pgid=-1", errs, "does not exist"},
		{ScopeGlobal, "SwitchType", V2205, "switch/none=", errs, "does not exist"},
		{ScopeGlobal, "SwitchType", V2411, "switch/none=", warns, "does not take a value"},
		{ScopeGlobal, "AcctGatherInterconnectType", V2205, "acct_gather_interconnect/none=", errs, "does not exist"},
		{ScopeGlobal, "SchedulerParameters", V2205, "bf_frobnicate=3", errs, "unknown SchedulerParameters list item"},
		{ScopeGlobal, "SlurmctldParameters", V2605, "idle_on_node_suspend,conmgr_threads=8", clean, ""},
		// The service's nodes keep a local slurm.conf: configless serves none.
		{ScopeGlobal, "SlurmctldParameters", V2605, "enable_configless", warns, "configless serves none of them"},
		{ScopeGlobal, "SlurmctldParameters", V2205, "conmgr_threads=8", errs, "added in 24.11"},
		// slurmdbd_agent.c: discard or exit, anything else fatal.
		{ScopeGlobal, "SlurmctldParameters", V2205, "max_dbd_msg_action=1", errs, "needs one of discard, exit"},
		{ScopeGlobal, "SlurmctldParameters", V2605, "max_dbd_msg_action=Exit", clean, ""},
		{ScopeGlobal, "PrologFlags", V2311, "Alloc,Contain,X11", clean, ""},
		{ScopeGlobal, "PrologFlags", V2311, "RunInJob", errs, "exists in 24.05+"},
		{ScopeGlobal, "SelectTypeParameters", V2605, "CR_Core_Memory,CR_ONE_TASK_PER_CORE", clean, ""},
		{ScopeGlobal, "SwitchParameters", V2605, "def_cts=4,vnis=100", clean, ""},
		{ScopeGlobal, "SwitchParameters", V2605, "cts", warns, "not an option of its own"},
		{ScopeGlobal, "SlurmctldDebug", V2205, "debug2", clean, ""},
		{ScopeGlobal, "SlurmctldDebug", V2205, "7", clean, ""},
		{ScopeGlobal, "SlurmctldDebug", V2205, "10", errs, "or an integer"},
		{ScopeGlobal, "SlurmctldDebug", V2205, "info,debug", errs, "single value"},
		{ScopeGlobal, "SuspendExcStates", V2302, "DOWN,DRAIN", clean, ""},
		{ScopeGlobal, "SuspendTime", V2605, "600", clean, ""},
		{ScopeGlobal, "SuspendTime", V2605, "NONE", clean, ""},
		{ScopeGlobal, "GresTypes", V2605, "gpu,fpga", clean, ""},
		{ScopeGlobal, "JobAcctGatherFrequency", V2605, "task=30,energy=60", clean, ""},
		{ScopeGlobal, "JobAcctGatherFrequency", V2605, "30", clean, ""},
		{ScopePartition, "OverSubscribe", V2605, "FORCE:2", clean, ""},
		{ScopePartition, "OverSubscribe", V2605, "EXCLUSIVE", clean, ""},
		{ScopePartition, "OverSubscribe", V2605, "MAYBE", errs, "unknown OverSubscribe"},
		{ScopePartition, "OverTimeLimit", V2605, "10", clean, ""},
		{ScopePartition, "OverTimeLimit", V2605, "UNLIMITED", clean, ""},
		{ScopePartition, "PreemptMode", V2605, "SUSPEND", clean, ""},
		{ScopePartition, "PreemptMode", V2605, "GANG", warns, "cluster-wide"},
		{ScopePartition, "Exclusive", V2511, "USER", errs, "exists in 26.05"},
		{ScopeNode, "State", V2605, "CLOUD", clean, ""},
		{ScopeDownNodes, "State", V2605, "DRAIN", clean, ""},
		// Uncertain rows only warn: man-only values and prefix matches.
		{ScopeGlobal, "GpuFreqDef", V2605, "high", clean, ""},
		{ScopeGlobal, "GpuFreqDef", V2605, "ultra", warns, "unknown GpuFreqDef"},
		{ScopeGlobal, "AuthInfo", V2405, "userclaimfield=sub", warns, "not valid in 24.05"},
		{ScopePartition, "State", V2605, "UPP", warns, "prefix"},
		{ScopeGlobal, "CpuFreqDef", V2605, "Perf", warns, "write Performance"},
		{ScopeGlobal, "PrivateData", V2605, "account", warns, "substring"},
		// Ignored after 22.05 (cloud nodes always shown), not refused.
		{ScopeGlobal, "PrivateData", V2205, "cloud,jobs", clean, ""},
		{ScopeGlobal, "PrivateData", V2302, "cloud", warns, "no effect in 23.02"},
		{ScopeGlobal, "PrivateData", V2605, "jobs,cloud", warns, "no effect in 26.05"},
		// NoAddrCache is live in 22.05 and 23.02, defunct from 23.11.
		{ScopeGlobal, "CommunicationParameters", V2205, "NoAddrCache", clean, ""},
		{ScopeGlobal, "CommunicationParameters", V2302, "NoAddrCache", clean, ""},
		{ScopeGlobal, "CommunicationParameters", V2311, "NoAddrCache", warns, "defunct"},
		{ScopeGlobal, "SwitchType", V2605, "nonexistent", warns, "substring \"none\""},
	})
}

// TestCheckPluginsServiceBuild: for the service's build, whose plugins
// are not published, a plugin some builds lack is a warning that speaks
// of the target build, never of Debian, and Debian's package split is
// not reported.
func TestCheckPluginsServiceBuild(t *testing.T) {
	runTargetCases(t, BuildService, []valueCase{
		{ScopeGlobal, "MpiDefault", V2205, "pmix_v3", warns, "the target build (the service's)"},
		{ScopeGlobal, "MpiDefault", V2605, "pmix_v5", warns, "check that the service's Slurm 26.05 build has mpi_pmix_v5.so"},
		{ScopeGlobal, "AcctGatherProfileType", V2205, "acct_gather_profile/hdf5", clean, ""},
		{ScopeGlobal, "AcctGatherEnergyType", V2411, "acct_gather_energy/ipmi", clean, ""},
		{ScopeGlobal, "AcctGatherInterconnectType", V2411, "acct_gather_interconnect/ofed", warns, "not published"},
	})
	c := Default()
	for _, key := range []string{"MpiDefault", "AcctGatherInterconnectType", "SwitchType"} {
		p, _ := c.Lookup(ScopeGlobal, key)
		for _, v := range Versions() {
			for _, ev := range p.Values {
				for _, pr := range CheckTarget(p, Target{Release: v, Build: BuildService}, ev.Name) {
					if strings.Contains(pr.Message+pr.Hint, "Debian") {
						t.Errorf("%s=%s @%v, service build: %s", key, ev.Name, v, pr)
					}
				}
			}
		}
	}
}

// TestCheckPlugins: for Debian's packages, plugins are checked against
// what the packages ship.
func TestCheckPlugins(t *testing.T) {
	runTargetCases(t, BuildDebian, []valueCase{
		{ScopeGlobal, "SelectType", V2205, "select/cons_res", clean, ""},
		{ScopeGlobal, "SelectType", V2302, "select/cons_res", clean, ""},
		{ScopeGlobal, "SelectType", V2311, "select/cons_res", errs, "exists in 22.05-23.02"},
		{ScopeGlobal, "SelectType", V2605, "select/cons_tres", clean, ""},
		{ScopeGlobal, "SelectType", V2605, "cons_tres", errs, "write select/cons_tres"},
		{ScopeGlobal, "SelectType", V2605, "Select/Cons_Tres", errs, "case-sensitive"},
		{ScopeGlobal, "SelectType", V2605, "", errs, "empty"},
		{ScopeGlobal, "PriorityType", V2605, "priority/fancy", errs, "unknown PriorityType"},
		{ScopeGlobal, "TopologyPlugin", V2205, "topology/flat", errs, "added in 25.05"},
		{ScopeGlobal, "TopologyPlugin", V2405, "topology/none", clean, ""},
		{ScopeGlobal, "TaskPlugin", V2605, "task/affinity,cgroup", clean, ""},
		{ScopeGlobal, "CredType", V2605, "munge", clean, ""},
		{ScopeGlobal, "JobSubmitPlugins", V2605, "job_submit/lua,require_timelimit", clean, ""},
		{ScopeGlobal, "NamespaceType", V2605, "job_container/tmpfs", clean, ""},
		{ScopeGlobal, "MpiDefault", V2205, "pmix_v3", warns, "Debian's Slurm 22.05 packages do not ship"},
		{ScopeGlobal, "MpiDefault", V2205, "pmix_v4", clean, ""},
		{ScopeGlobal, "MpiDefault", V2411, "pmix_v5", clean, ""},
		{ScopeGlobal, "MpiDefault", V2605, "pmix_v5", warns, "mpi_pmix_v5.so"},
		// Debian ships these in separate packages (slurm-wlm-hdf5-plugin, ...).
		{ScopeGlobal, "AcctGatherProfileType", V2205, "acct_gather_profile/hdf5", warns, "its own package, slurm-wlm-hdf5-plugin"},
		{ScopeGlobal, "AcctGatherEnergyType", V2411, "acct_gather_energy/ipmi", warns, "slurm-wlm-ipmi-plugins"},
		{ScopeGlobal, "AcctGatherEnergyType", V2411, "acct_gather_energy/rapl", clean, ""},
		{ScopeGlobal, "AcctGatherInterconnectType", V2411, "acct_gather_interconnect/ofed", warns, "do not ship"},
		{ScopeGlobal, "AcctGatherInterconnectType", V2605, "acct_gather_interconnect/ofed", clean, ""},
		{ScopeGlobal, "SwitchType", V2605, "switch/hpe_slingshot", warns, "switch_hpe_slingshot.so"},
		// No such plugin in any series: slurmctld exits.
		{ScopeGlobal, "BurstBufferType", V2205, "burst_buffer/none", errs, "no burst_buffer/none plugin"},
		{ScopeGlobal, "BurstBufferType", V2205, "burst_buffer/lua", clean, ""},
		// 22.05's plugin needs slurmd's conf symbol; 23.02 made it weak.
		{ScopeGlobal, "AcctGatherEnergyType", V2205, "acct_gather_energy/gpu", errs, "undefined symbol"},
		{ScopeGlobal, "AcctGatherEnergyType", V2302, "acct_gather_energy/gpu", clean, ""},
		// From 23.11 "none" is not a plugin: read_config.c unsets the type.
		{ScopeGlobal, "AccountingStorageType", V2605, "accounting_storage/none", clean, ""},
		{ScopeGlobal, "CredType", V2605, "cred/slurm", clean, ""},
		{ScopeGlobal, "JobContainerType", V2605, "job_container/tmpfs", clean, ""}, // namespace_tmpfs.so
		{ScopeGlobal, "TopologyPlugin", V2605, "topology/default", clean, ""},
		{ScopeGlobal, "AccountingStorageType", V2605, "accounting_storage/mysql", errs, "slurmdbd.conf"},
		{ScopeGlobal, "AccountingStorageType", V2605, "accounting_storage/slurmdbd", clean, ""},
		{ScopeGlobal, "JobCompType", V2205, "jobcomp/kafka", errs, "added in 23.02"},
	})
}

func TestCheckRules(t *testing.T) {
	runValueCases(t, []valueCase{
		{ScopeGlobal, "PreemptMode", V2605, "SUSPEND", errs, "needs GANG"},
		{ScopeGlobal, "PreemptMode", V2605, "REQUEUE,CANCEL", errs, "more than one base mode"},
		{ScopeGlobal, "PreemptMode", V2605, "GANG,WITHIN,REQUEUE", errs, "GANG with WITHIN"},
		{ScopeGlobal, "PreemptMode", V2605, "REQUEUE,PRIORITY", clean, ""},
		{ScopeGlobal, "SelectTypeParameters", V2605, "CR_Core,CR_Socket", errs, "more than one resource unit"},
		{ScopeGlobal, "SelectTypeParameters", V2605, "CR_CPU,CR_ONE_TASK_PER_CORE", errs, "CR_ONE_TASK_PER_CORE"},
		{ScopeGlobal, "TaskPluginParam", V2605, "Cores,Threads", errs, "binding unit"},
		// read_config.c: "Bad TaskPluginParam" is fatal (22.05 and 26.05).
		{ScopeGlobal, "TaskPluginParam", V2205, "autobind", errs, "needs one of threads, cores, sockets, none, got nothing"},
		{ScopeGlobal, "TaskPluginParam", V2605, "Cores,autobind=numa", errs, `got "numa"`},
		{ScopeGlobal, "TaskPluginParam", V2205, "autobind=Cores", clean, ""},
		{ScopeGlobal, "PrologFlags", V2605, "NoHold,Contain", errs, "NoHold"},
		// task_cray_aries.c init: slurmd exits unless cgroup follows cray
		// (fidelity seed 20261205, 22.05).
		// read_config.c parse_slurmd_params: numa_node_as_socket ignored
		// with an error line (fidelity seed 20261205, 24.11).
		{ScopeGlobal, "SlurmdParameters", V2411, "numa_node_as_socket,l3cache_as_socket", errs, "ignore numa_node_as_socket"},
		{ScopeGlobal, "SlurmdParameters", V2411, "l3cache_as_socket", clean, ""},
		{ScopeGlobal, "TaskPlugin", V2205, "task/cray_aries", errs, "listed after it"},
		// read_config.c reads LogTimeFormat with xstrcasestr: a time format
		// and, 23.11-24.11, format_stderr (corpus2's slinky).
		{ScopeGlobal, "LogTimeFormat", V2411, "iso8601_ms,format_stderr", clean, ""},
		// 26.05 has no format_stderr and looks only for the names it
		// knows: slurmctld 26.05 starts and logs nothing (a warning).
		{ScopeGlobal, "LogTimeFormat", V2605, "iso8601_ms,format_stderr", warns, "has no effect in 26.05"},
		// Removed words of keys Slurm reads with xstrcasestr are ignored
		// (slurmctld starts, no error line): warnings.
		{ScopeGlobal, "LaunchParameters", V2605, "mem_sort", warns, "has no effect in 26.05"},
		{ScopeGlobal, "SchedulerParameters", V2605, "bf_continue,no_env_cache", warns, "has no effect in 26.05"},
		{ScopeGlobal, "CommunicationParameters", V2411, "CheckGhalQuiesce", warns, "has no effect in 24.11"},
		{ScopeGlobal, "RoutePlugin", V2411, "route/default", warns, "has no effect in 24.11"},
		{ScopeGlobal, "LaunchParameters", V2411, "mem_sort", clean, ""},
		{ScopeGlobal, "LogTimeFormat", V2411, "iso8601,clock", errs, "more than one time format"},
		{ScopeGlobal, "TaskPlugin", V2205, "task/cgroup,task/cray_aries", errs, "listed after it"},
		{ScopeGlobal, "TaskPlugin", V2205, "task/affinity,task/cray_aries,task/cgroup", clean, ""},
		// 23.02+ sort the list (cray_aries before cgroup) before the check.
		{ScopeGlobal, "TaskPlugin", V2302, "task/cgroup,task/cray_aries", clean, ""},
		{ScopeGlobal, "TaskPlugin", V2311, "task/cray_aries", errs, "listed after it"},
		{ScopeGlobal, "CommunicationParameters", V2605, "DisableIPv4", errs, "EnableIPv6"},
		{ScopeGlobal, "CommunicationParameters", V2605, "DisableIPv4,EnableIPv6", clean, ""},
		// A warning on one token (NoAddrCache is defunct) leaves the rules
		// between tokens checked (fidelity seed 20261204, 26.05: fatal).
		{ScopeGlobal, "CommunicationParameters", V2605, "NoAddrCache,NoInAddrAny,DisableIPv4", errs, "EnableIPv6"},
		{ScopeGlobal, "LaunchParameters", V2605, "enable_nss_slurm,disable_send_gids", errs, "exclude"},
		{ScopeGlobal, "JobAcctGatherParams", V2605, "UsePss,NoShared", errs, "exclude"},
		{ScopeGlobal, "HealthCheckNodeState", V2605, "START_ONLY,IDLE", errs, "only value"},
		{ScopeGlobal, "CliFilterPlugins", V2411, "none,cli_filter/lua", errs, "none cannot be combined"},
		{ScopePartition, "CpuBind", V2411, "thread,cores", errs, "more than one binding type"},
		{ScopePartition, "CpuBind", V2605, "core,core", errs, "more than one binding type"},
		{ScopeNode, "CpuBind", V2411, "ldoms,,ldoms", errs, "more than one binding type"},
		// Compared whole: "Invalid SlurmdSyslogDebug quiet=", fatal.
		{ScopeGlobal, "SlurmdSyslogDebug", V2411, "quiet=", errs, "compares the whole token"},
		{ScopeGlobal, "PriorityUsageResetPeriod", V2605, "NOW=-1", errs, "compares the whole token"},
		{ScopeGlobal, "TopologyPlugin", V2605, "topology/default=", errs, "does not exist"},
		// Lists read token by token: "Bad rlimit name: STACK=", "CpuBind='threads=' is invalid".
		{ScopeGlobal, "PropagateResourceLimits", V2411, "STACK=", errs, "compares the whole token"},
		{ScopeNode, "CpuBind", V2411, "threads=", errs, "compares the whole token"},
		{ScopeGlobal, "PrologFlags", V2411, "X11=", errs, "compares the whole token"},
		{ScopePartition, "SuspendTime", V2411, "-1=", errs, "compares the whole token"},
		{ScopeGlobal, "CliFilterPlugins", V2605, "cli_filter/none,,cli_filter/none", errs, "none cannot be combined"},
		{ScopeGlobal, "TaskPluginParam", V2605, "None,None", errs, "more than one binding unit"},
		// The same unit or mode twice counts twice ("Bad SelectTypeParameter:
		// CR_Core,CR_Core", fatal; fidelity seed 20261219, 24.11).
		{ScopeGlobal, "SelectTypeParameters", V2411, "CR_Core,CR_Core", errs, "more than one resource unit (cr_core, cr_core)"},
		{ScopeGlobal, "SelectTypeParameters", V2205, "CR_Memory,CR_LLN,cr_memory", errs, "more than one resource unit"},
		{ScopeGlobal, "SelectTypeParameters", V2605, "CR_Core_Memory,CR_LLN,CR_Pack_Nodes", clean, ""},
		{ScopeGlobal, "PreemptMode", V2411, "REQUEUE,REQUEUE", errs, "more than one base mode"},
		// gres.c: "Duplicate plugin gres/gpu ignored", loaded once.
		{ScopeGlobal, "GresTypes", V2605, "gpu,gpu", warns, "Duplicate plugin gres/gpu ignored"},
		{ScopeGlobal, "GresTypes", V2411, "gpu,nic", clean, ""},
		{ScopePartition, "PreemptMode", V2605, "CANCEL,cancel", errs, "more than one base mode"},
		{ScopeGlobal, "PreemptMode", V2605, "GANG,GANG,REQUEUE", clean, ""},
		{ScopeGlobal, "ReconfigFlags", V2605, "KeepPowerSaveSettings=-1", errs, "compares the whole token"},
		// parse_uint32: 0 to NO_VAL-1 ("Bad value ... for SuspendTime", fatal).
		{ScopePartition, "SuspendTime", V2411, "99999999999", errs, ""},
		{ScopePartition, "SuspendTime", V2411, "4294967293", clean, ""},
		{ScopeNode, "CpuBind", V2205, "cores,verbose", clean, ""},
		{ScopeGlobal, "CliFilterPlugins", V2411, "cli_filter/lua,cli_filter/syslog", clean, ""},
		{ScopeGlobal, "HealthCheckNodeState", V2511, "START_ONLY,IDLE", warns, "only value"},
		{ScopeGlobal, "PrologFlags", V2411, "RunInJob,NoHold", errs, "RunInJob"},
		{ScopeGlobal, "PrologFlags", V2411, "RunInJob,Serial", errs, "Serial is incompatible"},
		{ScopeGlobal, "PrologFlags", V2411, "RunInJob,DeferBatch", clean, ""},
		// parse_rlimits: "Bad rlimit name: NONE", fatal on 24.11.
		{ScopeGlobal, "PropagateResourceLimitsExcept", V2411, "NONE,AS,RSS", errs, "NONE must be the whole value"},
		{ScopeGlobal, "PropagateResourceLimits", V2205, "ALL,CORE", errs, "ALL must be the whole value"},
		{ScopeGlobal, "PropagateResourceLimits", V2605, "core", errs, "case-sensitively"},
		{ScopeGlobal, "PropagateResourceLimitsExcept", V2605, "NONE", clean, ""},
		{ScopeGlobal, "PropagateResourceLimits", V2605, "AS,RLIMIT_CORE,NOFILE", clean, ""},
	})
}

// TestEveryCatalogValue checks each value of the catalog against its own
// key in every series: a value that exists in the series and is backed by
// Slurm's code must be clean (apart from deliberate warnings and rejects),
// and one that does not exist must be flagged.
func TestEveryCatalogValue(t *testing.T) {
	c := Default()
	for i := range c.params {
		p := &c.params[i]
		if p.Kind != KindEnum && p.Kind != KindList && p.Kind != KindPlugin {
			continue
		}
		for _, ev := range p.Values {
			if ev.Match == MatchTemplate {
				continue
			}
			tok := ev.Name
			if len(ev.ArgValues) > 0 {
				tok += string(rune(ev.ArgSep)) + ev.ArgValues[0]
			} else if len(ev.ArgRanges) > 0 {
				tok += string(rune(ev.ArgSep)) + strconv.FormatInt(ev.ArgRanges[0].Example(), 10)
			} else if ev.TakesArg && !ev.ArgOptional {
				tok += string(rune(ev.ArgSep)) + "1"
			}
			for _, v := range Versions() {
				probs := CheckValue(p, v, tok)
				got := outcome(probs)
				switch {
				case !ev.PresentIn.Has(v):
					if got == clean && !otherSpellingPresent(p, ev, v) {
						t.Errorf("%v %s=%s @%v: want a problem, got none", p.Scope, p.Name, tok, v)
					}
				case ev.Reject != "" && (ev.RejectIn.Empty() || ev.RejectIn.Has(v)):
					if got != errs {
						t.Errorf("%v %s=%s @%v: want the reject error", p.Scope, p.Name, tok, v)
					}
				case got == errs && !isRuleError(p, tok):
					t.Errorf("%v %s=%s @%v: unexpected errors %v", p.Scope, p.Name, tok, v, probs)
				case got == warns && ev.Deprecated == "" && !ev.NotStandalone && !ev.NotShipped.Has(v) && ev.Package == "":
					t.Errorf("%v %s=%s @%v: unexpected warnings %v", p.Scope, p.Name, tok, v, probs)
				}
			}
		}
	}
}

// isRuleError reports the single tokens that a value-level rule rejects.
func isRuleError(p *Param, tok string) bool {
	switch {
	case p.Name == "PreemptMode" && p.Scope == ScopeGlobal:
		return tok == "SUSPEND" || tok == "on"
	case p.Name == "CommunicationParameters":
		return tok == "DisableIPv4"
	case p.Name == "TaskPlugin":
		return tok == "task/cray_aries" || tok == "cray_aries" // needs task/cgroup after it
	case p.Name == "SchedulerParameters":
		return tok == "max_job_bf=1" // slurmctld exits: no longer supported
	}
	return false
}

// otherSpellingPresent reports whether another value of p, present in v, is
// the same plugin with or without an optional prefix ("none" and
// "task/none" for TaskPlugin).
func otherSpellingPresent(p *Param, ev EnumValue, v Version) bool {
	for _, o := range p.ValuesIn(v) {
		if o.Name != ev.Name && strings.EqualFold(stripPrefixes(o.Name, p.OptionalPrefixes), stripPrefixes(ev.Name, p.OptionalPrefixes)) {
			return true
		}
	}
	return false
}

func BenchmarkLookupCheckValue(b *testing.B) {
	c := Default()
	inputs := []struct {
		scope      Scope
		key, value string
	}{
		{ScopeGlobal, "AccountingStorageEnforce", "associations,limits,qos"},
		{ScopeGlobal, "prioritytype", "priority/multifactor"},
		{ScopeGlobal, "PriorityWeightAge", "1000"},
		{ScopeGlobal, "PreemptMode", "REQUEUE"},
		{ScopeGlobal, "PreemptExemptTime", "00:10:00"},
		{ScopePartition, "MaxTime", "7-00:00:00"},
		{ScopeGlobal, "SchedulerParameters", "bf_interval=30,bf_continue,defer"},
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		in := inputs[i%len(inputs)]
		p, ok := c.Lookup(in.scope, in.key)
		if !ok {
			b.Fatalf("no key %s", in.key)
		}
		if probs := CheckValue(p, V2605, in.value); len(probs) != 0 {
			b.Fatalf("%s: %v", in.key, probs)
		}
	}
}

// TestCheckArgRanges: numeric option arguments at the edges of the ranges
// Slurm's parsers check (backfill.c, job_scheduler.c, read_config.c of
// 22.05.8, 24.11.5 and 26.05.3), read as atoi/strtol/strtoull read them.
func TestCheckArgRanges(t *testing.T) {
	const sp = "SchedulerParameters"
	var cases []valueCase
	for _, v := range []Version{V2205, V2411, V2605} {
		cases = append(cases,
			valueCase{ScopeGlobal, sp, v, "bf_interval=1", clean, ""},
			valueCase{ScopeGlobal, sp, v, "bf_interval=10800", clean, ""},
			valueCase{ScopeGlobal, sp, v, "bf_interval=-1", clean, ""},
			valueCase{ScopeGlobal, sp, v, "bf_interval=0", errs, "outside 1..10800 or -1"},
			valueCase{ScopeGlobal, sp, v, "bf_interval=10801", errs, "uses its default"},
			valueCase{ScopeGlobal, sp, v, "bf_interval=-2", errs, "outside"},
			// atoi("abc") and atoi("") are 0.
			valueCase{ScopeGlobal, sp, v, "bf_interval=abc", errs, `atoi reads "abc" as 0`},
			valueCase{ScopeGlobal, sp, v, "bf_interval=", errs, "outside"},
			// atoi stops at the first non-digit: Slurm runs with 30.
			valueCase{ScopeGlobal, sp, v, "bf_interval=30s", warns, `reads "30s" as 30`},
			valueCase{ScopeGlobal, sp, v, "bf_interval=+007", clean, ""}, // atoi reads 7
			// Too large for a C int: atoi wraps, never what was written.
			valueCase{ScopeGlobal, sp, v, "bf_interval=4294967297", errs, "outside"},
			valueCase{ScopeGlobal, sp, v, "bf_node_space_size=2", clean, ""},
			valueCase{ScopeGlobal, sp, v, "bf_node_space_size=1", errs, "outside 2..2000000"},
			valueCase{ScopeGlobal, sp, v, "bf_node_space_size=2000000", clean, ""},
			valueCase{ScopeGlobal, sp, v, "bf_node_space_size=2000001", errs, "outside"},
			valueCase{ScopeGlobal, sp, v, "bf_window=43200", clean, ""},
			valueCase{ScopeGlobal, sp, v, "bf_window=43201", errs, "minutes"},
			valueCase{ScopeGlobal, sp, v, "bf_max_job_array_resv=0", clean, ""},
			valueCase{ScopeGlobal, sp, v, "bf_max_job_array_resv=1001", errs, "outside 0..1000"},
			valueCase{ScopeGlobal, sp, v, "bf_min_prio_reserve=4294967295", clean, ""},
			valueCase{ScopeGlobal, sp, v, "bf_min_prio_reserve=0", errs, "outside 1..4294967295"},
			valueCase{ScopeGlobal, sp, v, "bf_min_prio_reserve=4294967296", errs, "outside"},
			// strtoull("-1") is ULLONG_MAX.
			valueCase{ScopeGlobal, sp, v, "bf_min_prio_reserve=-1", errs, "outside"},
			valueCase{ScopeGlobal, sp, v, "build_queue_timeout=100", clean, ""},
			valueCase{ScopeGlobal, sp, v, "build_queue_timeout=99", errs, "outside 100.."},
			valueCase{ScopeGlobal, sp, v, "sched_interval=-1", clean, ""},
			valueCase{ScopeGlobal, sp, v, "sched_interval=-2", errs, "outside"},
			valueCase{ScopeGlobal, "CommunicationParameters", v, "keepalivetime=-1", errs, "outside"},
			// strtol reads a long: 2147483648 fits, then fails INT_MAX.
			valueCase{ScopeGlobal, "CommunicationParameters", v, "keepalivetime=2147483648", errs, "outside"},
			valueCase{ScopeGlobal, sp, v, "bf_hetjob_prio=min", clean, ""},
			valueCase{ScopeGlobal, sp, v, "bf_hetjob_prio=AVG", clean, ""},
			valueCase{ScopeGlobal, sp, v, "bf_hetjob_prio=minimum", warns, "first 3 characters"},
			valueCase{ScopeGlobal, sp, v, "bf_hetjob_prio=1", errs, "needs one of min, avg, max"},
			valueCase{ScopeGlobal, sp, v, "bf_hetjob_prio=mi", errs, "needs one of"},
			// Rules between options (backfill.c _load_config).
			valueCase{ScopeGlobal, sp, v, "max_job_bf=100", errs, "no longer supported"},
			valueCase{ScopeGlobal, sp, v, "bf_max_job_test=100,max_job_bf=100", warns, "overrides it"},
			valueCase{ScopeGlobal, sp, v, "bf_max_job_test=1", errs, "bf_node_space_size: 1"},
			valueCase{ScopeGlobal, sp, v, "bf_max_job_test=1,bf_node_space_size=2", clean, ""},
			valueCase{ScopeGlobal, sp, v, "bf_max_job_test=2", clean, ""},
			valueCase{ScopeGlobal, sp, v, "bf_max_job_part=499", clean, ""},
			valueCase{ScopeGlobal, sp, v, "bf_max_job_part=500", errs, "not below bf_max_job_test (500)"},
			valueCase{ScopeGlobal, sp, v, "bf_max_job_test=1000,bf_max_job_part=500", clean, ""},
			valueCase{ScopeGlobal, sp, v, "bf_max_job_user=501", warns, "above bf_max_job_test"},
		)
	}
	for _, v := range []Version{V2411, V2605} {
		cases = append(cases,
			valueCase{ScopeGlobal, sp, v, "bf_topopt_iterations=2", clean, ""},
			valueCase{ScopeGlobal, sp, v, "bf_topopt_iterations=30", clean, ""},
			valueCase{ScopeGlobal, sp, v, "bf_topopt_iterations=1", errs, "outside 2..30"},
			valueCase{ScopeGlobal, sp, v, "bf_topopt_iterations=31", errs, "outside 2..30"},
			valueCase{ScopeGlobal, "SlurmctldParameters", v, "validate_nodeaddr_threads=64", clean, ""},
			valueCase{ScopeGlobal, "SlurmctldParameters", v, "validate_nodeaddr_threads=65", errs, "outside 1..64"},
		)
	}
	for _, v := range []Version{V2411, V2605} {
		cases = append(cases,
			valueCase{ScopeGlobal, "CommunicationParameters", v, "keepalivetime=1", clean, ""},
			valueCase{ScopeGlobal, "CommunicationParameters", v, "keepalivetime=32767", clean, ""},
			valueCase{ScopeGlobal, "CommunicationParameters", v, "keepalivetime=0", errs, "TCP_KEEPIDLE"},
			valueCase{ScopeGlobal, "CommunicationParameters", v, "keepalivetime=32768", errs, "outside 1..32767"},
			valueCase{ScopeGlobal, "CommunicationParameters", v, "keepaliveinterval=0", clean, ""},
			valueCase{ScopeGlobal, "CommunicationParameters", v, "keepalivetime=60,keepaliveinterval=0", errs, "keepalive interval"},
			valueCase{ScopeGlobal, "CommunicationParameters", v, "keepalivetime=60,keepaliveinterval=32767,keepaliveprobes=127", clean, ""},
			valueCase{ScopeGlobal, "CommunicationParameters", v, "keepalivetime=60,keepaliveprobes=128", errs, "keepalive probes"},
		)
	}
	cases = append(cases,
		valueCase{ScopeGlobal, "AuthInfo", V2205, "cred_expire=5", clean, ""},
		valueCase{ScopeGlobal, "AuthInfo", V2605, "cred_expire=4", errs, "outside 5.."},
		valueCase{ScopeGlobal, "PreemptParameters", V2411, "reorder_count=-1", errs, "outside 0.."},
		valueCase{ScopeGlobal, "DependencyParameters", V2205, "max_depend_depth=-1", errs, "outside 0.."},
		valueCase{ScopeGlobal, "DependencyParameters", V2605, "max_depend_depth=0", clean, ""},
		valueCase{ScopeGlobal, "SlurmctldParameters", V2411, "conmgr_threads=0", clean, ""},
		valueCase{ScopeGlobal, "SlurmctldParameters", V2411, "conmgr_threads=1", errs, "slurmctld exits"},
		valueCase{ScopeGlobal, "SlurmctldParameters", V2411, "conmgr_threads=1024", clean, ""},
		valueCase{ScopeGlobal, "SlurmctldParameters", V2605, "conmgr_threads=257", errs, "nearest of 2 and 256"},
		valueCase{ScopeGlobal, "SlurmctldParameters", V2605, "conmgr_threads=256", clean, ""},
		valueCase{ScopeGlobal, "SlurmctldParameters", V2605, "conmgr_max_connections=0", errs, "at least 1 max connection"},
		valueCase{ScopeGlobal, "SlurmctldParameters", V2605, "conmgr_max_connections=1", errs, "never answers"},
		valueCase{ScopeGlobal, "SlurmctldParameters", V2411, "conmgr_max_connections=2", clean, ""},
		valueCase{ScopeGlobal, "SlurmctldParameters", V2411, "conmgr_max_connections=1073741823", errs, "aborts"},
		valueCase{ScopeGlobal, "CommunicationParameters", V2205, "keepalivetime=0", clean, ""},
		valueCase{ScopeGlobal, "CommunicationParameters", V2205, "keepalivetime=60,keepaliveprobes=128", clean, ""},
		valueCase{ScopeGlobal, sp, V2605, "bf_yield_rpc_cnt=200", clean, ""},
		valueCase{ScopeGlobal, sp, V2605, "bf_yield_rpc_cnt=201", errs, "outside 0..200"},
		valueCase{ScopeGlobal, sp, V2605, "bf_yield_rpc_cnt=-1", errs, "outside"},
	)
	runValueCases(t, cases)
}

// TestParseArg: atoi, strtol and strtoull as glibc reads them.
func TestParseArg(t *testing.T) {
	for _, c := range []struct {
		parse ArgParse
		arg   string
		n     int64
		clean bool
	}{
		{ParseAtoi, "12", 12, true},
		{ParseAtoi, "abc", 0, false},
		{ParseAtoi, "", 0, false},
		{ParseAtoi, "-3x", -3, false},
		{ParseAtoi, " 5", 5, false},
		{ParseAtoi, "2147483647", 2147483647, true},
		{ParseAtoi, "2147483648", 2147483648, false},
		{ParseStrtol, "2147483648", 2147483648, true},
		{ParseStrtol, "99999999999999999999", 1<<63 - 1, false},
		{ParseStrtol, "-99999999999999999999", -1 << 63, false},
		{ParseStrtoull, "-1", -1, false},
		{ParseStrtoull, "-0", 0, false},
		{ParseStrtoull, "4294967296", 4294967296, true},
	} {
		n, clean := ParseArg(c.parse, c.arg)
		if n != c.n || clean != c.clean {
			t.Errorf("ParseArg(%s, %q) = %d, %v; want %d, %v", c.parse, c.arg, n, clean, c.n, c.clean)
		}
	}
}

// TestNodePort: slurmctld reads a node's Port with atoi and exits on one
// outside 1..65535 (node_conf.c expand_nodeline_info; "Invalid Port NONE"
// on 26.05, issue 26).
func TestNodePort(t *testing.T) {
	var cases []valueCase
	for _, v := range []Version{V2205, V2411, V2605} {
		cases = append(cases,
			valueCase{ScopeNode, "Port", v, "6818", clean, ""},
			valueCase{ScopeNode, "Port", v, "65535", clean, ""},
			valueCase{ScopeNode, "Port", v, "NONE", errs, "write an integer from 1 to 65535"},
			valueCase{ScopeNode, "Port", v, "0", errs, ""},
			valueCase{ScopeNode, "Port", v, "65536", errs, ""})
	}
	runValueCases(t, cases)
}
