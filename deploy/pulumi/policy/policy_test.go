package policy_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/deploy/artifacts"
	"github.com/slurmspec/slurmspec/deploy/pulumi/policy"
	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/lint/rules"
	"github.com/slurmspec/slurmspec/render/diff"
	"github.com/slurmspec/slurmspec/render/pulumimodel"
)

const example = "../../../examples/a4-training.yaml"

// report is a comparison whose highest impact is i (None: no change).
func report(i diff.Impact) *diff.Report {
	if i == diff.None {
		return &diff.Report{}
	}
	return &diff.Report{Changes: []diff.Change{{Kind: diff.KindCluster, Key: "k", Impact: i}}}
}

// TestConfirm is the gate of up for every impact class, with and without
// resources Pulumi replaces or deletes, with and without --yes.
func TestConfirm(t *testing.T) {
	impacts := []struct {
		name  string
		imp   policy.Impact
		gated bool   // needs --yes on its own
		why   string // the reason it gives
	}{
		{name: "not deployed", imp: policy.Impact{}},
		{name: "none", imp: policy.Impact{Deployed: true, Report: report(diff.None)}},
		{name: "in-place", imp: policy.Impact{Deployed: true, Report: report(diff.InPlace)}},
		{name: "reconfigure", imp: policy.Impact{Deployed: true, Report: report(diff.Reconfigure)}},
		{name: "restart", imp: policy.Impact{Deployed: true, Report: report(diff.Restart)}},
		{name: "replace-pool", imp: policy.Impact{Deployed: true, Report: report(diff.ReplacePool)}, gated: true, why: "1 change"},
		{name: "replace-cluster", imp: policy.Impact{Deployed: true, Report: report(diff.ReplaceCluster)}, gated: true, why: "replaces the whole cluster"},
		{name: "unknown", imp: policy.Impact{Deployed: true, Unknown: errors.New("bad inputs")}, gated: true, why: "the update's impact is unknown"},
	}
	for _, im := range impacts {
		for _, destroys := range []int{0, 1, 2} {
			for _, yes := range []bool{false, true} {
				name := im.name
				switch destroys {
				case 1:
					name += "/pulumi-replaces-1"
				case 2:
					name += "/pulumi-replaces-2"
				}
				if yes {
					name += "/yes"
				}
				t.Run(name, func(t *testing.T) {
					g := policy.Confirm(im.imp, destroys)
					want := im.gated || destroys > 0
					if g.NeedsYes() != want {
						t.Fatalf("NeedsYes = %v, want %v (reasons %q)", g.NeedsYes(), want, g.Reasons)
					}
					if im.why != "" && !strings.Contains(g.Reason(), im.why) {
						t.Errorf("reason %q does not say %q", g.Reason(), im.why)
					}
					if destroys > 0 && !strings.Contains(g.Reason(), "Pulumi would replace or delete "+diag.Plural(destroys, "resource")) {
						t.Errorf("reason %q does not count the resources Pulumi replaces", g.Reason())
					}
					if im.gated && destroys > 0 && len(g.Reasons) != 2 {
						t.Errorf("reasons %q: want the impact's and Pulumi's", g.Reasons)
					}
					err := g.Up(yes, "prod")
					var r *policy.Refusal
					switch {
					case want && !yes:
						if !errors.As(err, &r) || !strings.Contains(r.Msg, "not updating stack prod: "+g.Reason()+"; pass --yes to accept") {
							t.Errorf("Up without --yes: %v, want a refusal", err)
						}
					case err != nil:
						t.Errorf("Up(yes=%v): %v, want nil", yes, err)
					}
				})
			}
		}
	}
}

// analyse checks a spec as slurmspec-deploy does (placeholders strict).
func analyse(t *testing.T, file string) *pipeline.Result {
	t.Helper()
	p, err := pipeline.New(pipeline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Analyse(pipeline.File(file, nil), pipeline.AnalyseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	policy.StrictPlaceholders(res)
	return res
}

// variant writes the example with edits (old, new pairs) into a
// temporary file.
func variant(t *testing.T, edits ...string) string {
	t.Helper()
	data, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	for i := 0; i+1 < len(edits); i += 2 {
		if !strings.Contains(s, edits[i]) {
			t.Fatalf("the example has no %q", edits[i])
		}
		s = strings.Replace(s, edits[i], edits[i+1], 1)
	}
	f := filepath.Join(t.TempDir(), "cluster.yaml")
	if err := os.WriteFile(f, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestSpec: which checked specs each operation may use.
func TestSpec(t *testing.T) {
	clean := analyse(t, example)
	lintErr := analyse(t, variant(t, "PriorityWeightAge:", "PriorityWeightAgee:"))
	if lintErr.Cluster == nil || !lintErr.Failed() {
		t.Fatalf("an unknown slurm.conf key: cluster %v, failed %v", lintErr.Cluster != nil, lintErr.Failed())
	}
	noCluster := analyse(t, variant(t, "login_node_pool_id: login", "login_node_pool_id: nosuchpool"))
	if noCluster.Cluster != nil {
		t.Fatal("a schema error compiled")
	}
	seed := analyse(t, "../../../examples/seed.jsonc")
	specs := []struct {
		name    string
		res     *pipeline.Result
		refused map[policy.Op]bool
	}{
		{name: "clean", res: clean, refused: map[policy.Op]bool{}},
		{name: "lint error", res: lintErr, refused: map[policy.Op]bool{policy.Preview: true, policy.Up: true, policy.Refresh: true}},
		{name: "placeholders", res: seed, refused: map[policy.Op]bool{policy.Preview: true, policy.Up: true, policy.Refresh: true}},
		{name: "schema error", res: noCluster, refused: map[policy.Op]bool{policy.Preview: true, policy.Up: true, policy.Refresh: true, policy.Destroy: true}},
	}
	for _, s := range specs {
		for _, op := range []policy.Op{policy.Preview, policy.Up, policy.Destroy, policy.Refresh} {
			t.Run(s.name+"/"+string(op), func(t *testing.T) {
				err := policy.Spec(op, "c.yaml", s.res)
				var r *policy.Refusal
				if got := errors.As(err, &r); got != s.refused[op] {
					t.Fatalf("refused = %v (%v), want %v", got, err, s.refused[op])
				}
				if r != nil && !strings.HasPrefix(r.Msg, "c.yaml: not deployed: ") {
					t.Errorf("refusal %q", r.Msg)
				}
			})
		}
	}
}

// TestStrictPlaceholders: the placeholder finding is an error for
// deploy, whatever the configuration makes of it.
func TestStrictPlaceholders(t *testing.T) {
	for _, tt := range []struct {
		name string
		opt  pipeline.Options
	}{
		{name: "default"},
		{name: "disabled", opt: pipeline.Options{Disable: []string{rules.Placeholder.ID}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, err := pipeline.New(tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			res, err := p.Analyse(pipeline.File("../../../examples/seed.jsonc", nil), pipeline.AnalyseOptions{})
			if err != nil {
				t.Fatal(err)
			}
			policy.StrictPlaceholders(res)
			n := 0
			for _, d := range res.Diags {
				if d.Rule == rules.Placeholder.ID {
					n++
					if d.Severity != diag.Error {
						t.Errorf("%s: severity %s, want error", d, d.Severity)
					}
				}
			}
			if n == 0 || !res.Failed() {
				t.Errorf("%d placeholder findings, failed %v", n, res.Failed())
			}
		})
	}
}

func TestDestroyConfirmed(t *testing.T) {
	if err := policy.DestroyConfirmed(true, "c", "s"); err != nil {
		t.Errorf("with --yes: %v", err)
	}
	var r *policy.Refusal
	if err := policy.DestroyConfirmed(false, "c", "s"); !errors.As(err, &r) || r.Msg != "destroy deletes cluster c and every resource of stack s: pass --yes" {
		t.Errorf("without --yes: %v", err)
	}
}

func TestUnmanaged(t *testing.T) {
	if err := policy.Unmanaged("s", nil); err != nil {
		t.Errorf("nothing unmanaged: %v", err)
	}
	var r *policy.Refusal
	if err := policy.Unmanaged("s", []string{"network", "homeFilestore"}); !errors.As(err, &r) || !strings.Contains(r.Msg, "stack s has the cluster but not network, homeFilestore") || !strings.Contains(r.Msg, "slurmspec deploy refresh") {
		t.Errorf("unmanaged: %v", err)
	}
}

// stack is a DeployedReader with fixed answers.
type stack struct {
	inputs map[string]any
	found  bool
	err    error
}

func (s stack) Deployed(context.Context) (map[string]any, bool, error) {
	return s.inputs, s.found, s.err
}

// deployedInputs are the cluster's inputs as a stack records them after
// deploying file.
func deployedInputs(t *testing.T, file string) map[string]any {
	t.Helper()
	res := analyse(t, file)
	m, err := artifacts.Model(res.Cluster, pulumimodel.Options{})
	if err != nil {
		t.Fatal(err)
	}
	in := pulumimodel.Resolve(m.Resource(pulumimodel.ClusterResource).Inputs, func(pulumimodel.Ref) any {
		return res.Cluster.Slurm.HomeDirectoryStorage.Value
	})
	data, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestAssess: the impact of a spec on what a stack deployed, and the gate
// it gives, for each class an update can have.
func TestAssess(t *testing.T) {
	deployed := deployedInputs(t, example)
	name := func(res *pipeline.Result) string {
		m, err := artifacts.Model(res.Cluster, pulumimodel.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return m.ClusterName()
	}
	tests := []struct {
		name     string
		st       stack
		edits    []string
		deployed bool
		unknown  bool
		impact   diff.Impact
		needsYes bool
	}{
		{name: "no cluster yet", st: stack{}},
		{name: "same", st: stack{inputs: deployed, found: true}, deployed: true, impact: diff.None},
		{name: "in-place", st: stack{inputs: deployed, found: true}, edits: []string{"team: research", "team: infra"}, deployed: true, impact: diff.InPlace},
		{name: "reconfigure", st: stack{inputs: deployed, found: true}, edits: []string{`MaxTime: "7-00:00:00"`, `MaxTime: "5-00:00:00"`}, deployed: true, impact: diff.Reconfigure},
		{name: "replace-cluster", st: stack{inputs: deployed, found: true}, edits: []string{"machineType: n2-standard-8", "machineType: n2-standard-16"}, deployed: true, impact: diff.ReplaceCluster, needsYes: true},
		{name: "unrenderable", st: stack{inputs: map[string]any{"nodePools": "not a list"}, found: true}, deployed: true, unknown: true, needsYes: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := analyse(t, variant(t, tt.edits...))
			imp, err := policy.Assess(t.Context(), tt.st, res, name(res))
			if err != nil {
				t.Fatal(err)
			}
			if imp.Deployed != tt.deployed || (imp.Unknown != nil) != tt.unknown {
				t.Fatalf("deployed %v, unknown %v; want %v, %v", imp.Deployed, imp.Unknown, tt.deployed, tt.unknown)
			}
			if tt.deployed && !tt.unknown && imp.Report.MaxImpact() != tt.impact {
				t.Errorf("impact %s (%s), want %s", imp.Report.MaxImpact(), imp.Report.Summary(), tt.impact)
			}
			if g := policy.Confirm(imp, 0); g.NeedsYes() != tt.needsYes {
				t.Errorf("NeedsYes = %v (%s), want %v", g.NeedsYes(), g.Reason(), tt.needsYes)
			}
		})
	}
	t.Run("read error", func(t *testing.T) {
		boom := errors.New("state unreadable")
		if _, err := policy.Assess(t.Context(), stack{err: boom}, analyse(t, example), "n"); !errors.Is(err, boom) {
			t.Errorf("err = %v, want %v", err, boom)
		}
	})
}
