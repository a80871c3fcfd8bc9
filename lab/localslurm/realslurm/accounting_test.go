package realslurm

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/slurmspec/slurmspec/lab/localslurm"
	"github.com/slurmspec/slurmspec/render/sacctmgr"
	"github.com/slurmspec/slurmspec/schema/accounting"
)

// TestAccountingApply applies the rendered sacctmgr script of the A4
// example's accounting file to a real slurmdbd twice: after the first run
// `sacctmgr show assoc` and `show qos` hold what the file declares, and the
// second run adds nothing and leaves both as they were; on every release.
func TestAccountingApply(t *testing.T) {
	t.Parallel()
	for _, release := range localslurm.Releases() {
		t.Run(release, func(t *testing.T) {
			t.Parallel() // each release starts its own cluster: they share nothing
			requirePrereqsFor(t, release)
			accountingApply(t, release)
		})
	}
}

func accountingApply(t *testing.T, release string) {
	data, err := os.ReadFile("../../../examples/a4-training.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c := compileSpecVersion(t, spec{name: "examples/a4-training.yaml", data: data}, release)
	if c.cluster == nil || c.diags.HasErrors() {
		t.Fatalf("the A4 example does not lint clean:\n%s", errorsText(c.diags))
	}
	f, l := accounting.Load("../../../examples/accounting/a4-training.accounting.yaml")
	if f == nil {
		t.Fatalf("the example accounting file: %s", l)
	}
	dir, _ := renderSpecVersion(t, c, release)
	script := filepath.Join(t.TempDir(), "apply.sh")
	if err := os.WriteFile(script, sacctmgr.Script(f), 0o755); err != nil {
		t.Fatal(err)
	}
	cl := start(t, dir, localslurm.Options{Release: release, Accounting: true})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	sh := func(args ...string) string {
		t.Helper()
		out, err := cl.Command(ctx, args[0], args[1:]...).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	assoc := func() []string {
		out := sh("sacctmgr", "-nP", "show", "assoc", "format=Account,User,Partition,ParentName,Share,QOS,DefaultQOS,GrpTRES,MaxWall")
		rows := strings.Split(strings.TrimSpace(out), "\n")
		slices.Sort(rows)
		return rows
	}
	qos := func() []string {
		out := sh("sacctmgr", "-nP", "show", "qos", "format=Name,Priority,Preempt,PreemptMode,Flags,UsageFactor,MaxTRESPU,MaxWall,MaxJobsPU")
		rows := strings.Split(strings.TrimSpace(out), "\n")
		slices.Sort(rows)
		return rows
	}

	t.Logf("first run:\n%s", sh("sh", script))
	firstAssoc, firstQOS := assoc(), qos()
	// Every association the file declares, with its parent and share.
	for _, want := range wantAssociations(f) {
		if !slices.ContainsFunc(firstAssoc, func(row string) bool { return strings.HasPrefix(row, want) }) {
			t.Errorf("no association %q in sacctmgr show assoc:\n%s", want, strings.Join(firstAssoc, "\n"))
		}
	}
	for _, want := range []string{
		"scavenger|0||requeue||0.250000|||",
		"urgent|0|scavenger|cluster|DenyOnLimit|1.000000|node=2|1-00:00:00|2",
	} {
		if !slices.Contains(firstQOS, want) {
			t.Errorf("no QOS %q in sacctmgr show qos:\n%s", want, strings.Join(firstQOS, "\n"))
		}
	}

	second := sh("sh", script)
	t.Logf("second run:\n%s", second)
	if strings.Contains(second, "Adding") || strings.Contains(second, "Associations =") {
		t.Errorf("the second run added something:\n%s", second)
	}
	if got := assoc(); !slices.Equal(got, firstAssoc) {
		t.Errorf("the second run changed the associations:\nbefore:\n%s\nafter:\n%s", strings.Join(firstAssoc, "\n"), strings.Join(got, "\n"))
	}
	if got := qos(); !slices.Equal(got, firstQOS) {
		t.Errorf("the second run changed the QOS:\nbefore:\n%s\nafter:\n%s", strings.Join(firstQOS, "\n"), strings.Join(got, "\n"))
	}
	cl.stopAndCheck(t)
}

// wantAssociations are the prefixes "account|user|partition|parent|share|"
// of the rows sacctmgr shows for the file's declarations.
func wantAssociations(f *accounting.File) []string {
	var out []string
	for _, a := range f.Accounts {
		share := "1"
		if a.Fairshare.Set {
			share = a.Fairshare.Text
		}
		out = append(out, a.Name.Text+"|||"+a.Parent.Text+"|"+share+"|")
	}
	for _, u := range f.Users {
		parts := []string{""}
		if len(u.Partitions) > 0 {
			parts = nil
			for _, p := range u.Partitions {
				parts = append(parts, p.Text)
			}
		}
		for _, a := range u.Accounts {
			for _, p := range parts {
				out = append(out, a.Text+"|"+u.Name.Text+"|"+p+"||1|")
			}
		}
	}
	return out
}
