package localslurm

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/slurmspec/slurmspec/compiler/hostlist"
	"github.com/slurmspec/slurmspec/render/slurmconf"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

func readFixture(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "basic", "slurm.conf"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Host lists and Gres are read by render/slurmconf (tested there); the
// harness relies on these forms.
func TestSharedSyntax(t *testing.T) {
	got, err := hostlist.Expand("seed-a4-[0-1],login0,r[1-2]n[1,3]", nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"seed-a4-0", "seed-a4-1", "login0", "r1n1", "r1n3", "r2n1", "r2n3"}, got); diff != "" {
		t.Errorf("hosts (-want +got):\n%s", diff)
	}
	gres, err := slurmconf.ParseGres("gpu:b200:8,nic:2,shard:x:no_consume")
	if err != nil || len(gres) != 3 || gres[0].Type != "b200" || gres[0].Count != 8 || gres[2].Count != 1 {
		t.Errorf("gres %+v %v", gres, err)
	}
}

func TestOverridesFixture(t *testing.T) {
	rendered := readFixture(t)
	c, err := parseConf(rendered)
	if err != nil {
		t.Fatal(err)
	}
	l := layout{workDir: "/w", mungeSocket: "/w/munge/munge.socket", ctldPort: 1, slurmdPort: 2, dbdPort: 3,
		accounting: true, standIns: []string{"seed-a4-0"}}
	if err := applyOverrides(c, l); err != nil {
		t.Fatal(err)
	}
	got := map[string][2]string{}
	for _, o := range c.overrides {
		if o.Reason == "" {
			t.Errorf("override %s has no reason", o.Key)
		}
		got[o.Key] = [2]string{o.Rendered, o.Value}
	}
	want := map[string][2]string{
		"SlurmUser":             {"slurm", "root"},
		"SlurmctldPort":         {"6817", "1"},
		"SlurmdPort":            {"6818", "2"},
		"StateSaveLocation":     {"/var/spool/slurmctld", "/w/state"},
		"SlurmdSpoolDir":        {"/var/spool/slurmd", "/w/spool/%n"},
		"SlurmctldPidFile":      {"/var/run/slurmctld.pid", "/w/run/slurmctld.pid"},
		"SlurmdPidFile":         {"/var/run/slurmd.pid", "/w/run/slurmd-%n.pid"},
		"SlurmctldLogFile":      {"/var/log/slurm/slurmctld.log", "/w/log/slurmctld.log"},
		"SlurmdLogFile":         {"/var/log/slurm/slurmd.log", "/w/log/slurmd-%n.log"},
		"AuthInfo":              {"", "socket=/w/munge/munge.socket"},
		"AccountingStoragePort": {"6819", "3"},
		"AccountingStoragePass": {"", "/w/munge/munge.socket"},
		"Prolog":                {"/etc/slurm/prolog.d/*", "/w/prolog.d/*"},
		"Epilog":                {"/etc/slurm/epilog.d/*", "/w/epilog.d/*"},
		"ProctrackType":         {"proctrack/cgroup", "proctrack/linuxproc"},
		"TaskPlugin":            {"task/cgroup,task/affinity", "task/affinity"},
		"JobAcctGatherType":     {"jobacct_gather/cgroup", "jobacct_gather/linux"},
		"SlurmdParameters":      {"", "config_overrides"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("overrides (-want +got):\n%s", diff)
	}

	// Every line not overridden is written back byte for byte.
	out := c.String()
	overridden := map[string]bool{}
	for k := range want {
		overridden[strings.ToLower(k)] = true
	}
	for line := range strings.SplitSeq(strings.TrimSpace(rendered), "\n") {
		key, _, _ := strings.Cut(line, "=")
		if overridden[strings.ToLower(key)] {
			continue
		}
		if !strings.Contains(out, line+"\n") {
			t.Errorf("rendered line %q missing from the copy", line)
		}
	}

	names, err := hostNames(c)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"seed-controller", "seed-a4-0", "seed-a4-1"}, names); diff != "" {
		t.Errorf("hostNames (-want +got):\n%s", diff)
	}

	lines, devices, err := gresConf(c, l.standIns, "/w/dev")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"NodeName=seed-a4-0 Name=gpu Type=b200 File=/w/dev/seed-a4-0/nvidia[0-7]"}, lines); diff != "" {
		t.Errorf("gres.conf (-want +got):\n%s", diff)
	}
	if len(devices) != 8 {
		t.Errorf("got %d fake devices, want 8", len(devices))
	}
}

func TestOverridesWithoutAccountingOrStandIns(t *testing.T) {
	c, err := parseConf(readFixture(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := applyOverrides(c, layout{workDir: "/w", mungeSocket: "/s"}); err != nil {
		t.Fatal(err)
	}
	keys := map[string]Override{}
	for _, o := range c.overrides {
		keys[o.Key] = o
	}
	if o := keys["AccountingStorageType"]; o.Value != "accounting_storage/none" {
		t.Errorf("AccountingStorageType override = %+v, want accounting_storage/none", o)
	}
	if o, ok := keys["AccountingStorageEnforce"]; !ok || o.Value != "" {
		t.Errorf("AccountingStorageEnforce override = %+v, want removed", o)
	}
	for _, k := range []string{"ProctrackType", "TaskPlugin", "JobAcctGatherType", "SlurmdParameters", "AccountingStoragePort"} {
		if _, ok := keys[k]; ok {
			t.Errorf("%s overridden without a stand-in slurmd or accounting", k)
		}
	}
	if strings.Contains(c.String(), "\nAccountingStorageEnforce=") {
		t.Error("AccountingStorageEnforce still in the copy")
	}
}

func TestParseConfErrors(t *testing.T) {
	for _, bad := range []string{"Include /etc/slurm/x.conf\n", "JustAWord\n", "A=\"unterminated\n"} {
		if _, err := parseConf(bad); err == nil {
			t.Errorf("parseConf(%q): no error", bad)
		}
	}
	c, err := parseConf("A=1 # comment\nB=x\\\ny\nC=\"two words\"\n")
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{"a": "1", "B": "xy", "C": "two words"} {
		if got, _ := c.get(k); got != want {
			t.Errorf("get(%q) = %q, want %q", k, got, want)
		}
	}
}

func TestWithOption(t *testing.T) {
	if got := withOption("cred_expire=120,socket=/old", "socket", "/new"); got != "cred_expire=120,socket=/new" {
		t.Errorf("withOption = %q", got)
	}
}

// OOMKillStep belongs to task/cgroup: when the stand-ins remove task/cgroup,
// the harness removes OOMKillStep too (slurmctld 24.11+ is fatal on it
// otherwise, about the harness rather than the spec); other parameters stay.
func TestOverridesDropOOMKillStepWithTaskCgroup(t *testing.T) {
	for _, tc := range []struct{ param, want string }{
		{"OOMKillStep", ""},
		{"Verbose,OOMKillStep", "Verbose"},
		{"Verbose", "Verbose"},
		{"SlurmdSpecOverride,Verbose", "Verbose"},
		{"OOMKillStep,SlurmdSpecOverride", ""},
	} {
		c := standInConf(t, "TaskPluginParam="+tc.param+"\n", "")
		got, ok := c.get("TaskPluginParam")
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("TaskPluginParam=%s: got %q (set %v), want %q", tc.param, got, ok, tc.want)
		}
	}
}

// TestOverridesDropCrayWithTaskCgroup: task/cray_aries needs task/cgroup
// after it (slurmd exits otherwise), so it leaves with task/cgroup; without
// task/cgroup in the value it stays, for slurmd to judge.
func TestOverridesDropCrayWithTaskCgroup(t *testing.T) {
	for _, tc := range []struct{ plugins, want string }{
		{"task/none,task/cray_aries,task/cgroup", "task/none"},
		{"task/cray_aries,task/cgroup", "task/none"},
		{"task/affinity,task/cgroup", "task/affinity"},
		{"task/cray_aries", "task/cray_aries"},
		// An empty item stays for slurmctld to judge, after task/none.
		{"task/cgroup,", "task/none,"},
		{"task/cgroup", "task/none"},
	} {
		c := standInConf(t, "TaskPlugin="+tc.plugins+"\n", "")
		if got, _ := c.get("TaskPlugin"); got != tc.want {
			t.Errorf("TaskPlugin=%s: got %q, want %q", tc.plugins, got, tc.want)
		}
	}
}

// TestOverridesProctrackWithX11: the stand-in replaces proctrack/cgroup by
// proctrack/linuxproc, but by proctrack/pgid when PrologFlags has X11,
// which slurmctld refuses with linuxproc.
func TestOverridesProctrackWithX11(t *testing.T) {
	for _, tc := range []struct{ flags, want string }{
		{"", "proctrack/linuxproc"},
		{"PrologFlags=Alloc,x11\n", "proctrack/pgid"},
		{"PrologFlags=Alloc\n", "proctrack/linuxproc"},
	} {
		c := standInConf(t, "ProctrackType=proctrack/cgroup\n"+tc.flags, "")
		if got, _ := c.get("ProctrackType"); got != tc.want {
			t.Errorf("%q: ProctrackType %q, want %q", tc.flags, got, tc.want)
		}
	}
}

// TestOverridesKeepTokensTheReleaseLacks: OOMKillStep (24.11+) and
// SlurmdSpecOverride (25.05+) stay for a release that lacks them, whose
// slurmctld then judges the token itself. Series compare as numbers: a
// host's 9.05 is older than 24.11, though "9.05" > "24.11" as strings.
func TestOverridesKeepTokensTheReleaseLacks(t *testing.T) {
	for _, tc := range []struct{ series, param, want string }{
		{"22.05", "OOMKillStep", "OOMKillStep"},
		{"9.05", "OOMKillStep,SlurmdSpecOverride", "OOMKillStep,SlurmdSpecOverride"},
		{"24.11", "OOMKillStep,SlurmdSpecOverride", "SlurmdSpecOverride"},
		{"26.05", "OOMKillStep,SlurmdSpecOverride,Verbose", "Verbose"},
	} {
		c := standInConf(t, "TaskPluginParam="+tc.param+"\n", tc.series)
		if got, _ := c.get("TaskPluginParam"); got != tc.want {
			t.Errorf("%s TaskPluginParam=%s: got %q, want %q", tc.series, tc.param, got, tc.want)
		}
	}
}

// standInConf is the fixture with extra lines appended, after the
// overrides of a cluster with one stand-in node of the given release
// series ("" for unknown).
func standInConf(t *testing.T, extra, series string) *conf {
	t.Helper()
	c, err := parseConf(readFixture(t) + extra)
	if err != nil {
		t.Fatal(err)
	}
	l := layout{workDir: "/w", mungeSocket: "/w/munge/munge.socket", ctldPort: 1, slurmdPort: 2, dbdPort: 3,
		accounting: true, standIns: []string{"seed-a4-0"}}
	if series != "" {
		if l.series, err = catalog.ParseSeries(series); err != nil {
			t.Fatal(err)
		}
	}
	if err := applyOverrides(c, l); err != nil {
		t.Fatal(err)
	}
	return c
}
