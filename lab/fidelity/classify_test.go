package fidelity

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/lab/localslurm"
	"github.com/slurmspec/slurmspec/schema"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// TestClassify: the verdict table, including when a warning stands in for
// slurmctld's error line and when it does not.
func TestClassify(t *testing.T) {
	keep := Case{Settings: []Setting{{Scope: catalog.ScopeGlobal, Key: "KeepAliveTime", Value: "60"}, {Scope: catalog.ScopeGlobal, Key: "MinJobAge", Value: "0"}}}
	dep := []Warning{{Rule: "deprecated-config-key", Key: "KeepAliveTime"}}
	warned := WarnedRules()
	moved := "slurmctld: error: KeepAliveTime parameter has moved to CommunicationParameters."
	tls := Case{Settings: []Setting{{Scope: catalog.ScopeGlobal, Key: "TLSType", Value: "tls/s2n"}}}
	s2n := []Warning{{Rule: "invalid-config-value", Key: "TLSType", Message: "TLSType=tls/s2n: Debian's Slurm 26.05 packages do not ship this plugin (tls_s2n.so); it exists only where Slurm was built with what it depends on"}}
	s2nLines := []string{
		"slurmctld: error: Couldn't find the specified plugin name for tls/s2n looking at all files",
		"slurmctld: error: cannot find tls plugin for tls/s2n",
		"slurmctld: error: cannot create tls context for tls/s2n",
		"slurmctld: fatal: Failed to initialize tls plugin",
	}
	lua := []Warning{{Rule: "invalid-config-value", Key: "JobSubmitPlugins", Message: "JobSubmitPlugins=lua: Debian's Slurm 24.11 packages do not ship this plugin (job_submit_lua.so); it exists only where Slurm was built with what it depends on"}}
	aries := Case{Settings: []Setting{{Scope: catalog.ScopeGlobal, Key: "ProctrackType", Value: "proctrack/cray_aries"}}}
	ariesW := []Warning{{Rule: "invalid-config-value", Key: "ProctrackType", Message: "ProctrackType=proctrack/cray_aries: Debian's Slurm 22.05 packages do not ship this plugin (proctrack_cray_aries.so); it exists only where Slurm was built with what it depends on"}}
	ariesLines := []string{
		"slurmd: error: Couldn't find the specified plugin name for proctrack/cray_aries looking at all files",
		"slurmd: error: cannot find proctrack plugin for proctrack/cray_aries",
		"slurmd: error: cannot create proctrack context for proctrack/cray_aries",
		"slurmd: error: slurmd initialization failed",
		"slurmd-fid-gpu-0: exited before registered: exit status 1; last output:     slurmd: Node configuration differs from hardware",
	}
	contain := Case{Settings: []Setting{{Scope: catalog.ScopeGlobal, Key: "ProctrackType", Value: "proctrack/pgid"}, {Scope: catalog.ScopeGlobal, Key: "PrologFlags", Value: "X11"}}}
	adopt := "slurmctld: error: If using PrologFlags=Contain for pam_slurm_adopt, either proctrack/cgroup or proctrack/cray_aries is required.  If not using pam_slurm_adopt, please ignore error."
	for _, tc := range []struct {
		name string
		res  Result
		want Verdict
	}{
		{"both accept", Result{Up: true}, BothAccept},
		{"both refuse", Result{Lint: []string{"x: y"}, Up: false, Slurm: []string{"fatal"}}, BothRefuse},
		{"false positive", Result{Lint: []string{"x: y"}, Up: true}, FalsePositive},
		{"false negative", Result{Up: true, Slurm: []string{"error: MinJobAge must be at least 2"}}, FalseNegative},
		{"warned and logged", Result{Case: keep, Warned: dep, Up: true, Slurm: []string{moved}}, WarnedLogged},
		// A line about the key's value is not what the warning predicts.
		{"warned, the value refused too", Result{Case: keep, Warned: dep, Up: true, Slurm: []string{moved, "error: KeepAliveTime 4294967295 invalid, ignoring it"}}, FalseNegative},
		// A line that names another key is not explained by the warning.
		{"warned, another error too", Result{Case: keep, Warned: dep, Up: true, Slurm: []string{moved, "error: MinJobAge must be at least 2"}}, FalseNegative},
		// A refused start is a false negative, warning or not.
		{"warned but refused", Result{Case: keep, Warned: dep, Up: false, Slurm: []string{moved}}, FalseNegative},
		// A rule not accepted in docs/fidelity.md does not count.
		{"another rule's warning", Result{Case: keep, Warned: []Warning{{Rule: "rendered-key-override", Key: "KeepAliveTime"}}, Up: true, Slurm: []string{moved}}, FalseNegative},
		// A rule whose line names the group, not the key.
		{"group warning", Result{Case: Case{Settings: []Setting{{Scope: catalog.ScopePartition, Key: "AllowGroups", Value: "lab"}}}, Warned: []Warning{{Rule: "partition-groups", Key: "AllowGroups"}}, Up: true, Slurm: []string{"slurmctld: error: _get_group_members: Could not find configured group lab"}}, WarnedLogged},
		// A line that names no key, which the rule predicts as such.
		{"unnamed line", Result{Case: Case{Settings: []Setting{{Scope: catalog.ScopeGlobal, Key: "SlurmctldParameters", Value: "enable_rpc_queue"}}}, Warned: []Warning{{Rule: "invalid-config-value", Key: "SlurmctldParameters"}}, Up: true, Slurm: []string{"slurmctld: error: enabled experimental rpc queuing system"}}, WarnedLogged},
		// A GRES type listed twice: gres.c names the plugin, not GresTypes.
		{"duplicate gres plugin", Result{Case: Case{Settings: []Setting{{Scope: catalog.ScopeGlobal, Key: "GresTypes", Value: "gpu,gpu"}}}, Warned: []Warning{{Rule: "invalid-config-value", Key: "GresTypes"}}, Up: true,
			Slurm: []string{"slurmctld: error: Duplicate plugin gres/gpu ignored", "slurmd: error: Duplicate plugin gres/gpu ignored"}}, WarnedLogged},
		{"unnamed line, no warning", Result{Case: Case{Settings: []Setting{{Scope: catalog.ScopeGlobal, Key: "SlurmctldParameters", Value: "enable_rpc_queue"}}}, Up: true, Slurm: []string{"slurmctld: error: enabled experimental rpc queuing system"}}, FalseNegative},
		// A warning about another key of the case does not count.
		{"warning about another key", Result{Case: keep, Warned: []Warning{{Rule: "deprecated-config-key", Key: "MinJobAge"}}, Up: true, Slurm: []string{moved}}, FalseNegative},
		// A plugin the release's packages lack, absent from its root: every
		// line names it (tls/s2n, "tls plugin"), refused start or not.
		{"build lacks the plugin", Result{Case: tls, Warned: s2n, Absent: []string{"tls_s2n.so"}, Slurm: s2nLines}, WarnedBuild},
		{"build lacks the plugin, up", Result{Case: tls, Warned: s2n, Absent: []string{"tls_s2n.so"}, Up: true, Slurm: s2nLines[:2]}, WarnedBuild},
		// The library is in the plugin directory after all: the catalog
		// was wrong, so the warning does not explain the refusal.
		{"plugin present", Result{Case: tls, Warned: s2n, Slurm: s2nLines}, FalseNegative},
		{"another plugin absent", Result{Case: tls, Warned: s2n, Absent: []string{"tls_none.so"}, Slurm: s2nLines}, FalseNegative},
		// A line about something else is not the missing plugin's.
		{"build lacks the plugin, another error too", Result{Case: tls, Warned: s2n, Absent: []string{"tls_s2n.so"}, Slurm: append(slices.Clone(s2nLines), "slurmctld: error: MinJobAge must be at least 2")}, FalseNegative},
		{"another plugin type's line", Result{Case: tls, Warned: s2n, Absent: []string{"tls_s2n.so"}, Slurm: []string{"slurmctld: fatal: Failed to initialize cred plugin"}}, FalseNegative},
		// Without the warning (another warning, or none) it stays a false
		// negative, absent library or not.
		{"no not-shipped warning", Result{Case: tls, Warned: []Warning{{Rule: "invalid-config-value", Key: "TLSType", Message: "TLSType value \"tls/s2n\" is not an option of its own"}}, Absent: []string{"tls_s2n.so"}, Slurm: s2nLines}, FalseNegative},
		{"no warning", Result{Case: tls, Absent: []string{"tls_s2n.so"}, Slurm: s2nLines}, FalseNegative},
		// A lint error makes it lint-refused.
		{"lint error and the plugin", Result{Case: tls, Lint: []string{"x: y"}, Warned: s2n, Absent: []string{"tls_s2n.so"}, Slurm: s2nLines}, BothRefuse},
		// A bare plugin value: the line names type/value.
		{"bare value", Result{Warned: lua, Absent: []string{"job_submit_lua.so"}, Slurm: []string{"slurmctld: error: cannot find job_submit plugin for job_submit/lua", "slurmctld: fatal: failed to initialize job_submit plugin"}}, WarnedBuild},
		// A slurmd that cannot load the plugin stops: its closing lines
		// name no plugin, but follow one that does (proctrack/cray_aries
		// on 22.05, related seed 20261206); alone they explain nothing.
		{"slurmd stops for the plugin", Result{Case: aries, Warned: ariesW, Absent: []string{"proctrack_cray_aries.so"}, Slurm: ariesLines}, WarnedBuild},
		{"slurmd stops, no line names the plugin", Result{Case: aries, Warned: ariesW, Absent: []string{"proctrack_cray_aries.so"}, Slurm: ariesLines[3:]}, FalseNegative},
		{"slurmd stops, another plugin absent", Result{Case: aries, Warned: ariesW, Absent: []string{"proctrack_pgid.so"}, Slurm: ariesLines}, FalseNegative},
		// Contain without proctrack/cgroup: slurmctld runs as written and
		// logs the pam_slurm_adopt line, which the warning predicts.
		{"contain without cgroup", Result{Case: contain, Warned: []Warning{{Rule: "prolog-contain-proctrack", Key: "ProctrackType"}}, Up: true, Slurm: []string{adopt, adopt}}, WarnedLogged},
		{"contain without cgroup, no warning", Result{Case: contain, Up: true, Slurm: []string{adopt}}, FalseNegative},
		{"bare value, lua alone", Result{Warned: lua, Absent: []string{"job_submit_lua.so"}, Slurm: []string{"slurmctld: error: lua: no such file"}}, FalseNegative},
	} {
		if got := classify(&tc.res, warned); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

// TestWarningKeys: lint's warnings on a generated spec are tied to the
// setting they are about, through the spec path the linter reports, for
// each scope.
func TestWarningKeys(t *testing.T) {
	sch, err := schema.New()
	if err != nil {
		t.Fatal(err)
	}
	k := Case{Settings: []Setting{
		{Scope: catalog.ScopeGlobal, Key: "KeepAliveTime", Value: "60"},
		{Scope: catalog.ScopeNode, Key: "RealMemory", Value: "1000"},
	}}
	_, errs, warns := lintSpec(sch, "k.yaml", k.Spec(), "24.11", nil)
	if len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	got := map[string]string{}
	for _, w := range warns {
		got[w.Rule] = k.keyOf(w.Path)
		t.Logf("%s %s -> %q", w.Rule, w.Path, k.keyOf(w.Path))
	}
	if got["deprecated-config-key"] != "KeepAliveTime" || got["rendered-key-override"] != "RealMemory" {
		t.Errorf("warnings tied to keys: %v, want deprecated-config-key: KeepAliveTime, rendered-key-override: RealMemory", got)
	}
	for _, p := range []string{"orchestratorSpec.slurmSpec.config.KeepAliveTimeX", "orchestratorSpec.slurmSpec.partitions[0].config.KeepAliveTime", "orchestratorSpec.slurmSpec.config.RealMemory"} {
		if key := k.keyOf(p); key != "" {
			t.Errorf("keyOf(%s) = %q, want none", p, key)
		}
	}
}

// TestSplitHarness: lines the stand-in's cgroup overrides cause are left
// out only when the override was made.
func TestSplitHarness(t *testing.T) {
	contain := "slurmctld: error: If using PrologFlags=Contain for pam_slurm_adopt, proctrack/cgroup is required. If not using pam_slurm_adopt, please ignore error."
	memspec := "slurmd: error: Resource spec: Limited MemSpecLimit support. Slurmd daemon not memory constrained. Reserved 432 MB"
	contain2205 := "slurmctld: error: If using PrologFlags=Contain for pam_slurm_adopt, either proctrack/cgroup or proctrack/cray_aries is required.  If not using pam_slurm_adopt, please ignore error."
	other := "slurmctld: error: MinJobAge must be at least 2"
	ovs := []localslurm.Override{{Key: "ProctrackType"}, {Key: "TaskPlugin"}}
	kept, harness := splitHarness([]string{contain, memspec, other, contain2205}, ovs)
	if len(kept) != 1 || kept[0] != other || len(harness) != 3 {
		t.Errorf("with the overrides: kept %q, harness %q", kept, harness)
	}
	kept, harness = splitHarness([]string{contain, memspec, other, contain2205}, nil)
	if len(kept) != 4 || len(harness) != 0 {
		t.Errorf("without overrides: kept %q, harness %q", kept, harness)
	}
	// The service writes SuspendProgram and ResumeProgram; the harness
	// renders neither (24.11, SuspendTime=0).
	power := "slurmctld: error: power_save module disabled, NULL SuspendProgram"
	if kept, harness = splitHarness([]string{power, other}, nil); len(kept) != 1 || len(harness) != 1 {
		t.Errorf("power saving without SuspendProgram: kept %q, harness %q", kept, harness)
	}
}

// TestNotShippedWarning: the warning lint gives for TLSType=tls/s2n on
// 24.11 and 26.05 (Debian builds no s2n) is the one the oracle reads; the
// test fails when the catalog's wording changes.
func TestNotShippedWarning(t *testing.T) {
	sch, err := schema.New()
	if err != nil {
		t.Fatal(err)
	}
	k := Case{Settings: []Setting{{Scope: catalog.ScopeGlobal, Key: "TLSType", Value: "tls/s2n"}}}
	for _, rel := range []string{"24.11", "26.05"} {
		_, errs, warns := lintSpec(sch, "k.yaml", k.Spec(), rel, nil)
		if len(errs) > 0 {
			t.Fatalf("%s: errors: %v", rel, errs)
		}
		var got []buildPlugin
		for _, w := range warns {
			if p, ok := notShipped(w.Message); ok {
				got = append(got, p)
				if key := k.keyOf(w.Path); key != "TLSType" {
					t.Errorf("%s: the warning is about %q, want TLSType", rel, key)
				}
			}
		}
		if want := (buildPlugin{Key: "TLSType", Value: "tls/s2n", Library: "tls_s2n.so"}); len(got) != 1 || got[0] != want {
			t.Errorf("%s: not-shipped warnings %+v, want %+v (warnings: %v)", rel, got, want, warns)
		}
	}
	// TLSType=tls/none ships: no such warning.
	k.Settings[0].Value = "tls/none"
	_, _, warns := lintSpec(sch, "k.yaml", k.Spec(), "26.05", nil)
	for _, w := range warns {
		if _, ok := notShipped(w.Message); ok {
			t.Errorf("tls/none: %s", w.Message)
		}
	}
}

// TestPluginAbsent: absence is read from the plugin directories
// (colon-separated PluginDir) under the root; a missing directory or a
// library name that is a path is an error, never "absent".
func TestPluginAbsent(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"usr/lib/slurm", "opt/slurm"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "opt/slurm/tls_none.so"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/nowhere", filepath.Join(root, "usr/lib/slurm/auth_jwt.so")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		dir, lib string
		absent   bool
		err      string
	}{
		{"/usr/lib/slurm:/opt/slurm", "tls_s2n.so", true, ""},
		{"/usr/lib/slurm:/opt/slurm", "tls_none.so", false, ""},
		{"/usr/lib/slurm", "tls_none.so", true, ""},
		{"/usr/lib/slurm", "auth_jwt.so", false, ""}, // a link is there, even dangling
		{"/usr/lib/nosuch", "tls_s2n.so", false, "plugin directory"},
		{"", "tls_s2n.so", false, "no PluginDir"},
		{"usr/lib/slurm", "tls_s2n.so", false, "not absolute"},
		{"/usr/lib/slurm", "../../../etc/passwd", false, "not a file name"},
	} {
		absent, err := pluginAbsent(root, tc.dir, tc.lib)
		if absent != tc.absent || (tc.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("pluginAbsent(%q, %q) = %v, %v; want %v, error %q", tc.dir, tc.lib, absent, err, tc.absent, tc.err)
		}
	}
}

// TestReportBuildVerdict: the table counts the build verdict in its own
// column and as lint-clean, and the findings list the case with its
// warning and Slurm's lines.
func TestReportBuildVerdict(t *testing.T) {
	tls := Case{Index: 7, Settings: []Setting{{Scope: catalog.ScopeGlobal, Key: "TLSType", Value: "tls/s2n", How: "enum value"}}}
	r := &Report{Release: "26.05", Version: "26.05.5", Seed: 3, Results: []Result{
		{Case: tls, Verdict: WarnedBuild, Warned: []Warning{{Rule: "invalid-config-value", Message: "TLSType=tls/s2n: Debian's Slurm 26.05 packages do not ship this plugin (tls_s2n.so)"}}, Slurm: []string{"slurmctld: fatal: Failed to initialize tls plugin"}},
		{Verdict: BothAccept, Up: true},
		{Verdict: FalseNegative},
		{Verdict: BothRefuse, Lint: []string{"x: y"}},
	}}
	table := Table([]*Report{r})
	if !strings.Contains(table, "| warned, slurmctld logs an error | warned, this build lacks the plugin | false negatives |") ||
		!strings.Contains(table, "| 26.05 | 26.05.5 | 3 | 4 | 3 | 1 | 0 | 1 | 1 | 1 | 1 | 0 |") {
		t.Errorf("table:\n%s", table)
	}
	f := Findings([]*Report{r})
	want := "\n### warned, this build lacks the plugin\n\n- **26.05**, case 7: `TLSType=tls/s2n` (global, enum value);\n" +
		"  - lint warning: invalid-config-value: TLSType=tls/s2n: Debian's Slurm 26.05 packages do not ship this plugin (tls_s2n.so)\n" +
		"  - Slurm did not come up (slurmctld, or the slurmd did not register)\n" +
		"  - Slurm: `slurmctld: fatal: Failed to initialize tls plugin`\n"
	if !strings.Contains(f, want) {
		t.Errorf("findings:\n%s\nwant a section\n%s", f, want)
	}
}

// TestCountedLines: a line Slurm logs again and again is listed once with
// its count, in the order lines were first seen, after the timestamps that
// make repeats differ are left out.
func TestCountedLines(t *testing.T) {
	got := countedLines([]string{
		"[2026-12-01T19:38:52.668] error: a", "error: b", "[2026-12-01T19:38:53.001] error: a", "error: a",
	})
	want := []string{"`error: a` (×3)", "`error: b`"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
