// Command fidelity runs the differential oracle (lab/fidelity) on every
// Slurm release this host runs and prints the table and the findings;
// with -doc it rewrites the generated block of docs/fidelity.md that
// belongs to the mode (fidelity.DocBlock: each mode has its own). With
// -mode related each case sets 2 to 4 keys of one family of related keys
// (fidelity.GenerateRelated) instead of keys drawn over the whole catalog;
// with -mode doubled each case is one value of a list key written twice
// (fidelity.SweepDoubled: every such value of the release, -n and -seed
// unused).
// With -mode workload each case is a spec of scheduling settings whose job
// mix (lab/jobmix) runs on real Slurm (fidelity.RunWorkload).
//
//	go run ./lab/fidelity/cmd/fidelity -n 300 -seed 1 -doc docs/fidelity.md
//	go run ./lab/fidelity/cmd/fidelity -mode related -n 150 -seed 1 -releases 22.05
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/slurmspec/slurmspec/lab/fidelity"
	"github.com/slurmspec/slurmspec/lab/localslurm"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

func main() {
	n := flag.Int("n", 300, "generated specs per release")
	seed := flag.Uint64("seed", 1, "generator seed")
	releases := flag.String("releases", strings.Join(localslurm.Releases(), ","), "comma-separated Slurm release series")
	doc := flag.String("doc", "", "Markdown file whose fidelity block to rewrite")
	quiet := flag.Bool("q", false, "print only the table and findings")
	mode := flag.String("mode", "random", "how cases are made: random (keys over the whole catalog), related (keys of one family: a constraints.md row, a key of two scopes, a name prefix), doubled (every value of a list key written twice) or workload (scheduling settings, each spec's job mix run)")
	parallel := flag.Bool("parallel", false, "run the releases side by side")
	only := flag.String("cases", "", "comma-separated case indexes to run of the n generated (a rerun of findings); empty runs all")
	flag.Parse()
	idx, err := parseIndexes(*only)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fidelity: -cases:", err)
		os.Exit(2)
	}
	if !slices.Contains(fidelity.Modes, *mode) {
		fmt.Fprintf(os.Stderr, "fidelity: -mode %q: want random, related, doubled or workload\n", *mode)
		os.Exit(2)
	}
	if *doc != "" {
		// Each mode rewrites its own block: check it is there first.
		if err := fidelity.CheckDoc(*doc, *mode); err != nil {
			fmt.Fprintln(os.Stderr, "fidelity: -doc:", err)
			os.Exit(2)
		}
	}
	if *mode == "workload" {
		if err := runWorkload(*n, *seed, strings.Split(*releases, ","), *doc, *quiet, *parallel, idx); err != nil {
			fmt.Fprintln(os.Stderr, "fidelity:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*n, *seed, strings.Split(*releases, ","), *doc, *quiet, *mode, *parallel, idx); err != nil {
		fmt.Fprintln(os.Stderr, "fidelity:", err)
		os.Exit(1)
	}
}

func run(n int, seed uint64, releases []string, doc string, quiet bool, mode string, parallel bool, only map[int]bool) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	reps := make([]*fidelity.Report, len(releases))
	err := eachRelease(releases, parallel, func(i int, rel string) (err error) {
		reps[i], err = runRelease(ctx, rel, n, seed, quiet, mode, only)
		return err
	})
	if err != nil {
		return err
	}
	return publish(os.Stdout, reps, doc, mode)
}

// publish prints the table and findings of a run of mode and, with doc,
// rewrites that mode's block of it.
func publish(w io.Writer, reps []*fidelity.Report, doc, mode string) error {
	heading, findings := "## Findings of this run", fidelity.Findings(reps)
	if mode != "random" {
		// The other modes' blocks sit inside a section of the doc.
		heading, findings = "#### Findings of this run", strings.ReplaceAll(findings, "\n### ", "\n##### ")
	}
	text := fidelity.Table(reps) + "\n" + heading + "\n" + findings
	fmt.Fprintln(w, text)
	if doc != "" {
		return fidelity.UpdateModeDoc(doc, mode, text)
	}
	return nil
}

// runRelease runs the oracle's cases on one release.
func runRelease(ctx context.Context, rel string, n int, seed uint64, quiet bool, mode string, only map[int]bool) (*fidelity.Report, error) {
	if err := localslurm.PrereqsFor(localslurm.Options{Release: rel, Accounting: true}); err != nil {
		return nil, fmt.Errorf("release %s: %w", rel, err)
	}
	o := fidelity.Options{Release: rel, Seed: seed, N: n}
	v, err := catalog.ParseVersion(rel)
	if err != nil {
		return nil, fmt.Errorf("release %s: %w", rel, err)
	}
	o.Cases = pick(cases(v, seed, n, mode), only)
	if mode == "doubled" {
		o.N = len(o.Cases) // a sweep: every case, not n of them
	}
	if len(o.Cases) == 0 {
		return nil, fmt.Errorf("release %s: no case of the %d has an index of -cases", rel, n)
	}
	if !quiet {
		o.Log = os.Stderr
	}
	return fidelity.Run(ctx, o)
}

// cases returns the cases of the mode for the release: the n related or
// random ones of the seed (fidelity.GenerateRelated, fidelity.Generate),
// or every doubled list value (fidelity.SweepDoubled).
func cases(v catalog.Version, seed uint64, n int, mode string) []fidelity.Case {
	switch mode {
	case "related":
		return fidelity.GenerateRelated(catalog.Default(), v, seed, n)
	case "doubled":
		return fidelity.SweepDoubled(catalog.Default(), v)
	}
	return fidelity.Generate(catalog.Default(), v, seed, n)
}

// pick keeps the cases whose index is in only (all of them when only is
// empty); each keeps its index, so a rerun names the cases as the full
// run did.
func pick(all []fidelity.Case, only map[int]bool) []fidelity.Case {
	if len(only) == 0 {
		return all
	}
	var out []fidelity.Case
	for _, c := range all {
		if only[c.Index] {
			out = append(out, c)
		}
	}
	return out
}

// parseIndexes reads "3,17,42" into a set; "" is the empty set.
func parseIndexes(s string) (map[int]bool, error) {
	out := map[int]bool{}
	if s == "" {
		return out, nil
	}
	for _, f := range strings.Split(s, ",") {
		i, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || i < 0 {
			return nil, fmt.Errorf("%q is not a case index", f)
		}
		out[i] = true
	}
	return out, nil
}
