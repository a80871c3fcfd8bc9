// Package verify asks a deployed cluster, through the service's Slurm Job
// API (deploy/slurmapi), whether it is what the spec renders and whether it
// runs the spec's jobs: it reads the live partitions and nodes and reports
// where they differ from the rendered slurm.conf (drift), then submits a
// job mix in every partition (render/jobshapes: the shapes lab/jobmix
// checks lint against) and reports each shape's verdict,
// cancelling its jobs. Findings carry the ids of lint/online (verify-*)
// and the spec's positions. docs/verify.md describes it.
package verify

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/escape"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/deploy/slurmapi"
)

// Options configure Run.
type Options struct {
	// Wait bounds how long one job may pend before its verdict is
	// "still waiting"; 0 means DefaultWait.
	Wait time.Duration
	// Poll is the interval between reads of a job's state; 0 means one
	// second.
	Poll time.Duration
	// NoJobs reads the partitions and nodes only, and submits nothing.
	NoJobs bool
	// AllowPending accepts job shapes without a verdict (still waiting
	// when the wait ended): their finding, verify-job-no-verdict, is a
	// warning instead of an error.
	AllowPending bool
}

// DefaultWait is how long a job may pend by default: long enough for a
// powered-down cloud node to be asked for (CONFIGURING counts as started).
const DefaultWait = 2 * time.Minute

// Report is what Run found.
type Report struct {
	// Diags are the findings, in the spec's order.
	Diags diag.List
	// Verdicts are the job mix's results, partition by partition.
	Verdicts []Verdict
	// Partitions and Nodes count what the live cluster has.
	Partitions, Nodes int
}

// Run verifies the cluster c, whose rendered slurm.conf is conf, through
// api. An error means the check could not run (the API refused a call,
// the cluster could not be read); findings go into the report.
func Run(ctx context.Context, api *slurmapi.Client, c *ir.Cluster, conf []byte, opt Options) (*Report, error) {
	if opt.Wait <= 0 {
		opt.Wait = DefaultWait
	}
	if opt.Poll <= 0 {
		opt.Poll = time.Second
	}
	e, err := readExpected(c, conf)
	if err != nil {
		return nil, err
	}
	parts, err := api.Partitions(ctx)
	if err != nil {
		return nil, err
	}
	nodes, err := api.Nodes(ctx)
	if err != nil {
		return nil, err
	}
	r := &Report{Partitions: len(parts), Nodes: len(nodes)}
	r.Diags = drift(c, e, parts, nodes)
	if !opt.NoJobs {
		live := map[string]bool{}
		for _, p := range parts {
			live[p.Name] = true
		}
		rendered := map[string]*partition{}
		for _, p := range e.partitions {
			rendered[p.name] = p
		}
		for _, j := range jobs(c, e) {
			p := rendered[j.shape.Partition]
			if p == nil || !live[p.name] {
				continue // reported as missing; every job would be refused
			}
			v, err := runShape(ctx, api, j, opt.Wait, opt.Poll)
			if err != nil {
				return nil, err
			}
			r.Verdicts = append(r.Verdicts, v)
			if d, ok := jobFinding(c, p, v); ok {
				r.Diags.Add(d)
			}
		}
		for _, p := range e.partitions {
			if d, ok := noVerdict(c, p, r.Verdicts, opt); ok {
				r.Diags.Add(d)
			}
		}
	}
	r.Diags = r.Diags.Sort()
	return r, nil
}

// NoVerdict counts the job shapes without a verdict: their jobs still
// waited when the wait ended, so nothing shows that they run.
func (r *Report) NoVerdict() int {
	n := 0
	for _, v := range r.Verdicts {
		if v.Outcome == Waiting {
			n++
		}
	}
	return n
}

// WriteVerdicts prints the job mix's verdicts, one line each.
func (r *Report) WriteVerdicts(w io.Writer) error {
	if len(r.Verdicts) == 0 {
		return nil
	}
	width := 0
	for _, v := range r.Verdicts {
		width = max(width, len(v.Shape.ID()))
	}
	part := ""
	for _, v := range r.Verdicts {
		if v.Partition != part {
			part = v.Partition
			if _, err := fmt.Fprintf(w, "partition %s:\n", escape.Text(part)); err != nil {
				return err
			}
		}
		line := fmt.Sprintf("  %-*s  %s", width, v.Shape.ID(), v.Outcome)
		if v.JobID != 0 {
			line += fmt.Sprintf(" (job %d", v.JobID)
			if v.Detail != "" {
				line += ", " + v.Detail
			}
			line += ")"
		} else if v.Detail != "" {
			line += ": " + v.Detail
		}
		if _, err := fmt.Fprintln(w, escape.Text(line)); err != nil {
			return err
		}
	}
	return nil
}
