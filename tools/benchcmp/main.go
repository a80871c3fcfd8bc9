// Command benchcmp is the whole-process half of `make bench`: it times the
// slurmspec binary against `cue vet` with slurmspec's own schema on the
// same data, measures peak RSS and package-initialisation time, checks the
// performance targets of docs/performance.md and rewrites that file's
// results block.
//
// Variants are timed in interleaved rounds (A, B, A, B, ...) so that a
// change in machine load affects both sides of a ratio alike.
//
// Its files by job: data.go (the inputs), measure.go (timing), machine.go
// (the machine and its load), report.go (the table and the doc).
//
//	go run ./tools/benchcmp -slurmspec bin/slurmspec -cue $(go env GOPATH)/bin/cue \
//	    -gobench bench.txt -doc docs/performance.md
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

func main() {
	var (
		slurmspecBin = flag.String("slurmspec", "bin/slurmspec", "slurmspec binary to measure")
		cueBin       = flag.String("cue", "cue", "cue binary (v0.17.1)")
		root         = flag.String("root", ".", "repository root (for examples/)")
		work         = flag.String("work", "", "directory for the generated data (default: a temporary directory)")
		runs         = flag.Int("runs", 15, "timed runs of each command (more for the fast ones, fewer for the slow)")
		docPath      = flag.String("doc", "", "rewrite the results block of this Markdown file")
		goBench      = flag.String("gobench", "", "output of `go test -bench` to summarise in the doc")
		waitLoad     = flag.Float64("wait-load", 1.5, "wait until the 1-minute load average is below this before measuring")
		waitMax      = flag.Duration("wait-max", 0, "longest wait for a quiet machine (0: do not wait)")
	)
	flag.Parse()
	if err := run(config{
		slurmspec: *slurmspecBin, cue: *cueBin, root: *root, work: *work, runs: *runs,
		doc: *docPath, goBench: *goBench, waitLoad: *waitLoad, waitMax: *waitMax,
	}); err != nil {
		fmt.Fprintln(os.Stderr, "benchcmp:", err)
		os.Exit(1)
	}
}

type config struct {
	slurmspec, cue, root, work, doc, goBench string
	runs                                     int
	waitLoad                                 float64
	waitMax                                  time.Duration
}

func run(cfg config) error {
	var err error
	if cfg.slurmspec, err = filepath.Abs(cfg.slurmspec); err != nil {
		return err
	}
	if cfg.cue, err = exec.LookPath(cfg.cue); err != nil {
		return fmt.Errorf("cue not found (make bench-tools installs it): %w", err)
	}
	if out, err := exec.Command(cfg.cue, "version").Output(); err != nil || !bytes.Contains(out, []byte("v0.17.1")) {
		return fmt.Errorf("%s is not cue v0.17.1: %v %s", cfg.cue, err, firstLine(out))
	}
	if cfg.work == "" {
		if cfg.work, err = os.MkdirTemp("", "slurmspec-bench-"); err != nil {
			return err
		}
		defer os.RemoveAll(cfg.work)
	}
	d, err := prepare(cfg)
	if err != nil {
		return err
	}
	m := machine{}
	m.loadBefore = waitQuiet(cfg.waitLoad, cfg.waitMax)
	m.date = time.Now().UTC().Format("2006-01-02 15:04 MST")

	lint := func(files ...string) []string { return append([]string{cfg.slurmspec, "lint"}, files...) }
	vet := func(files ...string) []string {
		return append([]string{cfg.cue, "vet", "-d", "#Cluster", d.schema}, files...)
	}
	r := results{}
	fmt.Println("== whole process: medians of interleaved runs")
	r.seed = compare(cfg.runs*4, "lint seed", lint(d.seed), "cue vet seed", vet(d.seed))
	r.big = compare(cfg.runs, "lint 1000-pool", lint(d.gen1000), "cue vet 1000-pool", vet(d.gen1000))
	r.scale = compare(cfg.runs, "lint 1000-pool", lint(d.gen1000), "lint 100-pool", lint(d.gen100))
	// The text format with many findings (issue #18.3: it was quadratic).
	r.findings = compare(cfg.runs, "lint 1000-pool text", lint(d.gen1000), "cue vet 1000-pool", vet(d.gen1000))
	r.findScale = compare(cfg.runs, "lint 2000-pool text", lint(d.gen2000), "lint 1000-pool text", lint(d.gen1000))
	r.many = compare(max(3, cfg.runs/3), "lint 1000 files", lint(d.many...), "cue vet 1000 files", vet(d.many...))
	if r.rssKB, err = peakRSS(lint(d.gen1000)); err != nil {
		return err
	}
	if r.hostileKB, err = hostileRSS(cfg.slurmspec, cfg.work); err != nil {
		return err
	}
	if r.init, r.inits, err = initTrace(lint(d.seed)); err != nil {
		return err
	}
	if r.heavy, err = heavyModules(cfg.slurmspec); err != nil {
		return err
	}
	m.loadAfter = loadAvg()
	m.fill()
	report := format(m, r, d, cfg)
	fmt.Print(report)
	if cfg.doc != "" {
		if err := rewriteDoc(cfg.doc, report, cfg.goBench); err != nil {
			return err
		}
		fmt.Println("wrote", cfg.doc)
	}
	return nil
}

func firstLine(b []byte) string {
	s, _, _ := strings.Cut(string(b), "\n")
	return s
}
