package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// workflowStep returns the run script of the example workflow's step with
// the given name.
func workflowStep(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(exampleWorkflow)
	if err != nil {
		t.Fatal(err)
	}
	var wf struct {
		Jobs map[string]struct {
			Steps []struct{ Name, Run string }
		}
	}
	if err := yaml.Unmarshal(data, &wf); err != nil {
		t.Fatal(err)
	}
	for _, job := range wf.Jobs {
		for _, s := range job.Steps {
			if s.Name == name && s.Run != "" {
				return s.Run
			}
		}
	}
	t.Fatalf("%s has no step %q with a script", exampleWorkflow, name)
	return ""
}

// TestExampleWorkflowDiffExitStatus runs the example workflow's diff step
// and its failing step with bash as GitHub runs them (bash -e -o
// pipefail), against a git repository with an origin/main, and slurmspec
// (this test binary, TestMain) on PATH: a change at FAIL_ON fails the job
// with the impact message and a comment to post; a change below it and no
// change pass; a base-branch spec that no longer compiles fails with "diff
// failed", not with the impact message, and leaves no comment to post
// (issue 25: diff never exits as for changes with an empty report).
func TestExampleWorkflowDiffExitStatus(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	if err := os.Symlink(self, filepath.Join(bin, "slurmspec")); err != nil {
		t.Fatal(err)
	}
	diffStep := workflowStep(t, "Diff against the base branch")
	failStep := workflowStep(t, "Fail on changes at or above FAIL_ON")
	example, err := os.ReadFile("../../examples/a4-training.yaml")
	if err != nil {
		t.Fatal(err)
	}
	maxTime := strings.Replace(string(example), `MaxTime: "7-00:00:00"`, `MaxTime: "6-00:00:00"`, 1)
	for _, c := range []struct {
		name, base, head, failOn string
		code                     string // the step's output code
		comment                  bool   // a comment to post
		failMsg                  string // "" when the job passes
	}{
		{"no change", string(example), string(example), "replace", "0", true, ""},
		{"change below FAIL_ON", string(example), maxTime, "replace", "0", true, ""},
		{"change at FAIL_ON", string(example), maxTime, "reconfigure", "2", true, "this change has an impact of reconfigure or more"},
		{"base branch does not compile", "nodePools: []\n", string(example), "replace", "1", false, "slurmspec diff failed (exit status 1)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			env := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
				"SPEC=cluster.yaml", "FAIL_ON="+c.failOn, "BASE_REF=main", "RUNNER_TEMP="+dir,
				"GITHUB_OUTPUT="+filepath.Join(dir, "output"), "GITHUB_STEP_SUMMARY="+filepath.Join(dir, "summary"),
				"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
				"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
			sh := func(script string, extra ...string) (string, error) {
				cmd := exec.Command("bash", "--noprofile", "--norc", "-e", "-o", "pipefail", "-c", script)
				cmd.Dir, cmd.Env = dir, append(env, extra...)
				out, err := cmd.CombinedOutput()
				return string(out), err
			}
			write := func(s string) {
				if err := os.WriteFile(filepath.Join(dir, "cluster.yaml"), []byte(s), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write(c.base)
			if out, err := sh("git init -q -b main && git add cluster.yaml && git commit -q -m base && git update-ref refs/remotes/origin/main HEAD"); err != nil {
				t.Fatalf("git: %v\n%s", err, out)
			}
			write(c.head)
			if out, err := sh(diffStep); err != nil {
				t.Fatalf("the diff step failed: %v\n%s", err, out)
			}
			output, _ := os.ReadFile(filepath.Join(dir, "output"))
			if got := strings.TrimSpace(string(output)); !strings.HasPrefix(got+"\n", "code="+c.code+"\n") {
				t.Fatalf("step output %q, want code=%s", got, c.code)
			}
			comment, _ := os.ReadFile(filepath.Join(dir, "slurmspec-diff.md"))
			if got := strings.TrimSpace(string(comment)) != ""; got != c.comment {
				t.Errorf("comment to post: %v, want %v:\n%s", got, c.comment, comment)
			}
			if c.code == "0" {
				return // the failing step is skipped
			}
			out, err := sh(failStep, "CODE="+c.code)
			if err == nil || !strings.Contains(out, c.failMsg) {
				t.Errorf("the failing step: %v, %q; want a failure saying %q", err, out, c.failMsg)
			}
		})
	}
}
