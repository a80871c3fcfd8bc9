package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/cmd/slurmspec/cli"
	"github.com/slurmspec/slurmspec/compiler/specgen"
)

// TestLargeSpecStaysWithinLimits lints and renders a 1000-pool, 1000-partition
// spec in process and checks it is clean and that the heap stays bounded.
// Time is measured by the benchmarks (make bench), not here.
func TestLargeSpecStaysWithinLimits(t *testing.T) {
	if testing.Short() {
		t.Skip("large spec")
	}
	dir := t.TempDir()
	spec := filepath.Join(dir, "big.json")
	if err := os.WriteFile(spec, specgen.JSON(1000), 0o644); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	var out, errb bytes.Buffer
	code := cli.Run([]string{"render", spec, "-o", filepath.Join(dir, "out")}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errb.String())
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if strings.Contains(errb.String(), "error") {
		t.Errorf("diagnostics on the generated spec:\n%s", errb.String())
	}
	// Peak heap is bounded by total allocation; keep it to a few hundred MB.
	if alloc := (after.TotalAlloc - before.TotalAlloc) >> 20; alloc > 3000 {
		t.Errorf("render of 1000 pools allocated %d MiB", alloc)
	}
	if heap := after.HeapSys >> 20; heap > 400 {
		t.Errorf("heap grew to %d MiB", heap)
	}
}
