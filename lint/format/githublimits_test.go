package format_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/lint/format"
)

func findings(sev diag.Severity, n int) diag.List {
	l := make(diag.List, n)
	for i := range l {
		l[i] = diag.Diagnostic{Rule: "r", Severity: sev}
	}
	return l
}

// TestGitHubTally: the note appears only when a kind of annotation
// overflows GitHub's per-step limit, as a notice while one is left.
func TestGitHubTally(t *testing.T) {
	var tally format.GitHubTally
	tally.Add(findings(diag.Error, 6))
	tally.Add(findings(diag.Error, 4))
	tally.Add(findings(diag.Warning, 10))
	if n := tally.Note(); n != "" {
		t.Errorf("10 errors and 10 warnings all fit, got %q", n)
	}
	tally.Add(findings(diag.Error, 1))
	n := tally.Note()
	if !strings.HasPrefix(n, "::notice title=slurmspec%3A annotation limit::slurmspec found 11 errors, 10 warnings and 0 notes;") || strings.Count(n, "\n") != 1 {
		t.Errorf("got %q", n)
	}
	tally.Add(findings(diag.Info, 10))
	if n := tally.Note(); strings.HasPrefix(n, "::") || !strings.HasPrefix(n, "slurmspec found 11 errors, 10 warnings and 10 notes;") {
		t.Errorf("no notice annotation is left: want a plain log line, got %q", n)
	}
}

// TestGitHubNoteDocumented: docs/output-formats.md shows the note exactly
// as a run with 12 warnings and 2 notes prints it.
func TestGitHubNoteDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "output-formats.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "### GitHub's annotation limits")
	_, rest, ok2 := strings.Cut(rest, "```\n")
	block, _, ok3 := strings.Cut(rest, "```\n")
	if !ok || !ok2 || !ok3 {
		t.Fatal("docs/output-formats.md: no example block under \"### GitHub's annotation limits\"")
	}
	var tally format.GitHubTally
	tally.Add(findings(diag.Warning, 12))
	tally.Add(findings(diag.Info, 2))
	if got := tally.Note(); got != block {
		t.Errorf("docs show\n%s\nthe github format prints\n%s", block, got)
	}
}
