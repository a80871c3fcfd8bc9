package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"

	"go.yaml.in/yaml/v3"
)

// workflow is the part of a GitHub Actions workflow file that
// runWorkflow reads.
type workflow struct {
	Env  map[string]string `yaml:"env"`
	Jobs map[string]struct {
		Steps []jobStep `yaml:"steps"`
	} `yaml:"jobs"`
}

// jobStep is one step of a job.
type jobStep struct {
	Name string            `yaml:"name"`
	ID   string            `yaml:"id"`
	If   string            `yaml:"if"`
	Uses string            `yaml:"uses"`
	Run  string            `yaml:"run"`
	Env  map[string]string `yaml:"env"`
}

// stepRun is what one run: step did.
type stepRun struct {
	name     string
	ran      bool // false when its if: was false
	outcome  string
	output   string // stdout and stderr
	outputs  map[string]string
	summary  string
	maxRSSKB int64
}

// workflowRun holds the state of one job run by runWorkflow: the GitHub
// context the test gives, the steps' outcomes and outputs.
type workflowRun struct {
	t       *testing.T
	github  map[string]string // github.* expressions
	runner  map[string]string // runner.* expressions
	steps   map[string]*stepRun
	order   []*stepRun
	skipped []string // uses: steps, which the runner cannot run
	limitKB int      // when not 0, each step's address space (ulimit -v)
}

// exprRe matches a ${{ ... }} expression.
var exprRe = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

// value evaluates an operand: a quoted literal or a context path.
func (w *workflowRun) value(x string) string {
	x = strings.TrimSpace(x)
	if len(x) >= 2 && x[0] == '\'' && x[len(x)-1] == '\'' {
		return strings.ReplaceAll(x[1:len(x)-1], "''", "'")
	}
	parts := strings.Split(x, ".")
	switch {
	case parts[0] == "github" && len(parts) > 1:
		if v, ok := w.github[strings.Join(parts[1:], ".")]; ok {
			return v
		}
	case parts[0] == "runner" && len(parts) == 2:
		if v, ok := w.runner[parts[1]]; ok {
			return v
		}
	case parts[0] == "steps" && len(parts) >= 3:
		s := w.steps[parts[1]]
		if s == nil {
			return ""
		}
		switch {
		case parts[2] == "outcome" && len(parts) == 3:
			return s.outcome
		case parts[2] == "outputs" && len(parts) == 4:
			return s.outputs[parts[3]]
		}
	}
	w.t.Fatalf("the workflow uses the expression %q, which this test's evaluator does not know: add it to workflowRun.value", x)
	return ""
}

// eval evaluates an expression of the forms the workflow uses: terms
// joined by &&, each !cancelled(), A == B, A != B or an operand. Anything
// else stops the test, so that the workflow cannot outgrow the test
// silently.
func (w *workflowRun) eval(expr string) string {
	if strings.Contains(expr, "||") || strings.Contains(expr, "(") && !strings.Contains(expr, "cancelled()") {
		w.t.Fatalf("the workflow uses the expression %q, which this test's evaluator does not know", expr)
	}
	terms := strings.Split(expr, "&&")
	if len(terms) == 1 && !strings.ContainsAny(expr, "=!") {
		return w.value(expr)
	}
	for _, term := range terms {
		term = strings.TrimSpace(term)
		var ok bool
		switch {
		case term == "!cancelled()":
			ok = true
		case strings.Contains(term, "!="):
			a, b, _ := strings.Cut(term, "!=")
			ok = w.value(a) != w.value(b)
		case strings.Contains(term, "=="):
			a, b, _ := strings.Cut(term, "==")
			ok = w.value(a) == w.value(b)
		default:
			w.t.Fatalf("the workflow uses the condition %q, which this test's evaluator does not know", term)
		}
		if !ok {
			return "false"
		}
	}
	return "true"
}

// subst replaces every ${{ ... }} in s by its value, as GitHub does
// before a script runs.
func (w *workflowRun) subst(s string) string {
	return exprRe.ReplaceAllStringFunc(s, func(m string) string {
		return w.eval(exprRe.FindStringSubmatch(m)[1])
	})
}

// readKV reads a GITHUB_OUTPUT or GITHUB_ENV file of name=value lines.
func readKV(t *testing.T, path string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	kv := map[string]string{}
	for line := range strings.Lines(string(data)) {
		k, v, ok := strings.Cut(strings.TrimSuffix(line, "\n"), "=")
		if !ok || strings.Contains(k, "<<") {
			t.Fatalf("%s: line %q is not name=value (the heredoc form is not supported by this test)", path, line)
		}
		kv[k] = v
	}
	return kv
}

// runWorkflow runs the run: steps of the workflow file's only job in dir
// (the checkout) with bash -e, as GitHub's runner does when no shell is
// named: ${{ }} expressions substituted from w's contexts, the workflow's
// and step's env set, a fresh GITHUB_OUTPUT and GITHUB_STEP_SUMMARY per
// step, and GITHUB_PATH and GITHUB_ENV carried to the steps after. baseEnv
// is the runner's environment (PATH, HOME, ...). Steps that use an action
// (uses:) are not run; their names are in w.skipped. It returns the steps
// in order.
func (w *workflowRun) runWorkflow(file, dir, temp string, baseEnv []string) []*stepRun {
	t := w.t
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var wf workflow
	if err := yaml.Unmarshal(data, &wf); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if len(wf.Jobs) != 1 {
		t.Fatalf("%s: %d jobs, this test runs a workflow of one job", file, len(wf.Jobs))
	}
	w.runner["temp"] = temp
	env := map[string]string{}
	for k, v := range wf.Env {
		env[k] = w.subst(v)
	}
	var paths []string // GITHUB_PATH, newest first
	for _, job := range wf.Jobs {
		for i, st := range job.Steps {
			name := firstOf(st.Name, st.Uses, fmt.Sprintf("step %d", i+1))
			if st.Uses != "" {
				w.skipped = append(w.skipped, name)
				continue
			}
			run := &stepRun{name: name, outputs: map[string]string{}}
			w.order = append(w.order, run)
			if st.ID != "" {
				w.steps[st.ID] = run
			}
			cond := strings.TrimSpace(st.If)
			if m := exprRe.FindStringSubmatch(cond); m != nil && m[0] == cond {
				cond = m[1]
			}
			if cond == "" {
				cond = "success()"
			}
			if cond == "success()" {
				cond = "true"
				for _, r := range w.order[:len(w.order)-1] {
					if r.outcome == "failure" {
						cond = "false"
					}
				}
			} else {
				cond = w.eval(cond)
			}
			if cond != "true" {
				run.outcome = "skipped"
				continue
			}
			run.ran = true
			files := map[string]string{}
			for _, f := range []string{"GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY", "GITHUB_PATH", "GITHUB_ENV"} {
				files[f] = filepath.Join(temp, "_runner_file_commands", fmt.Sprintf("%s_%d", strings.ToLower(f), i))
				if err := os.MkdirAll(filepath.Dir(files[f]), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(files[f], nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			stepEnv := map[string]string{}
			for _, kv := range baseEnv {
				k, v, _ := strings.Cut(kv, "=")
				stepEnv[k] = v
			}
			if len(paths) > 0 {
				stepEnv["PATH"] = strings.Join(paths, ":") + ":" + stepEnv["PATH"]
			}
			for k, v := range env {
				stepEnv[k] = v
			}
			for k, v := range st.Env {
				stepEnv[k] = w.subst(v)
			}
			for k, v := range files {
				stepEnv[k] = v
			}
			stepEnv["RUNNER_TEMP"] = temp
			stepEnv["GITHUB_WORKSPACE"] = dir
			stepEnv["CI"] = "true"
			stepEnv["GITHUB_ACTIONS"] = "true"
			script := filepath.Join(temp, "_runner_file_commands", fmt.Sprintf("step_%d.sh", i))
			if err := os.WriteFile(script, []byte(w.subst(st.Run)), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("bash", "-e", script)
			if w.limitKB > 0 {
				cmd = exec.Command("bash", "-c", fmt.Sprintf(`ulimit -v %d && exec bash -e "$0"`, w.limitKB), script)
			}
			cmd.Dir = dir
			for k, v := range stepEnv {
				cmd.Env = append(cmd.Env, k+"="+v)
			}
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			err := cmd.Run()
			run.output = out.String()
			run.outcome = "success"
			if err != nil {
				if _, ok := err.(*exec.ExitError); !ok {
					t.Fatalf("%s: %v", name, err)
				}
				run.outcome = "failure"
			}
			if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
				run.maxRSSKB = ru.Maxrss
			}
			run.outputs = readKV(t, files["GITHUB_OUTPUT"])
			for k, v := range readKV(t, files["GITHUB_ENV"]) {
				env[k] = v
			}
			summary, err := os.ReadFile(files["GITHUB_STEP_SUMMARY"])
			if err != nil {
				t.Fatal(err)
			}
			run.summary = string(summary)
			added, err := os.ReadFile(files["GITHUB_PATH"])
			if err != nil {
				t.Fatal(err)
			}
			for p := range strings.Lines(string(added)) {
				paths = slices.Insert(paths, 0, strings.TrimSpace(p))
			}
		}
	}
	return w.order
}

// firstOf returns the first of its arguments that is not empty.
func firstOf(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}
