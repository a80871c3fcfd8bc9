package realslurm

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/lab/localslurm"
	"github.com/slurmspec/slurmspec/render"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// extra is more testing for one spec, on the cluster already started for it.
type extra struct {
	// name names the subtest.
	name string
	// runsJobs asks for a stand-in slurmd on jobNode, beyond cloudStandIns.
	runsJobs bool
	// test runs after the spec's checks.
	test func(t *testing.T, cl *cluster, sp compiled)
}

// extras holds the specs tested beyond checkSpec.
var extras = map[string]extra{
	// The product docs' example: accounting as the docs describe it.
	"examples/seed.jsonc": {name: "accounting", runsJobs: true, test: testAccounting},
}

// jobNode is the node jobs run on: the first static node of the default
// partition's first pool.
func jobNode(t *testing.T, c *ir.Cluster) string {
	t.Helper()
	if p := c.Slurm.DefaultPartition(); p != nil && len(p.NodePoolIDs) > 0 {
		if static, _ := poolNodes(c, c.Pool(p.NodePoolIDs[0].Value)); len(static) > 0 {
			return static[0]
		}
	}
	t.Fatalf("%s: the default partition's first pool has no static node to run jobs on", c.File)
	return ""
}

// TestSpecsOnSlurm renders, for each release the harness runs (22.05 on the
// host, 24.11 and 26.05 from their root file systems), every example and
// every golden spec of testdata/script with that --slurm-version, starts
// that release's slurmctld (with slurmdbd and MariaDB, as the rendered
// AccountingStorageType expects) on each, and checks that slurmctld
// accepted it and shows the spec's partitions, nodes and settings. The
// examples must also lint clean for every release. Golden specs that do
// not lint clean are left out, except those whose only errors for the
// release are keys it lacks: its slurmctld must refuse those. Specs that
// give Slurm the same slurm.conf (comments aside) and scripts run once per
// release. Asked for (slurmtest), a release this host cannot run fails.
func TestSpecsOnSlurm(t *testing.T) {
	t.Parallel()
	for _, release := range localslurm.Releases() {
		t.Run(release, func(t *testing.T) {
			t.Parallel()
			testSpecsOn(t, release)
		})
	}
}

// testSpecsOn is TestSpecsOnSlurm for one release.
func testSpecsOn(t *testing.T, release string) {
	requirePrereqsFor(t, release)
	type job struct {
		c   compiled
		dir string
		set render.Set
	}
	var jobs []job
	var refused []compiled
	ranBy := map[string]string{}
	add := func(c compiled) {
		dir, set := renderSpecVersion(t, c, release)
		key := renderKey(set)
		if first, ok := ranBy[key]; ok {
			if _, special := extras[c.name]; !special {
				t.Logf("%s: renders for Slurm what %s renders; checked there", c.name, first)
				return
			}
		}
		ranBy[key] = c.name
		jobs = append(jobs, job{c, dir, set})
	}
	for _, s := range exampleSpecs(t) {
		c := compileSpecVersion(t, s, release)
		if c.cluster == nil || c.diags.HasErrors() {
			t.Errorf("example %s does not lint clean for Slurm %s:\n%s", s.name, release, errorsText(c.diags))
			continue
		}
		add(c)
	}
	newest := catalog.Newest().String()
	for _, s := range goldenSpecs(t) {
		c := compileSpecVersion(t, s, release)
		switch {
		case c.cluster != nil && !c.diags.HasErrors():
			add(c)
		case c.cluster != nil && onlyRule(c.diags, "config-key-version") && !compileSpecVersion(t, s, newest).diags.HasErrors():
			t.Logf("%s: lints clean for Slurm %s but not %s (config-key-version); slurmctld %s must refuse it", s.name, newest, release, release)
			refused = append(refused, c)
		default:
			t.Logf("%s: left out, it does not lint clean: %s", s.name, firstLine(errorsText(c.diags)))
		}
	}
	for _, j := range jobs {
		t.Run(subtestName(j.c.name), func(t *testing.T) {
			t.Parallel() // each spec starts its own cluster: they share nothing
			x := extras[j.c.name]
			standIns := cloudStandIns(j.c.cluster)
			if x.runsJobs {
				standIns = append([]string{jobNode(t, j.c.cluster)}, standIns...)
			}
			cl := start(t, j.dir, localslurm.Options{Release: release, Accounting: true, StandIns: standIns})
			checkSpec(t, cl, j.c, j.set)
			if x.test != nil {
				t.Run(x.name, func(t *testing.T) { x.test(t, cl, j.c) })
			}
			t.Run("stop leaves no process", cl.stopAndCheck)
		})
	}
	for _, c := range refused {
		t.Run(subtestName(c.name)+" refused", func(t *testing.T) {
			t.Parallel()
			dir, _ := renderSpecVersion(t, c, release)
			var wants []string
			for _, d := range c.diags {
				if d.Rule == "config-key-version" {
					key := strings.Fields(d.Message)[0]
					wants = append(wants, "unrecognized key: "+key)
				}
			}
			expectRefusedOn(t, release, dir, wants)
		})
	}
}

// onlyRule reports whether l has errors and every one comes from the rule.
func onlyRule(l diag.List, rule string) bool {
	n := 0
	for _, d := range l {
		if d.Severity == diag.Error {
			if d.Rule != rule {
				return false
			}
			n++
		}
	}
	return n > 0
}

// subtestName names a spec's subtest without the slashes that -run would
// take for subtest levels: "seed.jsonc", "diff.txtar:changed.yaml".
func subtestName(name string) string {
	name = strings.TrimPrefix(name, "examples/")
	name = strings.TrimPrefix(name, "testdata/script/")
	return strings.ReplaceAll(name, "/", "_")
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " ..."
	}
	return s
}

// expectRefused starts slurmctld on a rendered directory and requires it to
// refuse: Start fails at the slurmctld stage, slurmctld's own error lines
// include a fatal line and each of wants, and nothing is left running.
func expectRefused(t *testing.T, dir string, wants []string) {
	t.Helper()
	expectRefusedOn(t, "", dir, wants)
}

// expectRefusedOn is expectRefused on a given release ("" for the host's).
func expectRefusedOn(t *testing.T, release, dir string, wants []string) {
	t.Helper()
	parent, err := os.MkdirTemp("", "realslurm-refused-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(parent) })
	if err := os.Chmod(parent, 0o755); err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(parent, "work")
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	cl, err := localslurm.Start(ctx, localslurm.Options{Dir: dir, WorkDir: work, Release: release, Log: testLog{t}})
	if err == nil {
		procs := cl.Processes()
		_ = cl.Stop()
		t.Fatalf("slurmctld accepted the configuration (processes %v); want it refused with %q", procs, wants)
	}
	var se *localslurm.StartError
	if !errors.As(err, &se) {
		t.Fatalf("Start: %v; want a *localslurm.StartError", err)
	}
	t.Logf("refused as expected; slurmctld's error lines:\n  %s", strings.Join(se.LogErrors, "\n  "))
	if se.Stage != "slurmctld" {
		t.Errorf("failed stage %q, want slurmctld: %v", se.Stage, err)
	}
	joined := strings.Join(se.LogErrors, "\n")
	if !strings.Contains(joined, "fatal:") {
		t.Errorf("slurmctld's error lines have no fatal line:\n%s", joined)
	}
	for _, w := range wants {
		if !strings.Contains(joined, w) {
			t.Errorf("slurmctld's error lines lack %q:\n%s", w, joined)
		}
	}
	if left := processesUsing(work); len(left) > 0 {
		t.Errorf("processes %v of the refused cluster still running", left)
	}
}

// processesUsing returns live processes whose command line mentions s.
func processesUsing(s string) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(b), s) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// testAccounting checks accounting as the product docs describe it: with
// AccountingStorageEnforce=associations,limits,qos, a job from a user
// without an association is refused, and after `sacctmgr add account` and
// `sacctmgr add user ... Accounts= Partition=` the same user's job runs. The
// user is the system user daemon (uid 1, on every Debian system), so
// nothing on the host changes; root submits as daemon with runuser inside
// the cluster's namespace. Not nobody: slurmctld 26.05 does not resolve
// uid 65534 ("error: User 65534 not found", the association's user shown
// as nobody(4294967294)), so its job is refused although the association
// exists; 22.05 and 24.11 resolve it.
func testAccounting(t *testing.T, cl *cluster, sp compiled) {
	if got := cl.run(t, "scontrol", "show", "config"); !strings.Contains(got, "AccountingStorageEnforce = associations,limits,qos") {
		t.Fatalf("the spec's AccountingStorageEnforce is not in force:\n%s", got)
	}
	runuser, err := exec.LookPath("runuser")
	if err != nil {
		runuser = "/usr/sbin/runuser"
	}
	const user, account = "daemon", "research"
	part := sp.cluster.Slurm.DefaultPartitionID.Value
	node := jobNode(t, sp.cluster)
	sbatch := []string{"-u", user, "--", "sbatch", "--parsable", "-p", part, "-w", node, "-D", "/tmp", "-o", "/dev/null", "--wrap", "id -un"}

	out, err := cl.output(runuser, sbatch...)
	if err == nil {
		t.Fatalf("a job from %s, who has no association, was accepted: %s", user, out)
	}
	if !strings.Contains(out, "Invalid account or account/partition combination") {
		t.Errorf("refusal without an association: %q, want \"Invalid account or account/partition combination specified\"", out)
	}
	t.Logf("without an association: %s", strings.TrimSpace(out))

	cl.run(t, "sacctmgr", "-i", "add", "account", account)
	cl.run(t, "sacctmgr", "-i", "add", "user", user, "Accounts="+account, "Partition="+part)
	assoc := cl.run(t, "sacctmgr", "-n", "-P", "list", "assoc", "user="+user, "format=cluster,account,user,partition")
	if want := sp.cluster.ID.Value + "|" + account + "|" + user + "|" + part; strings.TrimSpace(assoc) != want {
		t.Errorf("association %q, want %q", strings.TrimSpace(assoc), want)
	}
	// slurmdbd pushes the new association to slurmctld; allow it a moment.
	var id string
	deadline := time.Now().Add(15 * time.Second)
	for {
		out, err = cl.output(runuser, sbatch...)
		if err == nil {
			id, _, _ = strings.Cut(strings.TrimSpace(out), ";")
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a job from %s with an association is still refused: %v", user, err)
		}
		time.Sleep(250 * time.Millisecond)
	}
	f := cl.waitJob(t, id, "finished", func(f localslurm.Fields) bool { return finished(f["JobState"]) })
	if f["JobState"] != "COMPLETED" || !strings.HasPrefix(f["UserId"], user+"(") || f["Account"] != account {
		t.Errorf("job %s: JobState=%s UserId=%s Account=%s, want COMPLETED as %s in account %s", id, f["JobState"], f["UserId"], f["Account"], user, account)
	}
	t.Logf("with an association: job %s %s as %s, account %s, partition %s", id, f["JobState"], f["UserId"], f["Account"], f["Partition"])
}

// fakeNvidiaSMI is the nvidia-smi the stand-in node's prolog finds: it
// lists the 8 B200s of an a4-highgpu-8g and records each call.
const fakeNvidiaSMI = `#!/bin/sh
echo "nvidia-smi $* job=${SLURM_JOB_ID:-}" >> "$(dirname "$0")/calls.log"
for i in 0 1 2 3 4 5 6 7; do echo "GPU $i: NVIDIA B200 (UUID: GPU-localslurm-$i)"; done
`

// TestPreemptionRequeuesLowerTier runs examples/a4-training.yaml's
// preemption for real: PreemptType=preempt/partition_prio, global
// PreemptMode=REQUEUE, partitions train (PriorityTier=10) and preempt
// (PriorityTier=1, PreemptMode=REQUEUE) over the same A4 node. A job in
// preempt is requeued when a job in train needs its node. It also checks
// the priority weights in sprio.
//
// One stated change: the example's PreemptExemptTime=00:10:00 would keep
// the low-tier job for ten minutes, so the test renders a variant of the
// example with PreemptExemptTime "00:00:01", and asserts that this is the
// only difference in the spec's config and in the rendered slurm.conf.
//
// The example's prolog counts GPUs with nvidia-smi. The stand-in node has
// none, so inside the cluster's private mount namespace a fake nvidia-smi
// that lists 8 B200s is bind-mounted over /usr/local/sbin (in the default
// PATH of Slurm 22.05's prolog); the prolog itself runs as rendered.
func TestPreemptionRequeuesLowerTier(t *testing.T) {
	t.Parallel()
	requirePrereqs(t)
	const from, to = `PreemptExemptTime: "00:10:00"`, `PreemptExemptTime: "00:00:01"`
	example := exampleSpec(t, "a4-training.yaml")
	if n := strings.Count(string(example.data), from); n != 1 {
		t.Fatalf("examples/a4-training.yaml has %d lines %q, want 1", n, from)
	}
	variant := spec{
		name: "a4-training-preempt-exempt-1s.yaml", // examples/a4-training.yaml with PreemptExemptTime "00:00:01"
		data: []byte(strings.Replace(string(example.data), from, to, 1)),
	}
	orig, c := compileSpec(t, example), compileSpec(t, variant)
	if c.cluster == nil || c.diags.HasErrors() {
		t.Fatalf("variant does not lint clean for Slurm %s:\n%s", slurmVersion, errorsText(c.diags))
	}
	for _, d := range c.diags {
		t.Logf("variant lint: %s: %s [%s]", d.Severity, d.Message, d.Rule)
	}
	if diff := configDiff(orig.cluster.Slurm.Config, c.cluster.Slurm.Config); !slices.Equal(diff, []string{"PreemptExemptTime: 00:10:00 -> 00:00:01"}) {
		t.Fatalf("the variant's config differs from the example's by %v, want only PreemptExemptTime", diff)
	}
	_, origSet := renderSpec(t, orig)
	dir, set := renderSpec(t, c)
	lines := renderedDiff(origSet, set)
	t.Logf("stated override, the only difference from the rendered example:\n  %s", strings.Join(lines, "\n  "))
	if !slices.Equal(lines, []string{"slurm.conf: -PreemptExemptTime=00:10:00", "slurm.conf: +PreemptExemptTime=00:00:01"}) {
		t.Fatalf("the rendered variant differs from the rendered example by %v, want only the PreemptExemptTime line", lines)
	}

	node := jobNode(t, c.cluster)
	cl := start(t, dir, localslurm.Options{Accounting: true, StandIns: append([]string{node}, cloudStandIns(c.cluster)...)})
	checkSpec(t, cl, c, set)

	t.Run("preemption", func(t *testing.T) {
		fake := t.TempDir()
		if err := os.Chmod(fake, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(fake, "nvidia-smi"), []byte(fakeNvidiaSMI), 0o755); err != nil {
			t.Fatal(err)
		}
		cl.run(t, "mount", "--bind", fake, "/usr/local/sbin")
		t.Logf("stand-in environment: fake nvidia-smi (8 x B200) bind-mounted over /usr/local/sbin in namespace %s", cl.Namespace())

		jobArgs := func(part string) []string {
			return []string{"-p", part, "-w", node, "--exclusive", "-D", "/tmp", "-o", "/dev/null", "--wrap", "sleep 300"}
		}
		low := cl.submit(t, jobArgs("preempt")...)
		lf := cl.waitJob(t, low, "RUNNING", func(f localslurm.Fields) bool { return f["JobState"] == "RUNNING" || finished(f["JobState"]) })
		if lf["JobState"] != "RUNNING" {
			t.Fatalf("low-tier job %s: JobState=%s Reason=%s, want RUNNING", low, lf["JobState"], lf["Reason"])
		}
		time.Sleep(1500 * time.Millisecond) // past PreemptExemptTime=00:00:01
		high := cl.submit(t, jobArgs("train")...)
		hf := cl.waitJob(t, high, "RUNNING", func(f localslurm.Fields) bool { return f["JobState"] == "RUNNING" || finished(f["JobState"]) })
		if hf["JobState"] != "RUNNING" || hf["NodeList"] != node {
			t.Fatalf("high-tier job %s: JobState=%s NodeList=%s, want RUNNING on %s", high, hf["JobState"], hf["NodeList"], node)
		}
		lf = cl.job(t, low)
		if lf["JobState"] != "PENDING" || lf["Restarts"] != "1" || lf["Requeue"] != "1" {
			t.Errorf("low-tier job %s after the high-tier job started: JobState=%s Restarts=%s Requeue=%s, want PENDING, requeued once", low, lf["JobState"], lf["Restarts"], lf["Requeue"])
		}
		t.Logf("low-tier job %s (preempt, PriorityTier=1): JobState=%s Reason=%s Restarts=%s; high-tier job %s (train, PriorityTier=10): %s on %s",
			low, lf["JobState"], lf["Reason"], lf["Restarts"], high, hf["JobState"], hf["NodeList"])
		var state string
		for deadline := time.Now().Add(jobTimeout); time.Now().Before(deadline); time.Sleep(250 * time.Millisecond) {
			state = strings.TrimSpace(cl.run(t, "sacct", "-n", "-X", "-P", "-D", "-j", low, "-o", "State"))
			if strings.Contains(state, "PREEMPTED") {
				break
			}
		}
		if !strings.Contains(state, "PREEMPTED") {
			t.Errorf("sacct -D for job %s: %q, want a PREEMPTED run", low, state)
		}
		calls, err := os.ReadFile(filepath.Join(fake, "calls.log"))
		if err != nil || !strings.Contains(string(calls), "job="+low) || !strings.Contains(string(calls), "job="+high) {
			t.Errorf("the example's prolog did not call nvidia-smi for jobs %s and %s: %q %v", low, high, calls, err)
		}
		if n, ok := findNode(t, cl, node); ok && strings.Contains(n["State"], "DRAIN") {
			t.Errorf("node %s: State=%s Reason=%s; the example's prolog failed", node, n["State"], n["Reason"])
		}

		// sprio: the configured weights, and a pending job's factors.
		weights := strings.Fields(cl.run(t, "sprio", "-w", "-o", "%.15A %.15F"))
		if !slices.Equal(weights, []string{"AGE", "FAIRSHARE", "1000", "10000"}) {
			t.Errorf("sprio -w (age, fairshare weights): %v, want AGE=1000 FAIRSHARE=10000 (PriorityWeightAge, PriorityWeightFairshare)", weights)
		}
		waiting := cl.submit(t, jobArgs("train")...)
		cl.waitJob(t, waiting, "PENDING for resources", func(f localslurm.Fields) bool { return f["JobState"] == "PENDING" && f["Reason"] != "None" })
		long := cl.run(t, "sprio", "-l")
		t.Logf("sprio -l:\n%s", long)
		header := strings.Fields(firstLine(long))
		if !slices.Contains(header, "AGE") || !slices.Contains(header, "FAIRSHARE") {
			t.Errorf("sprio -l has no AGE and FAIRSHARE columns: %q", long)
		}
		if !slices.ContainsFunc(strings.Split(long, "\n"), func(l string) bool {
			f := strings.Fields(l)
			return len(f) > 0 && f[0] == waiting
		}) {
			t.Errorf("sprio -l does not list pending job %s", waiting)
		}
	})
	t.Run("stop leaves no process", cl.stopAndCheck)
}

// findNode returns a node's record.
func findNode(t *testing.T, cl *cluster, name string) (localslurm.Fields, bool) {
	t.Helper()
	nodes, err := cl.ShowNodes()
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range nodes {
		if n["NodeName"] == name {
			return n, true
		}
	}
	return nil, false
}

// exampleSpec reads one spec of examples/.
func exampleSpec(t *testing.T, name string) spec {
	t.Helper()
	for _, s := range exampleSpecs(t) {
		if s.name == "examples/"+name {
			return s
		}
	}
	t.Fatalf("examples/%s not found", name)
	return spec{}
}

// configDiff lists the keys whose values differ between two config maps.
func configDiff(a, b []ir.KV) []string {
	am, bm := map[string]string{}, map[string]string{}
	var keys []string
	for _, kv := range a {
		am[kv.Key.Value] = kv.Value.Value
		keys = append(keys, kv.Key.Value)
	}
	for _, kv := range b {
		bm[kv.Key.Value] = kv.Value.Value
		if !slices.Contains(keys, kv.Key.Value) {
			keys = append(keys, kv.Key.Value)
		}
	}
	var out []string
	for _, k := range keys {
		if am[k] != bm[k] {
			out = append(out, fmt.Sprintf("%s: %s -> %s", k, am[k], bm[k]))
		}
	}
	return out
}

// renderedDiff lists the lines that differ between two rendered sets, for
// every file but cluster.json (the API body, which Slurm never reads), as
// "path: -line" and "path: +line".
func renderedDiff(a, b render.Set) []string {
	var out []string
	var paths []string
	for _, s := range []render.Set{a, b} {
		for _, f := range s {
			// cluster.json and pulumi/ restate the API body for the
			// service; Slurm reads slurm.conf and the scripts.
			if f.Path != "cluster.json" && !strings.HasPrefix(f.Path, "pulumi/") && !slices.Contains(paths, f.Path) {
				paths = append(paths, f.Path)
			}
		}
	}
	slices.Sort(paths)
	lines := func(s render.Set, p string) []string {
		if f := s.Get(p); f != nil {
			return strings.Split(string(f.Data), "\n")
		}
		return nil
	}
	for _, p := range paths {
		al, bl := lines(a, p), lines(b, p)
		for _, l := range al {
			if !slices.Contains(bl, l) {
				out = append(out, p+": -"+l)
			}
		}
		for _, l := range bl {
			if !slices.Contains(al, l) {
				out = append(out, p+": +"+l)
			}
		}
	}
	return out
}

// TestPrologEpilogRunInListOrder runs a job on a stand-in node with the
// spec lab/localslurm/testdata/realslurm/prolog-order.yaml (3 prolog and
// 2 epilog scripts that append their index to a file) and proves:
//
//   - the spec's prolog scripts all run on the node before the job, and its
//     epilog scripts all run after it;
//   - they run in the spec's list order. Slurm 22.05 runs the files matched
//     by Prolog=/etc/slurm/prolog.d/* (and Epilog=) in REVERSE alphabetical
//     order (03-prolog.sh, 02-prolog.sh, 01-prolog.sh — observed here), so
//     the renderer numbers the files counting down: the first script is the
//     highest number.
func TestPrologEpilogRunInListOrder(t *testing.T) {
	t.Parallel()
	requirePrereqs(t)
	c := compileSpec(t, testSpec(t, "realslurm/prolog-order.yaml"))
	if c.cluster == nil || c.diags.HasErrors() {
		t.Fatalf("spec does not lint clean:\n%s", errorsText(c.diags))
	}
	dir, set := renderSpec(t, c)
	var files []string
	for _, a := range set {
		if strings.HasPrefix(a.Path, "prolog.d/") || strings.HasPrefix(a.Path, "epilog.d/") {
			files = append(files, a.Path)
		}
	}
	wantFiles := []string{"epilog.d/01-epilog.sh", "epilog.d/02-epilog.sh", "prolog.d/01-prolog.sh", "prolog.d/02-prolog.sh", "prolog.d/03-prolog.sh"}
	if !slices.Equal(files, wantFiles) {
		t.Fatalf("rendered scripts %v, want %v", files, wantFiles)
	}
	n := len(c.cluster.Slurm.Prolog)
	for i, s := range c.cluster.Slurm.Prolog {
		name := fmt.Sprintf("prolog.d/%02d-prolog.sh", n-i)
		if got := string(set.Get(name).Data); !strings.Contains(got, fmt.Sprintf("prolog %d ", i+1)) {
			t.Fatalf("%s does not hold prolog script %d of the spec (%s): %q", name, i+1, s.Path, got)
		}
	}
	node := jobNode(t, c.cluster)
	cl := start(t, dir, localslurm.Options{Accounting: true, StandIns: []string{node}})
	checkSpec(t, cl, c, set)

	t.Run("order", func(t *testing.T) {
		work, err := os.MkdirTemp("", "realslurm-scripts-")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(work) })
		if err := os.Chmod(work, 0o755); err != nil {
			t.Fatal(err)
		}
		logPath := filepath.Join(work, "scripts.log")
		var ids []string
		for range 2 {
			id := cl.submit(t, "-w", node, "-D", work, "-o", "/dev/null", "--wrap", `echo "job $SLURM_JOB_ID" >> scripts.log`)
			f := cl.waitJob(t, id, "finished", func(f localslurm.Fields) bool { return finished(f["JobState"]) })
			if f["JobState"] != "COMPLETED" {
				t.Fatalf("job %s: JobState=%s Reason=%s, want COMPLETED", id, f["JobState"], f["Reason"])
			}
			ids = append(ids, id)
		}
		// The epilog runs after the job completes; wait for its lines.
		var got []string
		deadline := time.Now().Add(jobTimeout)
		for {
			data, _ := os.ReadFile(logPath)
			got = strings.Split(strings.TrimSpace(string(data)), "\n")
			if strings.Count(string(data), "epilog ") == 2*len(ids) || time.Now().After(deadline) {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Logf("scripts.log:\n  %s", strings.Join(got, "\n  "))
		var want []string
		for _, id := range ids {
			// Slurm runs the files in reverse order of their names, which
			// the renderer's count-down names make the spec's list order.
			want = append(want, "prolog 1 "+id, "prolog 2 "+id, "prolog 3 "+id, "job "+id, "epilog 1 "+id, "epilog 2 "+id)
		}
		if !slices.Equal(got, want) {
			t.Errorf("scripts ran as\n  %s\nwant (the spec's list order, around the job)\n  %s",
				strings.Join(got, "\n  "), strings.Join(want, "\n  "))
		}
	})
	t.Run("stop leaves no process", cl.stopAndCheck)
}

// TestRefusedBySlurmctld is the negative control: a configuration that
// slurmctld refuses (global PreemptMode=SUSPEND without GANG under
// preempt/partition_prio, rendered with the lint rule
// preempt-suspend-needs-gang disabled) makes Start fail with slurmctld's
// own fatal line, so the suite can fail; and the lint rule, enabled,
// reports exactly that spec.
func TestRefusedBySlurmctld(t *testing.T) {
	t.Parallel()
	requirePrereqs(t)
	const rule = "preempt-suspend-needs-gang"
	s := testSpec(t, "realslurm/preempt-suspend-no-gang.yaml")
	enabled := compileSpec(t, s)
	if enabled.cluster == nil || !hasRule(enabled.diags, rule) || !onlyRule(enabled.diags, rule) {
		t.Errorf("lint with every rule: want errors from %s only, got:\n%s", rule, errorsText(enabled.diags))
	}
	disabled := compileSpec(t, s, rule)
	if disabled.cluster == nil || disabled.diags.HasErrors() {
		t.Fatalf("with %s disabled the spec must lint clean, so that slurmctld alone judges it:\n%s", rule, errorsText(disabled.diags))
	}
	dir, _ := renderSpec(t, disabled)
	expectRefused(t, dir, []string{"PreemptMode=SUSPEND requires GANG too"})
}
