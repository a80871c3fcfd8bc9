package gitrev

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// repo makes a repository with c.yaml at its root and another in sub/.
func repo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	for path, content := range map[string]string{"c.yaml": "root\n", "sub/c.yaml": "sub\n"} {
		p := filepath.Join(dir, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "-m", "init"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

// TestReadFollowsGitPathRules: from a subdirectory, HEAD:./c.yaml is the
// file next to you and HEAD:c.yaml the one at the root, as git says (the
// old reader stripped "./" and compared the root's file).
func TestReadFollowsGitPathRules(t *testing.T) {
	dir := repo(t)
	sub := filepath.Join(dir, "sub")
	ctx := context.Background()
	for _, tc := range []struct {
		path, want, wantDir string
	}{
		{"./c.yaml", "sub\n", sub},
		{"c.yaml", "root\n", dir},
		{"sub/c.yaml", "sub\n", sub},
		{"../c.yaml", "root\n", dir},
	} {
		ref := Ref{Rev: "HEAD", Path: tc.path}
		got, err := Read(ctx, sub, ref)
		if err != nil || string(got) != tc.want {
			t.Errorf("Read %s from sub/: %q, %v; want %q", ref, got, err, tc.want)
		}
		d, err := Dir(ctx, sub, ref)
		if err != nil {
			t.Fatal(err)
		}
		if real, _ := filepath.EvalSymlinks(d); real != mustReal(t, tc.wantDir) {
			t.Errorf("Dir %s from sub/: %s, want %s", ref, d, tc.wantDir)
		}
	}
	if _, err := Read(ctx, dir, Ref{Rev: "HEAD", Path: "nope.yaml"}); err == nil || !strings.Contains(err.Error(), "reading HEAD:nope.yaml from git") {
		t.Errorf("missing path: %v", err)
	}
	if _, err := Read(ctx, dir, Ref{Rev: "HEAD", Path: "sub"}); err == nil {
		t.Error("a tree read as a spec")
	}
}

func mustReal(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestOptionRevisionRefused: a revision beginning with "-" never reaches
// git (`--output=FILE` would make git write FILE).
func TestOptionRevisionRefused(t *testing.T) {
	dir := repo(t)
	target := filepath.Join(t.TempDir(), "written")
	for _, rev := range []string{"--output=" + target, "-o" + target, "-", "--end-of-options"} {
		ref, ok := Parse(rev + ":c.yaml")
		if !ok {
			t.Fatalf("Parse(%q) failed", rev+":c.yaml")
		}
		if _, err := Read(context.Background(), dir, ref); err == nil || !strings.Contains(err.Error(), "begins with '-'") {
			t.Errorf("revision %q: %v", rev, err)
		}
	}
	if _, err := os.Stat(target); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("git wrote %s", target)
	}
	if _, err := Read(context.Background(), dir, Ref{Rev: "HEAD\n", Path: "c.yaml"}); err == nil {
		t.Error("a newline in a revision was accepted")
	}
}

// TestEndOfOptions: even past Check, git is told where its options end:
// with the arguments Read passes, "-h" is an object name git does not
// know, not a request for its usage.
func TestEndOfOptions(t *testing.T) {
	dir := repo(t)
	_, err := git(context.Background(), dir, 1<<20, "cat-file", "blob", "--end-of-options", "-h")
	if err == nil || !strings.Contains(err.Error(), "Not a valid object name -h") {
		t.Errorf("git read -h as an option: %v", err)
	}
}

// TestReadBounded: what git prints is bounded; more is an error.
func TestReadBounded(t *testing.T) {
	dir := repo(t)
	if _, err := git(context.Background(), dir, 3, "cat-file", "blob", "HEAD:c.yaml"); !errors.Is(err, errTooLarge) {
		t.Errorf("5 bytes with a limit of 3: %v", err)
	}
	if out, err := git(context.Background(), dir, 5, "cat-file", "blob", "HEAD:c.yaml"); err != nil || string(out) != "root\n" {
		t.Errorf("5 bytes with a limit of 5: %q, %v", out, err)
	}
}

func TestParse(t *testing.T) {
	for arg, want := range map[string]bool{"HEAD:c.yaml": true, "origin/main:a/b.yaml": true, ":c.yaml": false, "HEAD:": false, "c.yaml": false} {
		if _, ok := Parse(arg); ok != want {
			t.Errorf("Parse(%q) ok = %v", arg, ok)
		}
	}
}
