package sandbox

import (
	"strings"
	"testing"
)

// TestReportEscapes: the status report escapes the names and messages it
// prints (the spec's file name, the state and work directories, the
// failure, notes), so that none forges a line or a GitHub Actions
// workflow command.
func TestReportEscapes(t *testing.T) {
	p := "x\n::error file=x::forged"
	s := &State{Dir: p, Status: StatusFailed, Error: p, Spec: "::stop-commands::tok", WorkDir: p, Notes: []string{p}}
	var b strings.Builder
	s.Report(&b)
	for _, line := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "::") {
			t.Errorf("line starts a workflow command: %q", line)
		}
	}
	if !strings.Contains(b.String(), `x\n::error file=x::forged`) {
		t.Errorf("no escaped name in\n%s", b.String())
	}
}
