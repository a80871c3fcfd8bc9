package format

import (
	"fmt"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// GitHub's limits on annotations made by workflow commands (documented in
// actions/toolkit's docs/problem-matchers.md): per step at most
// GitHubAnnotationsPerKind error, as many warning and as many notice
// annotations, and at most GitHubAnnotationsPerJob over all the steps of a
// job. Commands beyond them stay in the step's log but make no
// annotation; the first ones printed win.
const (
	GitHubAnnotationsPerKind = 10
	GitHubAnnotationsPerJob  = 50
)

// GitHubTally counts the findings a github-format run printed, for the
// note at its end (the format prints file by file and cannot count the
// run itself).
type GitHubTally struct{ errors, warnings, notes int }

// Add counts a file's findings.
func (t *GitHubTally) Add(l diag.List) {
	e, w, n := counts(l)
	t.errors += e
	t.warnings += w
	t.notes += n
}

// Note is what to print after the run when GitHub cannot show every
// finding as an annotation, "" otherwise: a notice command while a notice
// annotation is left (the run printed fewer than the limit), else a plain
// log line. Every finding is in the log either way.
func (t GitHubTally) Note() string {
	n := GitHubAnnotationsPerKind
	if t.errors <= n && t.warnings <= n && t.notes <= n {
		return ""
	}
	msg := fmt.Sprintf("slurmspec found %s, %s and %s; GitHub shows at most %d annotations of each kind per step, "+
		"so only the first are annotated: every finding is in this step's log, "+
		"and `slurmspec lint --format sarif` uploaded to code scanning shows them all (docs/output-formats.md)",
		diag.Plural(t.errors, "error"), diag.Plural(t.warnings, "warning"), diag.Plural(t.notes, "note"), n)
	if t.notes < n {
		return "::notice title=" + escapeProperty("slurmspec: annotation limit") + "::" + escapeData(msg) + "\n"
	}
	return msg + "\n"
}
