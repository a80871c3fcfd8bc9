package main

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// plantedSecret is the name of an environment variable every step of a
// test workflow run sees: its value must appear in no output.
const plantedSecret = "SLURMSPEC_TEST_PLANTED_SECRET"

// gitIn runs git in dir with a fixed identity and returns its output.
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.email=t@example.com", "-c", "user.name=t", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// writeStub writes an executable shell script.
func writeStub(t *testing.T, path, script string) {
	t.Helper()
	if err := os.WriteFile(path, []byte("#!/bin/bash\n"+script), 0o755); err != nil {
		t.Fatal(err)
	}
}

// fakeTools puts test doubles of go and gh in bin. go env GOPATH prints
// gopath; go install copies the slurmspec under test into gopath/bin and
// records its argument in record/go-install. gh records each call's
// arguments (one per line) in record/gh-N.args and, for -F body=@FILE,
// FILE in record/gh-N.body; the comment listing (gh api --paginate)
// prints the ids in $FAKE_GH_COMMENT_IDS.
func fakeTools(t *testing.T, bin, gopath, record, slurmspec string) {
	t.Helper()
	for _, d := range []string{bin, filepath.Join(gopath, "bin"), record} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeStub(t, filepath.Join(bin, "go"), `set -e
case "$1 $2" in
"env GOPATH") echo '`+gopath+`' ;;
"install "*) printf '%s\n' "$2" > '`+record+`/go-install'; cp '`+slurmspec+`' '`+gopath+`/bin/slurmspec' ;;
*) echo "fake go: unexpected arguments: $*" >&2; exit 2 ;;
esac
`)
	writeStub(t, filepath.Join(bin, "gh"), `set -e
n=$(ls '`+record+`' | grep -c '^gh-.*\.args$' || true)
printf '%s\n' "$@" > '`+record+`/gh-'"$n"'.args'
for a in "$@"; do
  case $a in body=@*) cp "${a#body=@}" '`+record+`/gh-'"$n"'.body' ;; esac
done
case " $* " in *" --paginate "*) if [ -n "$FAKE_GH_COMMENT_IDS" ]; then printf '%s\n' $FAKE_GH_COMMENT_IDS; fi ;; esac
`)
}

// secretValue returns a random value for plantedSecret.
func secretValue(t *testing.T) string {
	t.Helper()
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return "planted-" + hex.EncodeToString(b)
}

// prCheckout makes a git repository in dir: a base commit holding
// cluster.yaml (the A4 example) and its rendered files, origin/main
// pointing at it, and a pull request commit on top that changes a
// partition's MaxTime (a reconfigure) and renders again. It returns the
// path of slurmspec.
func prCheckout(t *testing.T, dir, slurmspec string) {
	t.Helper()
	spec, err := os.ReadFile(filepath.Join("..", "..", "examples", "a4-training.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	gitIn(t, dir, "init", "-q")
	commit := func(spec []byte, msg string) {
		if err := os.WriteFile(filepath.Join(dir, "cluster.yaml"), spec, 0o644); err != nil {
			t.Fatal(err)
		}
		render := exec.Command(slurmspec, "render", "cluster.yaml", "-o", "rendered")
		render.Dir = dir
		if out, err := render.CombinedOutput(); err != nil {
			t.Fatalf("render: %v\n%s", err, out)
		}
		gitIn(t, dir, "add", "-A")
		gitIn(t, dir, "commit", "-q", "-m", msg)
	}
	commit(spec, "base")
	gitIn(t, dir, "update-ref", "refs/remotes/origin/main", "HEAD")
	changed := strings.Replace(string(spec), `MaxTime: "2-00:00:00"`, `MaxTime: "3-00:00:00"`, 1)
	if changed == string(spec) {
		t.Fatal("examples/a4-training.yaml has no MaxTime \"2-00:00:00\" to change")
	}
	gitIn(t, dir, "checkout", "-q", "-b", "pr")
	commit([]byte(changed), "pr")
}

// reportNames are the names of the files the example workflow wrote in
// the checkout before it wrote them in $RUNNER_TEMP, and the names it
// writes there now: a pull request may commit any of them.
var reportNames = []string{"slurmspec.sarif", "slurmspec-diff.md", "slurmspec-comment.md"}

// TestExampleWorkflowFollowsNoLink runs the run: steps of
// examples/ci/github-actions.yml against a pull request that commits the
// names of the workflow's reports as symlinks, to a file outside the
// checkout and to /proc/self/environ: nothing outside the checkout and
// $RUNNER_TEMP changes, and the value of an environment variable the
// steps see appears in no output, job summary or comment. The steps that
// use an action (actions/checkout, actions/setup-go, the SARIF upload) are
// not run: the checkout is made here, go is a test double that installs
// the slurmspec under test, and the upload's input is checked to lie in
// $RUNNER_TEMP. gh is a test double that records what would be posted.
func TestExampleWorkflowFollowsNoLink(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("git is needed: %v", err)
	}
	bin := cliBinary(t)
	// The first run posts a comment; with the bot's comment there (ids as
	// the listing prints them), the second updates it.
	for _, tc := range []struct{ target, ids, call string }{
		{"outside", "", "--method\nPOST\nrepos/acme/clusters/issues/7/comments\n"},
		{"/proc/self/environ", "4242\n17", "--method\nPATCH\nrepos/acme/clusters/issues/comments/4242\n"},
	} {
		target := tc.target
		t.Run("links to "+strings.TrimPrefix(target, "/"), func(t *testing.T) {
			root := t.TempDir()
			checkout, temp, outside := filepath.Join(root, "work"), filepath.Join(root, "runner-temp"), filepath.Join(root, "outside")
			for _, d := range []string{temp, outside} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			victim := filepath.Join(outside, "victim.txt")
			if err := os.WriteFile(victim, []byte("not the workflow's\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if target == "outside" {
				target = victim
			}
			prCheckout(t, checkout, bin)
			for _, name := range reportNames {
				if err := os.Symlink(target, filepath.Join(checkout, name)); err != nil {
					t.Fatal(err)
				}
			}
			gitIn(t, checkout, "add", "-A")
			gitIn(t, checkout, "commit", "-q", "-m", "links")
			before := snapshot(t, outside)
			gopath, record := filepath.Join(root, "gopath"), filepath.Join(root, "record")
			fakeTools(t, filepath.Join(root, "bin"), gopath, record, bin)

			secret := secretValue(t)
			w := &workflowRun{t: t, steps: map[string]*stepRun{}, runner: map[string]string{},
				github: map[string]string{
					"base_ref":                               "main",
					"repository":                             "acme/clusters",
					"token":                                  "ghs_test_token",
					"event.pull_request.number":              "7",
					"event.pull_request.head.repo.full_name": "acme/clusters",
				}}
			steps := w.runWorkflow(exampleWorkflow, checkout, temp, []string{
				"PATH=" + filepath.Join(root, "bin") + ":/usr/bin:/bin",
				"HOME=" + root,
				"NO_COLOR=1",
				plantedSecret + "=" + secret,
				"FAKE_GH_COMMENT_IDS=" + tc.ids,
			})
			t.Logf("steps that use an action, not run: %s", strings.Join(w.skipped, "; "))

			// Nothing outside changed; the links are as committed.
			if after := snapshot(t, outside); after != before {
				t.Errorf("files outside the checkout changed:\nbefore:\n%s\nafter:\n%s", before, after)
			}
			if data, err := os.ReadFile(victim); err != nil || string(data) != "not the workflow's\n" {
				t.Errorf("%s was overwritten: %q, %v", victim, data, err)
			}
			for _, name := range reportNames {
				if got, err := os.Readlink(filepath.Join(checkout, name)); err != nil || got != target {
					t.Errorf("%s is no longer the committed link to %s: %q, %v", name, target, got, err)
				}
			}

			// No secret anywhere the workflow publishes.
			var published []string
			for _, s := range steps {
				published = append(published, s.output, s.summary)
				for _, v := range s.outputs {
					published = append(published, v)
				}
			}
			posted, _ := filepath.Glob(filepath.Join(record, "*"))
			for _, f := range posted {
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				published = append(published, string(data))
			}
			for _, p := range published {
				if strings.Contains(p, secret) {
					t.Errorf("the planted secret was published:\n%s", p)
				}
			}

			// The steps did their work, in $RUNNER_TEMP.
			ran := map[string]*stepRun{}
			for _, s := range steps {
				ran[s.name] = s
				t.Logf("%s: %s\n%s", s.name, s.outcome, s.output)
			}
			install, err := os.ReadFile(filepath.Join(record, "go-install"))
			if err != nil {
				t.Fatalf("the install step did not run go install: %v", err)
			}
			if got := strings.TrimSpace(string(install)); strings.HasSuffix(got, "@latest") || !strings.HasPrefix(got, "github.com/slurmspec/slurmspec/cmd/slurmspec@") {
				t.Errorf("go install %s: want the module at the version the workflow pins, not @latest", got)
			}
			for _, name := range []string{"Lint", "Lint to SARIF", "Check rendered files are up to date", "Diff against the base branch", "Comment on the pull request"} {
				if s := ran[name]; s == nil || s.outcome != "success" {
					t.Errorf("step %q: want success, got %+v", name, s)
				}
			}
			if s := w.steps["sarif"]; s == nil || s.outputs["file"] != filepath.Join(temp, "slurmspec.sarif") {
				t.Errorf("the SARIF upload's input: want %s, got %+v", filepath.Join(temp, "slurmspec.sarif"), s)
			}
			diffStep := w.steps["diff"]
			if diffStep == nil || diffStep.outputs["code"] != "0" || !strings.Contains(diffStep.summary, "MaxTime") {
				t.Errorf("diff step: want code 0 and the MaxTime change in the job summary, got %+v", diffStep)
			}
			body, err := os.ReadFile(filepath.Join(record, "gh-1.body"))
			if err != nil {
				t.Fatalf("no comment posted (gh calls: %v): %v", posted, err)
			}
			if !strings.HasPrefix(string(body), "<!-- slurmspec-diff -->\n") || !strings.Contains(string(body), "MaxTime") {
				t.Errorf("the comment: want the marker and the diff, got\n%s", body)
			}
			args, _ := os.ReadFile(filepath.Join(record, "gh-1.args"))
			if !strings.Contains(string(args), tc.call) {
				t.Errorf("the comment: want gh %q, got gh %q", tc.call, args)
			}
		})
	}
}
