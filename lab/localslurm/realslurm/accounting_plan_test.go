package realslurm

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/slurmspec/slurmspec/lab/localslurm"
	"github.com/slurmspec/slurmspec/render/sacctmgr"
	"github.com/slurmspec/slurmspec/schema/accounting"
)

// TestAccountingPlan plans against a real slurmdbd's own capture, on
// every release: the A4 example's file planned against the fresh
// database and applied, planned again (empty), changed (limits tighten,
// an account moves, a user's association narrows to a partition, a user
// leaves, a QOS and an account arrive), planned, applied, and planned
// once more: the plan is empty, so what sacctmgr shows is what the plan
// said it would make. The plan against sacctmgr dump's output (with
// sacctmgr show qos -P) is empty too.
func TestAccountingPlan(t *testing.T) {
	t.Parallel()
	for _, release := range localslurm.Releases() {
		t.Run(release, func(t *testing.T) {
			t.Parallel()
			requirePrereqsFor(t, release)
			accountingPlan(t, release)
		})
	}
}

func accountingPlan(t *testing.T, release string) {
	data, err := os.ReadFile("../../../examples/a4-training.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c := compileSpecVersion(t, spec{name: "examples/a4-training.yaml", data: data}, release)
	if c.cluster == nil || c.diags.HasErrors() {
		t.Fatalf("the A4 example does not lint clean:\n%s", errorsText(c.diags))
	}
	load := func(name string) *accounting.File {
		f, l := accounting.Load(name)
		if f == nil {
			t.Fatalf("%s: %s", name, l)
		}
		return f
	}
	example := load("../../../examples/accounting/a4-training.accounting.yaml")
	changed := load("../../../render/sacctmgr/testdata/a4-changed.accounting.yaml")
	dir, _ := renderSpecVersion(t, c, release)
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
	// capture runs sacctmgr.CaptureCommand's four commands.
	capture := func() *sacctmgr.State {
		t.Helper()
		var b strings.Builder
		for _, line := range strings.Split(sacctmgr.CaptureCommand, "\n") {
			line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSuffix(line, "} > current.txt"), "{"))
			if line == "" {
				continue
			}
			b.WriteString(sh(strings.Fields(line)...))
		}
		s, err := sacctmgr.ParseCapture("capture", []byte(b.String()))
		if err != nil {
			t.Fatalf("%v\n%s", err, b.String())
		}
		return s
	}
	plan := func(f *accounting.File) *sacctmgr.Plan {
		t.Helper()
		p, err := sacctmgr.Compare(capture(), sacctmgr.Declared(f))
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		_ = p.Text(&b)
		t.Logf("plan for %s:\n%s", filepath.Base(f.Name), b.String())
		return p
	}
	apply := func(p *sacctmgr.Plan) {
		t.Helper()
		script := filepath.Join(t.TempDir(), "plan.sh")
		if err := os.WriteFile(script, p.Script("test"), 0o755); err != nil {
			t.Fatal(err)
		}
		t.Logf("applied:\n%s", sh("sh", script))
	}

	first := plan(example)
	if a, m, r := first.Count(); a == 0 || r != 0 {
		t.Errorf("the fresh database's plan: %d adds, %d modifications, %d removals; want adds and no removal", a, m, r)
	}
	apply(first)
	if p := plan(example); !p.Empty() {
		t.Errorf("after applying the plan, the plan is not empty: %s", p.Summary())
	}
	p := plan(changed)
	if a, m, r := p.Count(); a == 0 || m == 0 || r == 0 {
		t.Errorf("the changed file's plan: %s; want adds, modifications and removals", p.Summary())
	}
	apply(p)
	if p := plan(changed); !p.Empty() {
		t.Errorf("after applying the changed file's plan, sacctmgr shows something else than planned: %s", p.Summary())
	}

	// The same database as sacctmgr dump writes it (the QOS from sacctmgr
	// show qos -P beside it: dumps before 26.05 leave them out).
	dump, err := cl.Command(ctx, "sacctmgr", "dump", c.cluster.ID.Value, "file=/dev/stdout").Output()
	if err != nil {
		t.Fatalf("sacctmgr dump: %v", err)
	}
	qos := sh(strings.Fields(strings.TrimPrefix(strings.Split(sacctmgr.CaptureCommand, "\n")[0], "{ "))...)
	cur, err := sacctmgr.ParseCapture("dump", append(dump, qos...))
	if err != nil {
		t.Fatalf("%v\n%s", err, dump)
	}
	if p, err := sacctmgr.Compare(cur, sacctmgr.Declared(changed)); err != nil || !p.Empty() {
		var b bytes.Buffer
		if p != nil {
			_ = p.Text(&b)
		}
		t.Errorf("the plan against sacctmgr dump is not empty: %v\n%s\ndump:\n%s", err, b.String(), dump)
	}
	cl.stopAndCheck(t)
}
