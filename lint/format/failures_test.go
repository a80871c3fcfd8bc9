package format

import (
	"encoding/json"
	"testing"
)

// TestJSONFailures: the JSON report lists the checks that could not run,
// and an empty list (never null) when all ran.
func TestJSONFailures(t *testing.T) {
	for _, c := range []struct {
		run  Run
		want []string
	}{
		{Run{Files: []File{{Name: "a.yaml"}}}, []string{}},
		{Run{Files: []File{{Name: "a.yaml"}}, Failures: []string{"--online: unreachable"}}, []string{"--online: unreachable"}},
	} {
		var rep map[string]any
		if err := json.Unmarshal(format(t, "json", Options{}, c.run), &rep); err != nil {
			t.Fatal(err)
		}
		got, ok := rep["failures"].([]any)
		if !ok || len(got) != len(c.want) {
			t.Errorf("failures %#v, want %q", rep["failures"], c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("failures[%d] = %v, want %q", i, got[i], c.want[i])
			}
		}
	}
}

// TestGitHubFailures: a check that could not run is an error annotation
// without a file, its message escaped; the text format leaves failures to
// the command's error message.
func TestGitHubFailures(t *testing.T) {
	r := Run{Failures: []string{"--online: unreachable\n100%"}}
	if got, want := string(format(t, "github", Options{}, r)), "::error title=slurmspec::--online: unreachable%0A100%25\n"; got != want {
		t.Errorf("github: %q, want %q", got, want)
	}
	if got := format(t, "text", Options{FileSummary: true}, r); len(got) != 0 {
		t.Errorf("text printed %q", got)
	}
}
