package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPreCommitHook installs this checkout's .pre-commit-hooks.yaml with
// the real pre-commit, as a user's repository does: pre-commit clones the
// hook repository at rev and runs `go install ./...` in it (language:
// golang). The hook must install slurmspec and neither helper (they are
// nested modules), pass a clean spec and fail a broken one with the
// diagnostic; so must the README's language: system variant. The module cache is this machine's (pre-commit would
// otherwise download every module); the build cache is shared anyway.
func TestPreCommitHook(t *testing.T) {
	if testing.Short() {
		t.Skip("installs the hook with pre-commit (builds slurmspec)")
	}
	t.Parallel()
	if _, err := exec.LookPath("pre-commit"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("pre-commit is not installed (apt-get install pre-commit)")
		}
		t.Skip("pre-commit is not installed (apt-get install pre-commit)")
	}
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	git := []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1"}
	run := func(wd string, env []string, name string, args ...string) (string, error) {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = wd
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	must := func(wd string, env []string, name string, args ...string) string {
		t.Helper()
		out, err := run(wd, env, name, args...)
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return out
	}

	// The hook repository: this checkout's tracked files, committed.
	hooks := filepath.Join(dir, "hooks")
	files := strings.Fields(must(repo, nil, "git", "ls-files", "--cached"))
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(repo, f))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(hooks, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(hooks, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	must(hooks, git, "git", "init", "-q")
	must(hooks, git, "git", "add", "-A")
	must(hooks, git, "git", "commit", "-q", "-m", "hooks")
	rev := strings.TrimSpace(must(hooks, git, "git", "rev-parse", "HEAD"))

	// The user's repository: a clean spec and a pre-commit config.
	user := filepath.Join(dir, "user")
	spec, err := os.ReadFile(filepath.Join(repo, "examples", "a4-training.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(user, "clusters"), 0o755); err != nil {
		t.Fatal(err)
	}
	config := "repos:\n  - repo: " + hooks + "\n    rev: " + rev + "\n    hooks:\n      - id: slurmspec-lint\n        files: ^clusters/\n"
	for name, data := range map[string]string{"clusters/train.yaml": string(spec), ".pre-commit-config.yaml": config} {
		if err := os.WriteFile(filepath.Join(user, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	must(user, git, "git", "init", "-q")
	must(user, git, "git", "add", "-A")

	// GOFLAGS as on a machine without a go env file (this one's sets
	// -buildvcs=false, and an empty GOFLAGS would not override it), and
	// -trimpath and CGO_ENABLED=0 (cacheFriendly).
	gomodcache := strings.TrimSpace(must(repo, nil, "go", "env", "GOMODCACHE"))
	home := filepath.Join(dir, "pre-commit")
	env := append(append(git, cacheFriendly...), "PRE_COMMIT_HOME="+home, "GOMODCACHE="+gomodcache, "GOFLAGS=-buildvcs=auto "+cacheFriendlyFlags, "GOPROXY=off")
	if out, err := run(user, env, "pre-commit", "run", "--all-files"); err != nil {
		t.Fatalf("pre-commit on a clean spec: %v\n%s", err, out)
	}

	// What the hook installed: slurmspec, not the helpers.
	bins, err := filepath.Glob(filepath.Join(home, "*", "golangenv-*", "bin", "*"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, b := range bins {
		names = append(names, filepath.Base(b))
	}
	got := " " + strings.Join(names, " ") + " "
	if !strings.Contains(got, " slurmspec ") || strings.Contains(got, "slurmspec-deploy") || strings.Contains(got, "slurmspec-online") ||
		strings.Contains(got, "pulumi-resource-gcp") {
		t.Errorf("the hook installed %q; want slurmspec and no helper", names)
	}

	// pre-commit fetches the one commit, without tags: the version is a
	// pseudo-version naming it (README.md, pre-commit).
	var slurmspec string
	for _, b := range bins {
		if filepath.Base(b) != "slurmspec" {
			continue
		}
		slurmspec = b
		v, err := exec.Command(b, "version").Output()
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("the hook's %s", v)
		if !strings.HasSuffix(string(v), "-"+rev[:12]+" (commit "+rev[:12]+")\n") {
			t.Errorf("the hook's slurmspec version: %q, want a pseudo-version of commit %s", v, rev[:12])
		}
	}

	// The README's language: system variant, as written there, with the
	// slurmspec the hook installed on PATH and the rendered directory its
	// render-check hook compares.
	readme, err := os.ReadFile(filepath.Join(repo, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, _ := strings.Cut(string(readme), "The `language: system` variant")
	_, block, _ := strings.Cut(after, "```yaml\n")
	block, _, ok := strings.Cut(block, "```")
	if !ok || !strings.Contains(block, "language: system") {
		t.Fatalf("README.md has no language: system example after its heading:\n%s", block)
	}
	if err := os.WriteFile(filepath.Join(user, ".pre-commit-config.yaml"), []byte(block), 0o644); err != nil {
		t.Fatal(err)
	}
	must(user, nil, slurmspec, "render", "clusters/train.yaml", "-o", "rendered/train")
	must(user, git, "git", "add", "-A")
	sysEnv := append(env, "PATH="+filepath.Dir(slurmspec)+string(os.PathListSeparator)+os.Getenv("PATH"))
	if out, err := run(user, sysEnv, "pre-commit", "run", "--all-files"); err != nil || !strings.Contains(out, "slurmspec render --check") {
		t.Fatalf("pre-commit (language: system) on a clean spec: %v\n%s", err, out)
	}

	broken := strings.Replace(string(spec), "default_partition_id: train", "default_partition_id: nosuch", 1)
	if broken == string(spec) {
		t.Fatal("the example has no default_partition_id: train line to break")
	}
	if err := os.WriteFile(filepath.Join(user, "clusters", "train.yaml"), []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	want := `clusters/train.yaml:46:27: error: defaultPartitionId "nosuch" is not declared in partitions [schema-reference]`
	out, err := run(user, sysEnv, "pre-commit", "run", "--all-files")
	if err == nil || !strings.Contains(out, want) {
		t.Errorf("pre-commit (language: system) on a broken spec: %v\n%s", err, out)
	}
	// Both hooks fail; the finding is printed once, by lint (README.md,
	// pre-commit).
	if n := strings.Count(out, want); n != 1 || !strings.Contains(out, "slurmspec: not checked: clusters/train.yaml has 1 error") {
		t.Errorf("pre-commit (language: system) on a broken spec printed the finding %d times, or no 'not checked' line:\n%s", n, out)
	}
	if err := os.WriteFile(filepath.Join(user, ".pre-commit-config.yaml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err = run(user, env, "pre-commit", "run", "--all-files")
	if err == nil || !strings.Contains(out, want) {
		t.Errorf("pre-commit on a broken spec: %v\n%s", err, out)
	}
}
