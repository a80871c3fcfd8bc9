package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/slurmspec/slurmspec/lab/fidelity"
	"github.com/slurmspec/slurmspec/lab/localslurm"
)

// runWorkload runs the workload mode on each release, in turn or side by
// side, prints the table and findings and, with doc, rewrites its block.
func runWorkload(n int, seed uint64, releases []string, doc string, quiet, parallel bool, only map[int]bool) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	all := fidelity.GenerateWorkload(seed, n)
	var cases []fidelity.WorkloadCase
	for _, c := range all {
		if len(only) == 0 || only[c.Index] {
			cases = append(cases, c)
		}
	}
	if len(cases) == 0 {
		return fmt.Errorf("no case of the %d has an index of -cases", n)
	}
	reps := make([]*fidelity.WorkloadReport, len(releases))
	var mu sync.Mutex // guards reps and the doc
	write := func() error {
		var done []*fidelity.WorkloadReport
		for _, r := range reps {
			if r != nil {
				done = append(done, r)
			}
		}
		text := fidelity.WorkloadTable(done) + "\n#### Findings of this run\n" + fidelity.WorkloadFindings(done)
		if doc == "" {
			return nil
		}
		return fidelity.UpdateWorkloadDoc(doc, text)
	}
	err := eachRelease(releases, parallel, func(i int, rel string) error {
		if err := localslurm.PrereqsFor(localslurm.Options{Release: rel, Accounting: true}); err != nil {
			return fmt.Errorf("release %s: %w", rel, err)
		}
		o := fidelity.WorkloadOptions{Options: fidelity.Options{Release: rel, Seed: seed, N: n}, WorkloadCases: cases}
		// The doc holds the results so far, so that a stopped run
		// keeps them.
		o.Progress = func(r *fidelity.WorkloadReport) {
			mu.Lock()
			defer mu.Unlock()
			reps[i] = r
			if err := write(); err != nil {
				fmt.Fprintln(os.Stderr, "fidelity:", err)
			}
		}
		if !quiet {
			o.Log = os.Stderr
		}
		rep, err := fidelity.RunWorkload(ctx, o)
		if err != nil {
			fmt.Fprintf(os.Stderr, "fidelity: release %s stopped: %v\n", rel, err)
		}
		mu.Lock()
		if rep != nil {
			reps[i] = rep
		}
		mu.Unlock()
		return err
	})
	if err != nil {
		return err
	}
	text := fidelity.WorkloadTable(reps) + "\n#### Findings of this run\n" + fidelity.WorkloadFindings(reps)
	fmt.Println(text)
	if doc != "" {
		return fidelity.UpdateWorkloadDoc(doc, text)
	}
	return nil
}
