package jobmix

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/lab/localslurm"
	"github.com/slurmspec/slurmspec/render"
	"github.com/slurmspec/slurmspec/render/output"
)

// Class is how lint's prediction and Slurm's verdict agreed on one shape.
type Class string

// The classes.
const (
	// Agree: the shape runs and no finding says it fails, or it fails and
	// a finding says so.
	Agree Class = "agree"
	// FalseNegative: the shape fails and no finding predicts it.
	FalseNegative Class = "false negative"
	// FalsePositive: a finding predicts the shape fails, and it runs.
	FalsePositive Class = "false positive"
	// NotDecided: the runner could not tell (Undecided).
	NotDecided Class = "undecided"
)

// Judged is one shape's verdict beside the findings predicting it fails.
type Judged struct {
	Verdict
	Predicted []string
	Class     Class
}

// Compare classifies each verdict against the claims (Predict).
func Compare(verdicts []Verdict, claims []Claim) []Judged {
	out := make([]Judged, 0, len(verdicts))
	for _, v := range verdicts {
		j := Judged{Verdict: v}
		for _, c := range claims {
			if c.ShapeID == v.Shape.ID() {
				j.Predicted = append(j.Predicted, c.Finding)
			}
		}
		predicted := len(j.Predicted) > 0
		switch {
		case v.Outcome == Undecided:
			j.Class = NotDecided
		case v.Outcome.Fails() == predicted:
			j.Class = Agree
		case predicted:
			j.Class = FalsePositive
		default:
			j.Class = FalseNegative
		}
		out = append(out, j)
	}
	return out
}

// Options configures Run.
type Options struct {
	// Dir is the spec rendered for Release (slurmspec render).
	Dir string
	// Cluster is the compiled spec Dir was rendered from.
	Cluster *ir.Cluster
	// Release is the Slurm series to run (localslurm.Releases()).
	Release string
	// Wait bounds each wait for a job (Runner.Wait).
	Wait time.Duration
	// Log receives progress; nil discards it.
	Log io.Writer
}

// Run derives the spec's shapes, starts the release's cluster with
// accounting and a stand-in slurmd for every node a shape is pinned to (on
// the spec without its partitions' QOS keys), creates the accounts and QOS
// (Setup), restarts slurmctld on Dir so that it reads them, judges every
// shape and stops the cluster.
func Run(ctx context.Context, o Options) (verdicts []Verdict, err error) {
	groups, err := localslurm.NodeGroups(o.Dir)
	if err != nil {
		return nil, fmt.Errorf("jobmix: %w", err)
	}
	shapes := Derive(o.Cluster, PoolNodes(groups))
	if len(shapes) == 0 {
		return nil, errNoShape
	}
	// The accounts and QOS the spec names are not in the database yet,
	// and slurmctld 26.05 refuses to start on a partition whose AllowQos
	// names a QOS it lacks ("Partition cpu has an invalid AllowQOS"): the
	// cluster starts on the spec without its partitions' QOS keys, then
	// Setup creates them and slurmctld restarts on the spec itself.
	first, err := os.MkdirTemp("", "jobmix-")
	if err != nil {
		return nil, fmt.Errorf("jobmix: %w", err)
	}
	defer os.RemoveAll(first)
	set, l := render.Render(withoutQOS(o.Cluster), render.Options{SlurmVersion: o.Release})
	if l.HasErrors() {
		return nil, fmt.Errorf("jobmix: render the spec without its QOS keys: %v", l)
	}
	if err := output.Write(first, set); err != nil {
		return nil, fmt.Errorf("jobmix: %w", err)
	}
	cl, err := localslurm.Start(ctx, localslurm.Options{Dir: first, Release: o.Release, Accounting: true, StandIns: StandIns(shapes), Log: o.Log})
	if err != nil {
		return nil, fmt.Errorf("jobmix: start Slurm %s: %w", o.Release, err)
	}
	defer func() {
		if stopErr := cl.Stop(); stopErr != nil {
			err = errors.Join(err, fmt.Errorf("jobmix: stop: %w", stopErr))
		}
	}()
	if err := Setup(ctx, cl, o.Cluster); err != nil {
		return nil, err
	}
	if err := cl.RestartController(ctx, o.Dir); err != nil {
		return nil, fmt.Errorf("jobmix: restart slurmctld after Setup: %w", err)
	}
	r := &Runner{Cluster: cl, Wait: o.Wait, Log: o.Log}
	return r.Judge(ctx, shapes)
}

// PoolNodes maps each node group of a rendered slurm.conf (one NodeSet per
// compute pool, named by the pool's id) to its node names.
func PoolNodes(groups []localslurm.NodeGroup) map[string][]string {
	m := map[string][]string{}
	for _, g := range groups {
		m[g.Name] = g.Nodes
	}
	return m
}

// withoutQOS returns a copy of the cluster whose partitions lack the keys
// that name QOS (QOS, AllowQos, DenyQos).
func withoutQOS(c *ir.Cluster) *ir.Cluster {
	cp := *c
	cp.Slurm.Partitions = make([]*ir.Partition, len(c.Slurm.Partitions))
	for i, p := range c.Slurm.Partitions {
		q := *p
		q.Config = slices.DeleteFunc(slices.Clone(p.Config), func(kv ir.KV) bool {
			return slices.ContainsFunc([]string{"QOS", "AllowQos", "DenyQos"}, func(k string) bool { return strings.EqualFold(kv.Key.Value, k) })
		})
		cp.Slurm.Partitions[i] = &q
	}
	return &cp
}
