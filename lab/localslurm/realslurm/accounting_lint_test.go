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

// lintAccounting is the accounting file of TestAccountingLintFacts: a QOS
// whose MaxWall is written "12:00", and a QOS urgent that no user has.
const lintAccounting = `qos:
  - {name: wall12, limits: {MaxWall: "12:00"}}
  - {name: urgent}
accounts:
  - {name: research, qos: [normal, wall12], defaultQos: normal}
users:
  - {name: root, defaultAccount: root, accounts: [research]}
`

// TestAccountingLintFacts checks, on every release, what the rules
// time-minutes-seconds and accounting-partition-no-qos say: slurmdbd reads
// a QOS's MaxWall=12:00 as twelve minutes (sacctmgr shows 00:12:00), and
// so does slurmctld a partition's MaxTime=12:00; under
// AccountingStorageEnforce=associations,limits,qos, in a partition whose
// AllowQos names only a QOS the user's association lacks, a job without
// --qos pends and one with --qos is refused, until the association gets
// the QOS: then the job runs.
func TestAccountingLintFacts(t *testing.T) {
	t.Parallel()
	for _, release := range localslurm.Releases() {
		t.Run(release, func(t *testing.T) {
			t.Parallel()
			requirePrereqsFor(t, release)
			accountingLintFacts(t, release)
		})
	}
}

func accountingLintFacts(t *testing.T, release string) {
	example := exampleSpec(t, "a4-training.yaml")
	text := string(example.data)
	from := "          MaxTime: \"2-00:00:00\"\n"
	if strings.Count(text, from) != 1 {
		t.Fatalf("examples/a4-training.yaml has no single line %q", from)
	}
	text = strings.Replace(text, from, "          MaxTime: \"12:00\"\n", 1)
	c := compileSpecVersion(t, spec{name: "a4-maxtime.yaml", data: []byte(text)}, release)
	if c.cluster == nil || c.diags.HasErrors() {
		t.Fatalf("the MaxTime=12:00 variant does not compile:\n%s", errorsText(c.diags))
	}
	f, l := accounting.LoadBytes("lint.accounting.yaml", []byte(lintAccounting))
	if f == nil {
		t.Fatal(l)
	}
	dir, _ := renderSpecVersion(t, c, release)
	node := jobNode(t, c.cluster)
	cl := start(t, dir, localslurm.Options{Release: release, Accounting: true, StandIns: []string{node}})
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

	if got := strings.TrimSpace(cl.run(t, "sacctmgr", "-nP", "show", "qos", "wall12", "format=MaxWall")); got != "00:12:00" {
		t.Errorf("QOS wall12 with MaxWall=12:00: sacctmgr shows MaxWall %q, want 00:12:00 (twelve minutes)", got)
	}
	part := cl.run(t, "scontrol", "-o", "show", "partition", "preempt")
	if !strings.Contains(part, " MaxTime=00:12:00 ") {
		t.Errorf("partition preempt with MaxTime=12:00: scontrol shows %s, want MaxTime=00:12:00", strings.TrimSpace(part))
	}
	t.Logf("MaxWall=12:00 reads as %s in sacctmgr; partition: %s", "00:12:00", firstLine(part))

	// slurmctld 26.05 refuses to start with an AllowQos naming a QOS
	// the database lacks: set it once the script has added urgent.
	cl.run(t, "scontrol", "update", "PartitionName=preempt", "AllowQos=urgent")
	job := func(qos ...string) []string {
		args := []string{"-p", "preempt", "-w", node, "-A", "research", "-D", "/tmp", "-o", "/dev/null", "--wrap", "sleep 300"}
		if len(qos) > 0 {
			args = append(args, "--qos", qos[0])
		}
		return args
	}
	// slurmdbd pushes the associations to slurmctld: retry until a job
	// without --qos is accepted; it must then pend, never run.
	var plain string
	for deadline := time.Now().Add(jobTimeout); ; time.Sleep(250 * time.Millisecond) {
		out, err := cl.output("sbatch", append([]string{"--parsable"}, job()...)...)
		if err == nil {
			plain, _, _ = strings.Cut(strings.TrimSpace(out), ";")
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("sbatch -p preempt is refused: %v", err)
		}
	}
	pf := cl.waitJob(t, plain, "pending with a reason", func(f localslurm.Fields) bool {
		return f["JobState"] != "PENDING" || f["Reason"] != "None" && f["Reason"] != ""
	})
	if pf["JobState"] != "PENDING" || !strings.Contains(pf["Reason"], "QOS_not_permitted") {
		t.Errorf("job %s without --qos in partition preempt (AllowQos=urgent), QOS %s: JobState=%s Reason=%s, want PENDING, QOS not permitted", plain, pf["QOS"], pf["JobState"], pf["Reason"])
	}
	t.Logf("job %s without --qos: %s, QOS=%s Reason=%s", plain, pf["JobState"], pf["QOS"], pf["Reason"])
	if out, err := cl.output("sbatch", append([]string{"--parsable"}, job("urgent")...)...); err == nil {
		t.Errorf("sbatch -p preempt --qos urgent by a user without urgent: accepted (%s), want refused", strings.TrimSpace(out))
	} else {
		t.Logf("sbatch -p preempt --qos urgent: refused: %s", firstLine(out))
	}
	cl.run(t, "scancel", plain)
	cl.run(t, "sacctmgr", "-i", "modify", "user", "root", "where", "account=research", "set", "qos+=urgent")
	var high string
	for deadline := time.Now().Add(jobTimeout); ; time.Sleep(250 * time.Millisecond) {
		out, err := cl.output("sbatch", append([]string{"--parsable"}, job("urgent")...)...)
		if err == nil {
			high, _, _ = strings.Cut(strings.TrimSpace(out), ";")
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("with urgent in the association, sbatch -p preempt --qos urgent is still refused: %s", firstLine(out))
		}
	}
	hf := cl.waitJob(t, high, "RUNNING", func(f localslurm.Fields) bool { return f["JobState"] == "RUNNING" || finished(f["JobState"]) })
	if hf["JobState"] != "RUNNING" {
		t.Errorf("job %s with --qos urgent once the association has it: JobState=%s Reason=%s, want RUNNING", high, hf["JobState"], hf["Reason"])
	}
	cl.run(t, "scancel", high)
	cl.stopAndCheck(t)
}
