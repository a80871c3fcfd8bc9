package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDiffDetailedExitCode: with --detailed-exitcode diff exits as
// terraform plan -detailed-exitcode does: 0 no change, 2 changes, 1 any
// error, each error explained on standard error; changes below --fail-on
// exit 0.
func TestDiffDetailedExitCode(t *testing.T) {
	example := "../../../examples/a4-training.yaml"
	src, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, from, to string) string {
		t.Helper()
		if !bytes.Contains(src, []byte(from)) {
			t.Fatalf("the example no longer has %q", from)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, bytes.Replace(src, []byte(from), []byte(to), 1), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	maxTime := write("maxtime.yaml", `MaxTime: "7-00:00:00"`, `MaxTime: "6-00:00:00"`)
	badValue := write("badvalue.yaml", `MaxTime: "7-00:00:00"`, `MaxTime: "bogus"`)
	for _, c := range []struct {
		name   string
		args   []string
		code   int
		stdout string // "" means nothing
		stderr string // "" means nothing
	}{
		{"no change", []string{example, example}, 0, "no changes", ""},
		{"changes", []string{example, maxTime}, 2, "partition train MaxTime", ""},
		{"changes below --fail-on", []string{"--fail-on", "replace", example, maxTime}, 0, "partition train MaxTime", ""},
		{"changes at --fail-on", []string{"--fail-on", "reconfigure", example, maxTime}, 2, "partition train MaxTime", ""},
		{"spec with errors", []string{example, badValue}, 1, "", "badvalue.yaml: not compared: 1 error"},
		{"missing file", []string{example, filepath.Join(dir, "missing.yaml")}, 1, "", "cannot be compared"},
		{"one argument", []string{example}, 1, "", "accepts 2 arg(s), received 1"},
		{"bad flag value", []string{"--fail-on", "bogus", example, maxTime}, 1, "", "--fail-on"},
		{"unknown flag", []string{"--bogus", example, maxTime}, 1, "", "unknown flag: --bogus"},
	} {
		var out, errOut bytes.Buffer
		code := Run(append([]string{"diff", "--detailed-exitcode"}, c.args...), &out, &errOut)
		if code != c.code {
			t.Errorf("%s: exit %d, want %d; stderr %s", c.name, code, c.code, errOut.String())
		}
		if c.stdout == "" && out.Len() > 0 || !strings.Contains(out.String(), c.stdout) {
			t.Errorf("%s: stdout %q, want %q", c.name, out.String(), c.stdout)
		}
		if c.stderr == "" && errOut.Len() > 0 || !strings.Contains(errOut.String(), c.stderr) {
			t.Errorf("%s: stderr %q, want %q", c.name, errOut.String(), c.stderr)
		}
	}
	// Without the flag, the codes stay diff(1)'s (TestDiffExitCodes).
	if code := Run([]string{"diff", example, maxTime}, new(bytes.Buffer), new(bytes.Buffer)); code != exitFindings {
		t.Errorf("changes without --detailed-exitcode: exit %d, want %d", code, exitFindings)
	}
}
