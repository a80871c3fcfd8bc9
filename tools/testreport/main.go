// Command testreport is the table half of `make test-report`: it reads the
// `go test -json` streams that .ci/test.sh wrote and prints, in Markdown,
// one row per package (its wall time and how many tests passed, failed and
// skipped), then for each package that took a minute or more its tests of
// the first two levels (a top-level test and, for instance, its release
// subtests) that took 10 s or more, slowest first: where the suite's time
// goes (docs/performance.md, "Test suite").
//
//	go run ./tools/testreport -wall 812 bin/test-json/*.json
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	wall := flag.Int("wall", 0, "wall time of the whole run in seconds, for the heading (0: leave it out)")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: testreport [-wall SECONDS] FILE.json...")
		os.Exit(2)
	}
	var runs []*run
	for _, path := range flag.Args() {
		r, err := readFile(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "testreport:", err)
			os.Exit(1)
		}
		runs = append(runs, r)
	}
	if err := write(os.Stdout, runs, *wall); err != nil {
		fmt.Fprintln(os.Stderr, "testreport:", err)
		os.Exit(1)
	}
}

// readFile reads one go test -json stream.
func readFile(path string) (*run, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}
