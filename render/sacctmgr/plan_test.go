package sacctmgr_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/render/sacctmgr"
	"github.com/slurmspec/slurmspec/schema/accounting"
)

func loadFile(t testing.TB, name string) *accounting.File {
	t.Helper()
	f, l := accounting.Load(name)
	if f == nil {
		t.Fatalf("%s: %s", name, l)
	}
	return f
}

func capture(t *testing.T) *sacctmgr.State {
	t.Helper()
	data, err := os.ReadFile("testdata/a4.current.txt")
	if err != nil {
		t.Fatal(err)
	}
	s, err := sacctmgr.ParseCapture("testdata/a4.current.txt", data)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestPlanOfAppliedFileIsEmpty: the capture of a real slurmdbd (24.11)
// after the A4 example's apply.sh ran holds what the file declares.
func TestPlanOfAppliedFileIsEmpty(t *testing.T) {
	p, err := sacctmgr.Compare(capture(t), sacctmgr.Declared(loadFile(t, "../../examples/accounting/a4-training.accounting.yaml")))
	if err != nil {
		t.Fatal(err)
	}
	if !p.Empty() {
		var b bytes.Buffer
		_ = p.Text(&b)
		t.Errorf("plan of the applied file is not empty:\n%s", b.String())
	}
}

// TestPlanGolden pins the plan and its script for a changed file
// (SLURMSPEC_UPDATE=1 rewrites testdata/a4-changed.plan.txt and .sh).
func TestPlanGolden(t *testing.T) {
	p, err := sacctmgr.Compare(capture(t), sacctmgr.Declared(loadFile(t, "testdata/a4-changed.accounting.yaml")))
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	if err := p.Text(&text); err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string][]byte{
		"testdata/a4-changed.plan.txt": text.Bytes(),
		"testdata/a4-changed.plan.sh":  p.Script("a4-changed.accounting.yaml"),
	} {
		if os.Getenv("SLURMSPEC_UPDATE") != "" {
			if err := os.WriteFile(name, got, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs:\n%s", name, got)
		}
	}
	if a, m, r := p.Count(); a == 0 || m == 0 || r == 0 {
		t.Errorf("plan counts %d/%d/%d, want adds, modifications and removals", a, m, r)
	}
	var removed []string
	for _, op := range p.Removals() {
		removed = append(removed, op.Entity)
	}
	// carol goes with her association; alice's account-wide association
	// gives way to her partition's.
	if got, want := strings.Join(removed, "; "), "association alice/vision; user carol"; got != want {
		t.Errorf("removals %q, want %q", got, want)
	}
}

// TestParseCaptureRefuses: what is not sacctmgr show -P output is refused
// at its first bad line.
func TestParseCaptureRefuses(t *testing.T) {
	for _, tc := range []struct{ name, data, want string }{
		{"prose", "hello world\n", "x:1:1: not sacctmgr show -P output"},
		{"error line", "User|Def Acct|Admin\nalice|vision|None\n Cluster train doesn't exist.\n", "x:3:1:"},
		{"columns", "Name|Priority\nnormal|0|extra\n", "x:2:1: not sacctmgr show -P output: 3 columns, the qos header above has 2"},
		{"empty", "\n\n", "x:1:1: not sacctmgr show -P output: no sacctmgr table"},
		{"trailer", "User|Def Acct|\nalice|vision\n", "x:2:13:"},
		{"clusters", "Cluster|Account|User\na|x|\nb|y|\n", "associations of 2 clusters"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := sacctmgr.ParseCapture("x", []byte(tc.data))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			var ce *sacctmgr.CaptureError
			if tc.name != "clusters" && !errors.As(err, &ce) {
				t.Errorf("error %T, want *CaptureError", err)
			}
		})
	}
}

// TestPlanMissingColumn: a capture without a column the file declares,
// or without a kind of entity the file declares, is refused with the
// capture command, not planned as a change.
func TestPlanMissingColumn(t *testing.T) {
	data, err := os.ReadFile("testdata/a4.current.txt")
	if err != nil {
		t.Fatal(err)
	}
	all := string(data)
	qos := all[:strings.Index(all, "Account|")]
	want := sacctmgr.Declared(loadFile(t, "../../examples/accounting/a4-training.accounting.yaml"))
	for _, tc := range []struct {
		name, capture string
		table         bool
	}{
		{"column", strings.Replace(all, qos, "Name|Priority\nnormal|0\nscavenger|0\nurgent|0\n", 1), false},
		{"table", strings.Replace(all, qos, "", 1), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cur, err := sacctmgr.ParseCapture("x", []byte(tc.capture))
			if err != nil {
				t.Fatal(err)
			}
			_, err = sacctmgr.Compare(cur, want)
			var mc *sacctmgr.MissingColumnError
			var mt *sacctmgr.MissingTableError
			if tc.table && !errors.As(err, &mt) || !tc.table && !errors.As(err, &mc) || !strings.HasSuffix(fmt.Sprint(err), "capture with: "+sacctmgr.CaptureLine()) {
				t.Fatalf("error %v, want a missing %s error naming the capture command", err, tc.name)
			}
			// One line: the CLIs print an error escaped, where a line
			// break would show as \n.
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q spans lines", err)
			}
		})
	}
}

// TestPlanFromDump: the dump of a real slurmdbd after the changed file's
// apply.sh ran holds what the file declares (26.05's dump lists the QOS);
// 22.05's holds no QOS, so it is refused alone and planned with sacctmgr
// show qos -P beside it.
func TestPlanFromDump(t *testing.T) {
	want := sacctmgr.Declared(loadFile(t, "testdata/a4-changed.accounting.yaml"))
	read := func(name string) []byte {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	plan := func(data []byte) (*sacctmgr.Plan, error) {
		cur, err := sacctmgr.ParseCapture("dump", data)
		if err != nil {
			t.Fatal(err)
		}
		return sacctmgr.Compare(cur, want)
	}
	p, err := plan(read("testdata/a4-changed.dump-26.05.txt"))
	if err != nil || !p.Empty() {
		var b bytes.Buffer
		if p != nil {
			_ = p.Text(&b)
		}
		t.Errorf("26.05 dump: %v\n%s", err, b.String())
	}
	var mt *sacctmgr.MissingTableError
	if _, err := plan(read("testdata/a4-changed.dump-22.05.txt")); !errors.As(err, &mt) {
		t.Errorf("22.05 dump alone: %v, want a *MissingTableError", err)
	}
	qos := "Name|Priority|Preempt|PreemptMode|Flags|UsageFactor|GrpTRES|GrpJobs|MaxTRES|MaxTRESPU|MaxWall|MaxJobsPU|MaxSubmitPU\n" +
		"normal|0||cluster||1.000000|||||||\nscavenger|0||requeue||0.500000|||||||\n" +
		"urgent|0|scavenger|cluster|DenyOnLimit|1.000000||||node=1|12:00:00|2|\nbatch|10||cluster||1.000000|||||||\n"
	p, err = plan(append(read("testdata/a4-changed.dump-22.05.txt"), qos...))
	if err != nil || !p.Empty() {
		var b bytes.Buffer
		if p != nil {
			_ = p.Text(&b)
		}
		t.Errorf("22.05 dump with show qos: %v\n%s", err, b.String())
	}
	for _, bad := range []string{"Account - 'x':Description='a\n", "Parent - 'root'\nAccount - 'x':Fairshare\n", "User - 'bob'\n"} {
		if _, err := sacctmgr.ParseCapture("dump", []byte(bad)); err == nil || !strings.Contains(err.Error(), "dump:") {
			t.Errorf("%q: %v, want an error at its position", bad, err)
		}
	}
}

func TestNormal(t *testing.T) {
	for _, tc := range []struct{ field, a, b string }{
		{"MaxWall", "1-00:00:00", "1440"},
		{"MaxWall", "12:00:00", "720"},
		{"MaxWall", "", "UNLIMITED"},
		{"MaxWall", "30:00", "30"}, // minutes:seconds, as Slurm reads two fields
		{"GrpTRES", "mem=512G,cpu=64", "cpu=64,mem=524288"},
		{"GrpTRES", "", "cpu=-1"},
		{"UsageFactor", "0.250000", "0.25"},
		{"QOS", "urgent,normal", "normal,urgent"},
		{"MaxJobs", "", "-1"},
		{"Priority", "", "0"},
		{"AdminLevel", "None", "none"},
	} {
		if a, b := sacctmgr.Normal(tc.field, tc.a), sacctmgr.Normal(tc.field, tc.b); a != b {
			t.Errorf("%s: %q → %q, %q → %q: want equal", tc.field, tc.a, a, tc.b, b)
		}
	}
}

// TestCaptureLine: the one-line capture command is CaptureCommand's group
// with its commands separated by "; ", as the shell runs it.
func TestCaptureLine(t *testing.T) {
	line := sacctmgr.CaptureLine()
	var cmds []string
	for _, l := range strings.Split(sacctmgr.CaptureCommand, "\n") {
		if l = strings.TrimSpace(strings.TrimPrefix(l, "{ ")); strings.HasPrefix(l, "sacctmgr ") {
			cmds = append(cmds, l)
		}
	}
	if want := "{ " + strings.Join(cmds, "; ") + "; } > current.txt"; len(cmds) != 4 || line != want {
		t.Errorf("CaptureLine() = %q, want %q", line, want)
	}
}
