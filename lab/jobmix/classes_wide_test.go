package jobmix

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/lab/localslurm"
	"github.com/slurmspec/slurmspec/lab/localslurm/slurmtest"
)

// allCPUShapes are the shape ids of classSpec's partition.
var allCPUShapes = []string{"cpu/cpu/one-task", "cpu/cpu/one-task+sized", "cpu/cpu/whole-node", "cpu/cpu/whole-node+sized", "cpu/cpu/two-nodes", "cpu/cpu/two-nodes+sized"}

// wideClass is one class the widened workload generator found (issue 26,
// session 9; docs/fidelity.md, "False negatives found", items 12 on).
type wideClass struct {
	name string
	// spec is the whole spec (classSpec, classSpecWith).
	spec string
	// rule and sev are the finding lint gives; "" for none.
	rule string
	sev  diag.Severity
	// fail lists the shape ids that must fail; every other must run.
	fail []string
}

// TestWideClasses runs, on every release, the minimal spec of each class
// the widened generator found, as TestFalseNegativeClasses does for the
// earlier ones: the finding lint gives, Slurm's verdicts, and every shape
// agreed.
func TestWideClasses(t *testing.T) {
	t.Parallel()
	for _, tc := range []wideClass{
		// Seed 20262001 case 0: every job without --time is refused at
		// submit, "Time limit specification required, but not provided".
		{"JobSubmitPlugins require_timelimit", classSpecWith("{}", false, "", "{JobSubmitPlugins: require_timelimit}"), "shape-time-limit", diag.Warning,
			[]string{"cpu/cpu/one-task", "cpu/cpu/whole-node", "cpu/cpu/two-nodes"}},
		// Seed 20262001 cases 3 and 4: a closed partition.
		{"State DOWN", classSpec("{State: DOWN}"), "shape-partition-closed", diag.Warning, allCPUShapes},
		{"State DRAIN", classSpec("{State: DRAIN}"), "shape-partition-closed", diag.Warning, allCPUShapes},
		{"RootOnly", classSpec("{RootOnly: \"YES\"}"), "shape-partition-closed", diag.Warning, allCPUShapes},
		{"ReqResv", classSpec("{ReqResv: \"YES\"}"), "shape-partition-closed", diag.Warning, allCPUShapes},
		// 0 is no limit: every shape runs.
		{"MaxMemPerCPU 0", classSpec("{MaxMemPerCPU: \"0\"}"), "", 0, nil},
		{"MaxMemPerNode 0", classSpec("{MaxMemPerNode: \"0\"}"), "", 0, nil},
	} {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			t.Parallel()
			for _, rel := range localslurm.Releases() {
				t.Run(rel, func(t *testing.T) {
					t.Parallel()
					slurmtest.Require(t, func() error { return localslurm.PrereqsFor(localslurm.Options{Release: rel, Accounting: true}) })
					runWideClass(t, tc, rel)
				})
			}
		})
	}
}

func runWideClass(t *testing.T, tc wideClass, rel string) {
	c, diags := analyse(t, "class.yaml", tc.spec, rel)
	var found []string
	for _, d := range diags {
		if d.Severity >= diag.Warning {
			found = append(found, d.Rule+" "+d.Severity.String())
		}
	}
	want := []string(nil)
	if tc.rule != "" {
		want = []string{tc.rule + " " + tc.sev.String()}
	}
	if !slices.Equal(found, want) {
		t.Errorf("lint gives %v, want %v:\n%v", found, want, diags)
	}
	dir := renderDir(t, c, rel)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	verdicts, err := Run(ctx, Options{Dir: dir, Cluster: c, Release: rel})
	if err != nil {
		t.Fatal(err)
	}
	if len(verdicts) == 0 {
		t.Fatal("no shape judged")
	}
	for _, v := range verdicts {
		wantFail := slices.Contains(tc.fail, v.Shape.ID())
		if v.Outcome.Fails() != wantFail || v.Outcome == Undecided {
			t.Errorf("%s: %s %s, want it to %s", v.Shape, v.Outcome, v.Reason, map[bool]string{true: "fail", false: "run"}[wantFail])
			continue
		}
		if wantFail {
			t.Logf("%s: %s: %s", v.Shape.ID(), v.Outcome, v.Reason)
		}
	}
	for _, j := range Compare(verdicts, Predict(Predictors(), c, diags, shapesOf(verdicts))) {
		if j.Class != Agree {
			t.Errorf("%s: %s (%s %s; predicted by %v)", j.Shape.ID(), j.Class, j.Outcome, j.Reason, j.Predicted)
		}
	}
}
