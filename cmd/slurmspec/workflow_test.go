package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rhysd/actionlint"
)

// exampleWorkflow is the GitHub Actions workflow the README points users
// at.
var exampleWorkflow = filepath.Join("..", "..", "examples", "ci", "github-actions.yml")

// lintWorkflow runs actionlint, with shellcheck on every run: script when
// shellcheck is given, on the workflow file path and returns its findings.
func lintWorkflow(t *testing.T, path, shellcheck string) []*actionlint.Error {
	t.Helper()
	var out bytes.Buffer
	l, err := actionlint.NewLinter(&out, &actionlint.LinterOptions{Shellcheck: shellcheck})
	if err != nil {
		t.Fatal(err)
	}
	errs, err := l.LintFile(path, nil)
	if err != nil {
		t.Fatalf("actionlint %s: %v", path, err)
	}
	return errs
}

// TestExampleWorkflowActionlint: examples/ci/github-actions.yml passes
// actionlint (pinned in go.mod) with shellcheck checking its scripts.
// Without shellcheck (Debian package shellcheck, which .ci/run installs)
// the test fails under CI=true and is skipped otherwise.
func TestExampleWorkflowActionlint(t *testing.T) {
	shellcheck, err := exec.LookPath("shellcheck")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("shellcheck is not installed (apt-get install shellcheck): the example workflow's scripts cannot be checked")
		}
		t.Skip("shellcheck is not installed (apt-get install shellcheck); the example workflow is not checked")
	}
	for _, e := range lintWorkflow(t, exampleWorkflow, shellcheck) {
		t.Errorf("%s:%d:%d: %s [%s]", exampleWorkflow, e.Line, e.Column, e.Message, e.Kind)
	}

	// The check can fail: an unquoted variable in a script is shellcheck's
	// SC2086, reported through actionlint.
	bad := filepath.Join(t.TempDir(), "bad.yml")
	workflow := "on: push\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - run: slurmspec lint $SPEC\n"
	if err := os.WriteFile(bad, []byte(workflow), 0o644); err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, e := range lintWorkflow(t, bad, shellcheck) {
		kinds = append(kinds, e.Kind+": "+e.Message)
	}
	if !strings.Contains(strings.Join(kinds, "\n"), "SC2086") {
		t.Errorf("shellcheck's SC2086 not reported for an unquoted $SPEC; got %q", kinds)
	}
}
