package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hugeKeySpecs are specs that each hold keys or values of size bytes:
// unknown top-level keys, a key given twice, a slurm.conf key, a label
// key, an unknown key in a pool, an enum value and an id.
func hugeKeySpecs(size int) map[string]string {
	big := strings.Repeat("y", size)
	return map[string]string{
		"unknown.json":  fmt.Sprintf(`{"nodePools": [], "a%s": 1, "b%s": 2, "c%s": 3}`, big, big, big),
		"twice.json":    fmt.Sprintf(`{"nodePools": [], "k%s": 1, "k%s": 2}`, big, big),
		"config.json":   fmt.Sprintf(`{"nodePools": [], "orchestratorSpec": {"slurmSpec": {"config": {"K%s": "1"}}}}`, big),
		"label.json":    fmt.Sprintf(`{"nodePools": [], "labels": {"k%s": "v"}}`, big),
		"nested.json":   fmt.Sprintf(`{"nodePools": [{"id": "a", "u%s": 1}]}`, big),
		"enum.json":     fmt.Sprintf(`{"nodePools": [{"id": "a", "provisioningModel": "X%s"}]}`, big),
		"id.json":       fmt.Sprintf(`{"nodePools": [{"id": "a%s"}]}`, big),
		"unknown.jsonc": fmt.Sprintf("{\"nodePools\": [],\n  // c\n  \"a%s\": 1}", big),
	}
}

// TestHugeKeysAreNotEchoed: a spec of megabyte-long keys and values gets
// messages of bounded size, in every format: a name is cut to its first
// 64 bytes and its length (diag.Shorten), never echoed whole. The output
// for keys of 1 MiB is that for keys of 100 bytes, give or take the
// digits of the lengths.
func TestHugeKeysAreNotEchoed(t *testing.T) {
	dir := t.TempDir()
	lint := func(name, src, format string) string {
		t.Helper()
		file := filepath.Join(dir, name)
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		var out, errOut strings.Builder
		if code := Run([]string{"lint", "--format", format, file}, &out, &errOut); code != exitFindings {
			t.Errorf("%s, %s: exit %d: %s", name, format, code, errOut.String())
		}
		return out.String() + errOut.String()
	}
	const size = 1 << 20
	small := hugeKeySpecs(100)
	for name, src := range hugeKeySpecs(size) {
		for _, format := range []string{"text", "json", "sarif", "github"} {
			got, base := lint(name, src, format), lint(name, small[name], format)
			if len(got) > len(base)+1024 {
				t.Errorf("%s, %s: %d bytes of output for names of %d bytes, %d for names of 100; want the same give or take 1 KiB", name, format, len(got), size, len(base))
			}
			if !strings.Contains(got, fmt.Sprintf("…(%d bytes)", size+1)) {
				t.Errorf("%s, %s: no cut name in\n%.2000s", name, format, got)
			}
		}
	}
}

// BenchmarkHugeUnknownKeys measures `slurmspec lint` of a 15 MB spec of
// three 5 MB unknown top-level keys (docs/performance.md). out-B/op is
// the size of the text output.
func BenchmarkHugeUnknownKeys(b *testing.B) {
	big := strings.Repeat("x", 5_000_000)
	file := filepath.Join(b.TempDir(), "huge.json")
	src := fmt.Sprintf(`{"nodePools": [], "a%s": 1, "b%s": 2, "c%s": 3}`, big, big, big)
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		b.Fatal(err)
	}
	var n int
	for b.Loop() {
		var out countWriter
		if code := Run([]string{"lint", file}, &out, io.Discard); code != exitFindings {
			b.Fatalf("exit %d", code)
		}
		n = int(out)
	}
	b.ReportMetric(float64(n), "out-B/op")
}

// countWriter counts the bytes written to it.
type countWriter int

func (c *countWriter) Write(p []byte) (int, error) {
	*c += countWriter(len(p))
	return len(p), nil
}
