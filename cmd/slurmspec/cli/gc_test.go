package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/lint/pipeline"
)

// TestLintReportsInputSize checks that a lint tells env.sizedRun the size
// of the specs it reads, so that Main tunes the collector by it, and that
// the count stops once the run is no longer small.
func TestLintReportsInputSize(t *testing.T) {
	seed, err := os.ReadFile("../../../examples/seed.jsonc")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	one := filepath.Join(dir, "one.jsonc")
	if err := os.WriteFile(one, seed, 0o644); err != nil {
		t.Fatal(err)
	}
	var got []int64
	var out bytes.Buffer
	e := env{stdin: strings.NewReader(""), stdout: &out, stderr: &out, sizedRun: func(n int64) { got = append(got, n) }}
	if code := run([]string{"lint", one}, e); code != exitOK {
		t.Fatalf("lint exit %d:\n%s", code, out.String())
	}
	if len(got) != 1 || got[0] != int64(len(seed)) {
		t.Errorf("sizedRun told %v, want [%d]", got, len(seed))
	}

	sizes := pipeline.TotalSize([]string{one, one, filepath.Join(dir, "missing.yaml")})
	if sizes != 2*int64(len(seed)) {
		t.Errorf("TotalSize of a file twice and a missing one = %d, want %d", sizes, 2*len(seed))
	}
	n := pipeline.SmallRun/len(seed) + 2
	files := make([]string, n)
	for i := range files {
		files[i] = one
	}
	if total := pipeline.TotalSize(files); total <= pipeline.SmallRun || total > pipeline.SmallRun+int64(len(seed)) {
		t.Errorf("TotalSize of %d seeds = %d, want just past %d", n, total, pipeline.SmallRun)
	}
}
