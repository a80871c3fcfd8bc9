package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
)

// event is one line of go test -json (cmd/test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Elapsed float64
}

// result is how a package or a test ended and how long it took.
type result struct {
	name    string
	action  string // pass, fail or skip
	elapsed float64
}

// pkgResult is one package: its own result and its tests'.
type pkgResult struct {
	result
	tests []result // every test and subtest that ended
}

// run is one go test -json stream: its packages in the order they ended.
type run struct {
	pkgs []*pkgResult
}

// read parses a go test -json stream. Lines that are not JSON (a build
// failure's output) are left out.
func read(r io.Reader) (*run, error) {
	out := &run{}
	byName := map[string]*pkgResult{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var e event
		if json.Unmarshal(sc.Bytes(), &e) != nil || e.Package == "" {
			continue
		}
		if e.Action != "pass" && e.Action != "fail" && e.Action != "skip" {
			continue
		}
		p := byName[e.Package]
		if p == nil {
			p = &pkgResult{result: result{name: e.Package}}
			byName[e.Package] = p
			out.pkgs = append(out.pkgs, p)
		}
		if e.Test == "" {
			p.action, p.elapsed = e.Action, e.Elapsed
		} else {
			p.tests = append(p.tests, result{name: e.Test, action: e.Action, elapsed: e.Elapsed})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read go test -json: %w", err)
	}
	return out, nil
}

// Thresholds of the detail tables.
const (
	slowPackage = 60.0 // seconds: a package this slow gets a table of its tests
	slowTest    = 10.0 // seconds: a test this slow is listed there
)

// count returns how many tests (subtests included) ended with action.
func (p *pkgResult) count(action string) int {
	n := 0
	for _, t := range p.tests {
		if t.action == action {
			n++
		}
	}
	return n
}

// write prints the tables.
func write(w io.Writer, runs []*run, wall int) error {
	var pkgs []*pkgResult
	for _, r := range runs {
		pkgs = append(pkgs, r.pkgs...)
	}
	slices.SortStableFunc(pkgs, func(a, b *pkgResult) int { return cmpDesc(a.elapsed, b.elapsed) })
	var b strings.Builder
	if wall > 0 {
		fmt.Fprintf(&b, "Wall time of the whole run: %d s (%.1f min).\n\n", wall, float64(wall)/60)
	}
	b.WriteString("| package | result | time (s) | passed | failed | skipped |\n|---|---|--:|--:|--:|--:|\n")
	for _, p := range pkgs {
		fmt.Fprintf(&b, "| %s | %s | %.1f | %d | %d | %d |\n", p.name, orDash(p.action), p.elapsed, p.count("pass"), p.count("fail"), p.count("skip"))
	}
	for _, p := range pkgs {
		if p.elapsed < slowPackage {
			continue
		}
		var slow []result
		for _, t := range p.tests {
			if strings.Count(t.name, "/") <= 1 && t.elapsed >= slowTest {
				slow = append(slow, t)
			}
		}
		slices.SortStableFunc(slow, func(a, b result) int { return cmpDesc(a.elapsed, b.elapsed) })
		fmt.Fprintf(&b, "\n%s: tests of %.0f s or more (first two levels), slowest first\n\n| test | result | time (s) |\n|---|---|--:|\n", p.name, slowTest)
		for _, t := range slow {
			fmt.Fprintf(&b, "| %s | %s | %.1f |\n", t.name, t.action, t.elapsed)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func cmpDesc(a, b float64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}

func orDash(s string) string {
	if s == "" {
		return "—" // the stream ended before the package did
	}
	return s
}
