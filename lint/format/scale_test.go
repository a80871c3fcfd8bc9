package format

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// manyFindings is a run over one spec of n lines with one finding on each
// line, like a 1000-pool spec with 1000 findings.
func manyFindings(n int) Run {
	var src strings.Builder
	var l diag.List
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&src, "  - id: pool%d # é\n", i)
		l.Add(diag.Diagnostic{Rule: fmt.Sprintf("rule-%d", i%7), Severity: diag.Severity(i % 3),
			Pos: diag.Pos{File: "big.yaml", Line: i, Col: 9}, Path: fmt.Sprintf("nodePools[%d].id", i-1),
			Message: "pool " + fmt.Sprint(i) + " is wrong", Hint: "fix it",
			Related: []diag.Related{{Pos: diag.Pos{File: "big.yaml", Line: 1, Col: 1}, Message: "first"}}})
	}
	return Run{Files: []File{{Name: "big.yaml", Source: []byte(src.String()), Diags: l}}, Rules: nil}
}

// allocated returns the bytes allocated by formatting r.
func allocated(t testing.TB, f Formatter, r Run) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if err := f.Format(io.Discard, r); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestFormatsAreLinear checks that every format's work grows linearly with
// the number of findings: sixteen times the findings (on a source sixteen
// times as long) may allocate at most 40 times the bytes (linear is 16;
// buffers that grow by doubling may add up to twice that). A formatter
// that re-reads the source for each finding (the text format did)
// allocates 256 times as much.
func TestFormatsAreLinear(t *testing.T) {
	small, large := manyFindings(250), manyFindings(4000)
	for _, name := range Formats().Names() {
		f, err := New(name, Options{FileSummary: true})
		if err != nil {
			t.Fatal(err)
		}
		allocated(t, f, small) // warm up
		a, b := allocated(t, f, small), allocated(t, f, large)
		if ratio := float64(b) / float64(a); ratio > 40 {
			t.Errorf("%s: 250 findings allocate %d KiB, 4000 allocate %d KiB (%.1fx, linear is 16x)", name, a>>10, b>>10, ratio)
		}
	}
}

// BenchmarkFormat formats 1000 and 2000 findings in every format.
func BenchmarkFormat(b *testing.B) {
	for _, n := range []int{1000, 2000} {
		r := manyFindings(n)
		for _, name := range Formats().Names() {
			f, _ := New(name, Options{FileSummary: true})
			b.Run(fmt.Sprintf("%s/%d", name, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if err := f.Format(io.Discard, r); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
