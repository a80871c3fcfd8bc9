// Command fidelity runs the differential oracle (deploy/fidelity) on every
// Slurm release this host runs and prints the table and the findings;
// with -doc it rewrites the generated block of docs/fidelity.md. With
// -mode related each case sets 2 to 4 keys of one family of related keys
// (fidelity.GenerateRelated) instead of keys drawn over the whole catalog.
//
//	go run ./deploy/fidelity/cmd/fidelity -n 300 -seed 1 -doc docs/fidelity.md
//	go run ./deploy/fidelity/cmd/fidelity -mode related -n 150 -seed 1 -releases 22.05
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/slurmspec/slurmspec/deploy/fidelity"
	"github.com/slurmspec/slurmspec/deploy/localslurm"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

func main() {
	n := flag.Int("n", 300, "generated specs per release")
	seed := flag.Uint64("seed", 1, "generator seed")
	releases := flag.String("releases", strings.Join(localslurm.Releases(), ","), "comma-separated Slurm release series")
	doc := flag.String("doc", "", "Markdown file whose fidelity block to rewrite")
	quiet := flag.Bool("q", false, "print only the table and findings")
	mode := flag.String("mode", "random", "how cases are made: random (keys over the whole catalog) or related (keys of one family: a constraints.md row, a key of two scopes, a name prefix)")
	flag.Parse()
	if *mode != "random" && *mode != "related" {
		fmt.Fprintf(os.Stderr, "fidelity: -mode %q: want random or related\n", *mode)
		os.Exit(2)
	}
	if err := run(*n, *seed, strings.Split(*releases, ","), *doc, *quiet, *mode == "related"); err != nil {
		fmt.Fprintln(os.Stderr, "fidelity:", err)
		os.Exit(1)
	}
}

func run(n int, seed uint64, releases []string, doc string, quiet, related bool) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var reps []*fidelity.Report
	for _, rel := range releases {
		if err := localslurm.PrereqsFor(localslurm.Options{Release: rel, Accounting: true}); err != nil {
			return fmt.Errorf("release %s: %w", rel, err)
		}
		o := fidelity.Options{Release: rel, Seed: seed, N: n}
		if related {
			v, err := catalog.ParseVersion(rel)
			if err != nil {
				return fmt.Errorf("release %s: %w", rel, err)
			}
			o.Cases = fidelity.GenerateRelated(catalog.Default(), v, seed, n)
		}
		if !quiet {
			o.Log = os.Stderr
		}
		rep, err := fidelity.Run(ctx, o)
		if err != nil {
			return err
		}
		reps = append(reps, rep)
	}
	text := fidelity.Table(reps) + "\n## Findings of this run\n" + fidelity.Findings(reps)
	fmt.Println(text)
	if doc != "" {
		return fidelity.UpdateDoc(doc, text)
	}
	return nil
}
