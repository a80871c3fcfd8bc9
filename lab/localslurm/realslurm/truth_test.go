package realslurm

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/lab/localslurm"
)

// truthCase is a setting on which lint and slurmctld must agree. The spec
// is a small valid cluster (truthSpec) with the given slurmSpec.config and
// partitions. When rule is set, lint reports it at severity; the spec is
// then rendered with that rule disabled (it must lint without errors) so
// that slurmctld alone judges it.
type truthCase struct {
	name       string
	config     string // body of slurmSpec.config, YAML
	partitions string // items of partitions, YAML; "" is one partition "debug"
	rule       string
	severity   diag.Severity
	// accounting runs slurmdbd and MariaDB (QOS and TRES come from the
	// accounting database).
	accounting bool
	// refused lists lines slurmctld must log when it refuses to start;
	// when empty, slurmctld must start.
	refused []string
	// logged lists error lines a started slurmctld must log; when empty, it
	// must log none.
	logged []string
	// timeout bounds the start when slurmctld is slow to give up.
	timeout time.Duration
	// serviceLines are appended to the rendered slurm.conf: keys the
	// service writes on a real cluster but slurmspec's rendering leaves
	// out (power saving's SuspendProgram and ResumeProgram are reserved).
	serviceLines []string
	// only lists the releases the case applies to; empty means all.
	only []string
	// pools are further items of nodePools, YAML (such as a GPU pool).
	pools string
	// standIn names a rendered node for which a local slurmd runs
	// (localslurm.Options.StandIns), for lines only slurmd logs: logged
	// and refused are then looked for in slurmd's error lines too.
	standIn string
	// refusedBy is the start stage that must fail when refused is set:
	// "" is slurmctld, "slurmd" the stand-in slurmd.
	refusedBy string
	// shown lists what a started slurmctld runs: each must be in
	// `scontrol show config` or `scontrol -o show partition`.
	shown []string
}

// truthSpec is the spec of every truthCase: cluster "t", one static CPU
// node, a login pool and the given config.
func truthSpec(c truthCase) spec {
	parts := c.partitions
	if parts == "" {
		parts = "- {id: debug, nodePoolIds: [cpu]}"
	}
	var b strings.Builder
	b.WriteString("name: projects/my-project/locations/us-central1/modelDevelopmentClusters/t\n")
	b.WriteString("nodePools:\n")
	b.WriteString("- {id: cpu, machineSpec: {machineType: n2-standard-8}, scalingSpec: {minNodeCount: 1, maxNodeCount: 2}, zone: us-central1-a}\n")
	b.WriteString("- {id: login, machineSpec: {machineType: n2-standard-4}, scalingSpec: {minNodeCount: 1, maxNodeCount: 1}, zone: us-central1-a}\n")
	if c.pools != "" {
		b.WriteString(c.pools + "\n")
	}
	b.WriteString("orchestratorSpec:\n  slurmSpec:\n")
	b.WriteString("    homeDirectoryStorage: projects/my-project/locations/us-central1-a/instances/home\n")
	b.WriteString("    loginNodePoolId: login\n")
	b.WriteString("    partitions:\n")
	for _, l := range strings.Split(parts, "\n") {
		b.WriteString("    " + l + "\n")
	}
	if c.config != "" {
		b.WriteString("    config:\n")
		for _, l := range strings.Split(c.config, "\n") {
			b.WriteString("      " + l + "\n")
		}
	}
	return spec{name: "truth/" + strings.ReplaceAll(c.name, " ", "_") + ".yaml", data: []byte(b.String())}
}

// truthCases were each decided by slurmctld 22.05, 24.11 and 26.05 (Debian
// bookworm, trixie and forky); the lint rule's message quotes what
// slurmctld said.
var truthCases = []truthCase{
	// With AccountingStorageEnforce=qos a missing partition QOS is fatal;
	// without it slurmctld silently runs the partition without the QOS.
	{name: "partition QOS missing enforced", config: "AccountingStorageEnforce: \"associations,limits,qos\"",
		partitions: "- {id: debug, nodePoolIds: [cpu], config: {QOS: high}}",
		rule:       "partition-qos-unknown", severity: diag.Error, accounting: true,
		refused: []string{"Partition debug has an invalid qos (high)"}},
	// From 25.11 a missing QOS, AllowQos or DenyQos is fatal regardless.
	{name: "partition QOS missing", partitions: "- {id: debug, nodePoolIds: [cpu], config: {QOS: high}}",
		rule: "partition-qos-unknown", severity: diag.Warning, accounting: true, only: []string{"22.05", "24.11"}},
	{name: "partition QOS missing", partitions: "- {id: debug, nodePoolIds: [cpu], config: {QOS: high}}",
		rule: "partition-qos-unknown", severity: diag.Error, accounting: true, only: []string{"26.05"},
		refused: []string{"Partition debug has an invalid qos (high)"}},
	{name: "partition QOS normal", config: "AccountingStorageEnforce: \"associations,limits,qos\"",
		partitions: "- {id: debug, nodePoolIds: [cpu], config: {QOS: normal}}", accounting: true},
	{name: "AllowQos missing", config: "AccountingStorageEnforce: \"associations,limits,qos\"",
		partitions: "- {id: debug, nodePoolIds: [cpu], config: {AllowQos: \"normal,low\"}}",
		rule:       "partition-qos-unknown", severity: diag.Warning, accounting: true, only: []string{"22.05", "24.11"},
		logged: []string{"Ignoring invalid Allow/DenyQOS value: low"}},
	{name: "AllowQos missing", partitions: "- {id: debug, nodePoolIds: [cpu], config: {AllowQos: \"normal,low\"}}",
		rule: "partition-qos-unknown", severity: diag.Error, accounting: true, only: []string{"26.05"},
		refused: []string{"Partition debug has an invalid AllowQOS (normal,low)"}},
	{name: "TRES weight not tracked", partitions: "- {id: debug, nodePoolIds: [cpu], config: {TRESBillingWeights: \"CPU=1.0,GRES/gpu=2.0\"}}",
		rule: "tres-weight-unknown", severity: diag.Error, accounting: true,
		refused: []string{"TRES weight 'GRES:gpu' is not a configured TRES type"}},
	{name: "TRES weight tracked", config: "AccountingStorageTRES: gres/gpu",
		partitions: "- {id: debug, nodePoolIds: [cpu], config: {TRESBillingWeights: \"CPU=1.0,Mem=0.25G,GRES/gpu=2.0\"}}", accounting: true},
	{name: "autobind without unit", config: "TaskPluginParam: autobind",
		rule: "invalid-config-value", severity: diag.Error, refused: []string{"Bad TaskPluginParam"}},
	{name: "autobind cores", config: "TaskPluginParam: autobind=cores", accounting: true},
	{name: "burst_buffer none", config: "BurstBufferType: burst_buffer/none",
		rule: "invalid-config-value", severity: diag.Error, refused: []string{"burst_buffer/none"}},
	{name: "FastSchedule 1", config: `FastSchedule: "1"`,
		rule: "config-key-version", severity: diag.Warning, accounting: true, logged: []string{"Ignoring obsolete FastSchedule=1 option"}},
	{name: "FastSchedule 2", config: `FastSchedule: "2"`,
		rule: "config-key-version", severity: diag.Error, refused: []string{"The FastSchedule option has been removed"}},
	{name: "NoAddrCache", config: "CommunicationParameters: NoAddrCache", accounting: true, only: []string{"22.05"}},
	{name: "NoAddrCache defunct", config: "CommunicationParameters: NoAddrCache", accounting: true, only: []string{"24.11", "26.05"},
		rule: "invalid-config-value", severity: diag.Warning, logged: []string{`"NoAddrCache" is defunct`}},
	{name: "PrivateData cloud", config: `PrivateData: "jobs,cloud"`, accounting: true, only: []string{"22.05"}},
	{name: "PrivateData cloud ignored", config: `PrivateData: "jobs,cloud"`, accounting: true, only: []string{"24.11", "26.05"},
		rule: "invalid-config-value", severity: diag.Warning},
	{name: "SuspendExcParts missing", config: "SuspendExcParts: gpu\nSuspendTime: \"600\"", accounting: true,
		serviceLines: powerSaving, rule: "suspend-exc-unknown", severity: diag.Error, logged: []string{"Invalid SuspendExcPart gpu ignored"}},
	{name: "SuspendExcNodes missing", config: "SuspendExcNodes: \"t-cpu-[0-2]\"\nSuspendTime: \"600\"", accounting: true,
		serviceLines: powerSaving, rule: "suspend-exc-unknown", severity: diag.Error, logged: []string{"Invalid SuspendExcNodes t-cpu-[0-2]"}},
	{name: "SuspendExc known", config: "SuspendExcNodes: \"t-cpu-[0-1]:1\"\nSuspendExcParts: debug\nSuspendTime: \"600\"", accounting: true,
		serviceLines: powerSaving},
	{name: "PreemptMode OFF WITHIN without PreemptType", config: "PreemptMode: \"OFF,WITHIN\"",
		rule: "preempt-mode-without-type", severity: diag.Error, refused: []string{"PreemptType and PreemptMode values incompatible"}},
	{name: "energy gpu", config: "AcctGatherEnergyType: acct_gather_energy/gpu", only: []string{"22.05"},
		rule: "invalid-config-value", severity: diag.Error, refused: []string{"undefined symbol: conf"}},
	{name: "energy gpu", config: "AcctGatherEnergyType: acct_gather_energy/gpu", accounting: true, only: []string{"24.11", "26.05"}},
	{name: "MaxNodeCount below the nodes", config: `MaxNodeCount: "1"`,
		rule: "max-node-count-select", severity: diag.Error, refused: []string{"past MaxNodeCount"}},
	{name: "CliFilterPlugins none with lua", config: `CliFilterPlugins: "none,cli_filter/lua"`, accounting: true, only: []string{"24.11", "26.05"},
		rule: "invalid-config-value", severity: diag.Error, logged: []string{"You can't have 'none' with another plugin"}},
	{name: "SelectTypeParameters without unit", config: `SelectTypeParameters: "CR_LLN,CR_ONE_TASK_PER_CORE"`,
		rule: "select-params-no-unit", severity: diag.Error, refused: []string{"You need at least CR_(CPU|CORE|SOCKET)*"}},
	// slurmdbd.conf is the service's: slurmdbd keeps hash/k12.
	{name: "HashPlugin sha3", config: "HashPlugin: hash/sha3", accounting: true, only: []string{"24.11", "26.05"},
		rule: "invalid-config-value", severity: diag.Error, refused: []string{"Retrying initial connection to slurmdbd"}, timeout: 45 * time.Second},
	{name: "CpuBind two types", partitions: "- {id: debug, nodePoolIds: [cpu], config: {CpuBind: \"thread,cores\"}}", accounting: true,
		rule: "invalid-config-value", severity: diag.Error, logged: []string{"CpuBind='thread,cores' is invalid, ignored"}},
	{name: "select linear with the default", config: "SelectType: select/linear",
		rule: "select-params-no-unit", severity: diag.Error, refused: []string{"it can't contain CR_(CPU|CORE|SOCKET)"}},
	{name: "job_submit lua", config: "JobSubmitPlugins: \"require_timelimit,lua\"",
		rule: "plugin-needs-file", severity: diag.Error, refused: []string{"job_submit.lua"}},
	{name: "jobcomp script with JobCompLoc", config: "JobCompType: jobcomp/script\nJobCompLoc: /bin/true", accounting: true},
	{name: "MpiDefault openmpi", config: "MpiDefault: openmpi", accounting: true, only: []string{"22.05"},
		rule: "invalid-config-value", severity: diag.Warning, logged: []string{"Translating obsolete 'MpiDefault=openmpi'"}},
	{name: "MpiDefault openmpi", config: "MpiDefault: openmpi", accounting: true, only: []string{"24.11", "26.05"},
		rule: "invalid-config-value", severity: diag.Warning},
	{name: "topology tree", config: "TopologyPlugin: topology/tree",
		rule: "plugin-needs-file", severity: diag.Error, refused: []string{"topology.conf"}, timeout: 150 * time.Second},
}

// runTruthCases runs each case on real Slurm of every release it applies
// to (all, or those its only field names), linted and rendered for that
// release (testTruth).
func runTruthCases(t *testing.T, cases []truthCase) {
	t.Parallel()
	for _, release := range localslurm.Releases() {
		t.Run(release, func(t *testing.T) {
			t.Parallel()
			requirePrereqsFor(t, release)
			for _, c := range cases {
				if len(c.only) > 0 && !slices.Contains(c.only, release) {
					continue
				}
				t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
					t.Parallel() // each case starts its own cluster: they share nothing
					testTruth(t, c, release)
				})
			}
		})
	}
}

// powerSaving stands in for the power-saving keys the service writes.
var powerSaving = []string{"SuspendProgram=/bin/true", "ResumeProgram=/bin/true"}

// TestLintAgreesWithSlurmctld runs each truthCase on real slurmctld of
// every release (22.05 on the host, 24.11 and 26.05 in root file systems),
// linted and rendered for that release.
func TestLintAgreesWithSlurmctld(t *testing.T) {
	runTruthCases(t, truthCases)
}

func testTruth(t *testing.T, c truthCase, release string) {
	s := truthSpec(c)
	all := compileSpecVersion(t, s, release)
	var disabled []string
	if c.rule != "" {
		if !hasFinding(all.diags, c.rule, c.severity) {
			t.Errorf("lint: want a %s from %s, got:\n%s", c.severity, c.rule, allText(all.diags))
		}
		disabled = append(disabled, c.rule)
	}
	sp := compileSpecVersion(t, s, release, disabled...)
	if sp.cluster == nil || sp.diags.HasErrors() {
		t.Fatalf("spec must lint without errors (rule %q disabled):\n%s", c.rule, errorsText(sp.diags))
	}
	dir, _ := renderSpecVersion(t, sp, release)
	if len(c.serviceLines) > 0 {
		appendLines(t, filepath.Join(dir, "slurm.conf"), c.serviceLines)
	}
	o := localslurm.Options{Accounting: c.accounting, Release: release}
	if c.standIn != "" {
		o.StandIns = []string{c.standIn}
	}
	if c.timeout > 0 {
		o.ReadyTimeout = c.timeout
	}
	if len(c.refused) > 0 {
		stage := "slurmctld"
		if c.refusedBy == "slurmd" {
			stage = "slurmd-" + c.standIn
		}
		refusedWith(t, dir, o, c.timeout, stage, c.refused)
		return
	}
	cl := start(t, dir, o)
	errorLines := func() string {
		l := cl.LogErrors()
		if c.standIn != "" {
			l = append(l, cl.SlurmdErrors(c.standIn)...)
		}
		return strings.Join(l, "\n")
	}
	errs := errorLines()
	for _, w := range c.logged {
		deadline := time.Now().Add(15 * time.Second)
		for !strings.Contains(errs, w) && time.Now().Before(deadline) {
			time.Sleep(250 * time.Millisecond)
			errs = errorLines()
		}
		if !strings.Contains(errs, w) {
			t.Errorf("slurmctld's error lines lack %q:\n%s", w, errs)
		}
	}
	if len(c.shown) > 0 {
		spaces := regexp.MustCompile(`[ \t]+`)
		conf := spaces.ReplaceAllString(cl.run(t, "scontrol", "show", "config")+cl.run(t, "scontrol", "-o", "show", "partition"), " ")
		for _, w := range c.shown {
			if !strings.Contains(conf, spaces.ReplaceAllString(w, " ")) {
				t.Errorf("scontrol shows no %q:\n%s", w, conf)
			}
		}
	}
	if len(c.logged) == 0 && errs != "" {
		t.Errorf("slurmctld or the stand-in slurmd logged error lines:\n%s", errs)
	}
	t.Logf("slurmctld started; error lines:\n%s", errs)
	t.Run("stop leaves no process", cl.stopAndCheck)
}

// hasFinding reports whether l holds a finding of rule at severity sev.
func hasFinding(l diag.List, rule string, sev diag.Severity) bool {
	for _, d := range l {
		if d.Rule == rule && d.Severity == sev {
			return true
		}
	}
	return false
}

func allText(l diag.List) string {
	var lines []string
	for _, d := range l {
		lines = append(lines, "  "+d.Pos.String()+": "+d.Severity.String()+": "+d.Message+" ["+d.Rule+"]")
	}
	return strings.Join(lines, "\n")
}

// refusedWith is expectRefused with options (accounting, a longer wait,
// stand-ins): Start must fail at stage (slurmctld, or a stand-in's
// "slurmd-NODE") with each of wants among the error lines of slurmctld and
// the stand-ins, leaving nothing running.
func refusedWith(t *testing.T, dir string, o localslurm.Options, timeout time.Duration, stage string, wants []string) {
	t.Helper()
	parent, err := os.MkdirTemp("", "realslurm-truth-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(parent) })
	if err := os.Chmod(parent, 0o755); err != nil {
		t.Fatal(err)
	}
	o.Dir, o.WorkDir, o.Log = dir, filepath.Join(parent, "work"), testLog{t}
	if timeout == 0 {
		timeout = startTimeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	began := time.Now()
	cl, err := localslurm.Start(ctx, o)
	if err == nil {
		_ = cl.Stop()
		t.Fatalf("slurmctld accepted the configuration; want it refused with %q", wants)
	}
	var se *localslurm.StartError
	if !errors.As(err, &se) {
		t.Fatalf("Start: %v; want a *localslurm.StartError", err)
	}
	lines := se.LogErrors
	for _, n := range o.StandIns {
		lines = append(lines, slurmdErrorLines(t, filepath.Join(o.WorkDir, "log", "slurmd-"+n+".out"))...)
	}
	joined := strings.Join(lines, "\n")
	t.Logf("refused after %v (stage %s); error lines:\n  %s", time.Since(began).Round(time.Second), se.Stage, strings.ReplaceAll(joined, "\n", "\n  "))
	if se.Stage != stage {
		t.Errorf("failed stage %q, want %s: %v", se.Stage, stage, err)
	}
	if !strings.Contains(joined, "fatal") {
		t.Logf("slurmctld's error lines have no fatal line (it exited or never came up)")
	}
	// A daemon that dies of a signal logs nothing of it: its exit
	// ("signal: aborted (core dumped)") is in the start error.
	for _, w := range wants {
		if !strings.Contains(joined, w) && !strings.Contains(err.Error(), w) {
			t.Errorf("slurmctld's error lines and exit lack %q", w)
		}
	}
	if left := processesUsing(o.WorkDir); len(left) > 0 {
		t.Errorf("processes %v of the refused cluster still running", left)
	}
}

// appendLines appends lines to a rendered file, logging them.
func appendLines(t *testing.T, path string, lines []string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString("# appended by the test for the service\n" + strings.Join(lines, "\n") + "\n"); err != nil {
		t.Fatal(err)
	}
	t.Logf("appended to %s, as the service writes them: %s", filepath.Base(path), strings.Join(lines, " "))
}

// slurmdErrorLines returns the error and fatal lines of a stand-in slurmd's
// output file, which a refused cluster leaves in its work directory.
func slurmdErrorLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatalf("read the stand-in slurmd's output: %v", err)
	}
	var out []string
	for _, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, "error:") || strings.Contains(l, "fatal:") {
			out = append(out, l)
		}
	}
	return out
}
