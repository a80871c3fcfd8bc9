package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestVersionFromCheckout builds slurmspec with the real Go toolchain in a
// git checkout of this module, as a clone (or pre-commit's hook, which runs
// `go install ./...` in its clone) does, and checks what `slurmspec
// version` reports: the tag at a tagged commit ("+dirty" and "modified"
// with uncommitted changes), a pseudo-version after it.
func TestVersionFromCheckout(t *testing.T) {
	if testing.Short() {
		t.Skip("builds slurmspec three times")
	}
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	run := func(wd string, env []string, name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = wd
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	// The root module's tracked files (the nested modules are not needed).
	files := strings.Split(strings.TrimSpace(run(repo, nil, "git", "ls-files", "--cached", "--", ".")), "\n")
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(repo, f))
		if os.IsNotExist(err) {
			continue // deleted in the working tree
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(src, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(src, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git := []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1"}
	run(src, git, "git", "init", "-q")
	run(src, git, "git", "add", "-A")
	run(src, git, "git", "commit", "-q", "-m", "release")
	run(src, git, "git", "tag", "v0.9.9")
	rev := strings.TrimSpace(run(src, git, "git", "rev-parse", "HEAD"))

	// GOFLAGS may hold -buildvcs=false (this machine's go env does);
	// -trimpath and CGO_ENABLED=0: cacheFriendly.
	build := append([]string{"GOFLAGS=-buildvcs=true " + cacheFriendlyFlags, "GOWORK=off"}, cacheFriendly...)
	version := func() string {
		t.Helper()
		bin := filepath.Join(dir, "slurmspec")
		run(src, build, "go", "build", "-o", bin, "./cmd/slurmspec")
		return strings.TrimSpace(run(src, nil, bin, "version"))
	}

	if got, want := version(), "slurmspec v0.9.9 (commit "+rev[:12]+")"; got != want {
		t.Errorf("at the tag: %q, want %q", got, want)
	}

	if err := os.WriteFile(filepath.Join(src, "README.md"), []byte("changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, want := version(), "slurmspec v0.9.9+dirty (commit "+rev[:12]+", modified)"; got != want {
		t.Errorf("at the tag with uncommitted changes: %q, want %q", got, want)
	}

	run(src, git, "git", "commit", "-q", "-am", "after the release")
	rev = strings.TrimSpace(run(src, git, "git", "rev-parse", "HEAD"))
	pseudo := regexp.MustCompile(`^slurmspec v0\.9\.10-0\.\d{14}-` + rev[:12] + ` \(commit ` + rev[:12] + `\)$`)
	if got := version(); !pseudo.MatchString(got) {
		t.Errorf("after the tag: %q, want %s", got, pseudo)
	}
}
