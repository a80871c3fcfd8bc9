package realslurm

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/slurmspec/slurmspec/lab/localslurm"
	"github.com/slurmspec/slurmspec/render/sacctmgr"
	"github.com/slurmspec/slurmspec/schema/accounting"
)

// qosAccounting is the accounting file of TestQOSPreemptionAndLimit: a
// scavenger QOS requeued by an urgent QOS, which allows one node per user.
const qosAccounting = `qos:
  - {name: scavenger, preemptMode: requeue}
  - {name: urgent, preempt: [scavenger], limits: {MaxTRESPerUser: "node=1"}}
accounts:
  - {name: research, qos: [normal, scavenger, urgent], defaultQos: normal}
users:
  - {name: root, defaultAccount: root, accounts: [research]}
`

// TestQOSPreemptionAndLimit runs the A4 example with PreemptType=
// preempt/qos (and PreemptExemptTime one second) under an accounting file
// applied by its rendered script, on every release: a job of the urgent
// QOS requeues a running job of the scavenger QOS on the same node, and a
// second urgent job of the same user, over MaxTRESPerUser=node=1, pends
// with reason QOSMaxNodePerUserLimit.
func TestQOSPreemptionAndLimit(t *testing.T) {
	t.Parallel()
	for _, release := range localslurm.Releases() {
		t.Run(release, func(t *testing.T) {
			t.Parallel()
			requirePrereqsFor(t, release)
			qosPreemption(t, release)
		})
	}
}

func qosPreemption(t *testing.T, release string) {
	example := exampleSpec(t, "a4-training.yaml")
	text := string(example.data)
	for from, to := range map[string]string{"PreemptType: preempt/partition_prio": "PreemptType: preempt/qos", `PreemptExemptTime: "00:10:00"`: `PreemptExemptTime: "00:00:01"`} {
		if strings.Count(text, from) != 1 {
			t.Fatalf("examples/a4-training.yaml has no single line %q", from)
		}
		text = strings.Replace(text, from, to, 1)
	}
	c := compileSpecVersion(t, spec{name: "a4-training-preempt-qos.yaml", data: []byte(text)}, release)
	if c.cluster == nil || c.diags.HasErrors() {
		t.Fatalf("the preempt/qos variant does not lint clean:\n%s", errorsText(c.diags))
	}
	f, l := accounting.LoadBytes("qos.accounting.yaml", []byte(qosAccounting))
	if f == nil {
		t.Fatal(l)
	}
	dir, _ := renderSpecVersion(t, c, release)
	node := jobNode(t, c.cluster)
	others := cloudStandIns(c.cluster)
	if len(others) == 0 {
		t.Fatal("the A4 example has no second node to run the over-limit job on")
	}
	cl := start(t, dir, localslurm.Options{Release: release, Accounting: true, StandIns: append([]string{node}, others...)})
	script := filepath.Join(t.TempDir(), "apply.sh")
	if err := os.WriteFile(script, sacctmgr.Script(f), 0o755); err != nil {
		t.Fatal(err)
	}
	cl.run(t, "sh", script)
	fake := t.TempDir()
	if err := os.Chmod(fake, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(fake, "nvidia-smi"), []byte(fakeNvidiaSMI), 0o755); err != nil {
		t.Fatal(err)
	}
	cl.run(t, "mount", "--bind", fake, "/usr/local/sbin")

	job := func(qos string, on ...string) []string {
		w := node
		if len(on) > 0 {
			w = on[0]
		}
		return []string{"-p", "preempt", "-w", w, "--exclusive", "-A", "research", "--qos", qos, "-D", "/tmp", "-o", "/dev/null", "--wrap", "sleep 300"}
	}
	// slurmdbd pushes the associations to slurmctld: retry the first
	// submission until it is accepted, within jobTimeout.
	var low string
	for deadline := time.Now().Add(jobTimeout); ; time.Sleep(250 * time.Millisecond) {
		out, err := cl.output("sbatch", append([]string{"--parsable"}, job("scavenger")...)...)
		if err == nil {
			low, _, _ = strings.Cut(strings.TrimSpace(out), ";")
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a scavenger job is refused: %v", err)
		}
	}
	// Past PreemptExemptTime (one second) by the job's own run time.
	lf := cl.waitJob(t, low, "running for 2 seconds", func(f localslurm.Fields) bool {
		s, ok := slurmTime(f["RunTime"])
		return f["JobState"] == "RUNNING" && ok && s >= 2 || finished(f["JobState"])
	})
	if lf["JobState"] != "RUNNING" || lf["QOS"] != "scavenger" {
		t.Fatalf("scavenger job %s: JobState=%s QOS=%s, want RUNNING in scavenger", low, lf["JobState"], lf["QOS"])
	}
	high := cl.submit(t, job("urgent")...)
	hf := cl.waitJob(t, high, "RUNNING", func(f localslurm.Fields) bool { return f["JobState"] == "RUNNING" || finished(f["JobState"]) })
	if hf["JobState"] != "RUNNING" || hf["NodeList"] != node {
		t.Fatalf("urgent job %s: JobState=%s NodeList=%s, want RUNNING on %s", high, hf["JobState"], hf["NodeList"], node)
	}
	lf = cl.job(t, low)
	if lf["JobState"] != "PENDING" || lf["Restarts"] != "1" {
		t.Errorf("scavenger job %s after the urgent job started: JobState=%s Restarts=%s, want PENDING, requeued once", low, lf["JobState"], lf["Restarts"])
	}
	t.Logf("scavenger job %s: JobState=%s Reason=%s Restarts=%s; urgent job %s: %s on %s", low, lf["JobState"], lf["Reason"], lf["Restarts"], high, hf["JobState"], hf["NodeList"])

	// On another node, idle: only the limit keeps it pending.
	over := cl.submit(t, job("urgent", others[0])...)
	of := cl.waitJob(t, over, "pending with a reason", func(f localslurm.Fields) bool {
		return f["JobState"] != "PENDING" || f["Reason"] != "None" && f["Reason"] != ""
	})
	if of["JobState"] != "PENDING" || of["Reason"] != "QOSMaxNodePerUserLimit" {
		t.Errorf("second urgent job %s: JobState=%s Reason=%s, want PENDING for QOSMaxNodePerUserLimit (MaxTRESPerUser=node=1)", over, of["JobState"], of["Reason"])
	}
	t.Logf("second urgent job %s: %s, Reason=%s", over, of["JobState"], of["Reason"])
	cl.run(t, "scancel", high, low, over)
	cl.stopAndCheck(t)
}
