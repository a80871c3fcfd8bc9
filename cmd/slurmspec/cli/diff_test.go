package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDiffExitCodes: diff exits 2 without classifying when a side has
// errors (the new side always; the old side when it does not compile) or
// cannot be read, so that 1 always means changes shown in the report, and
// compares an old side that compiles despite errors.
func TestDiffExitCodes(t *testing.T) {
	example := "../../../examples/a4-training.yaml"
	src, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	badValue := filepath.Join(dir, "badvalue.yaml")
	if err := os.WriteFile(badValue, bytes.Replace(src, []byte(`MaxTime: "7-00:00:00"`), []byte(`MaxTime: "bogus"`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(dir, "broken.yaml")
	if err := os.WriteFile(broken, []byte("nodePools: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		old, new string
		code     int
		stdout   string // "" means nothing
		stderr   string
	}{
		{example, example, exitOK, "no changes", ""},
		{example, badValue, exitUsage, "", "badvalue.yaml: not compared: 1 error"},
		{example, broken, exitUsage, "", "broken.yaml: not compared: 2 errors"},
		{broken, example, exitUsage, "", "broken.yaml: not compared: 2 errors"},
		{badValue, example, exitFindings, "partition train MaxTime", "[invalid-config-value]"},
		{example, filepath.Join(dir, "missing.yaml"), exitUsage, "", "cannot be compared"},
	} {
		var out, errOut bytes.Buffer
		code := Run([]string{"diff", c.old, c.new}, &out, &errOut)
		name := filepath.Base(c.old) + " -> " + filepath.Base(c.new)
		if code != c.code {
			t.Errorf("%s: exit %d, want %d; stderr %s", name, code, c.code, errOut.String())
		}
		if c.stdout == "" && out.Len() > 0 || !strings.Contains(out.String(), c.stdout) {
			t.Errorf("%s: stdout %q, want %q", name, out.String(), c.stdout)
		}
		if !strings.Contains(errOut.String(), c.stderr) {
			t.Errorf("%s: stderr %q, want %q", name, errOut.String(), c.stderr)
		}
	}
}
