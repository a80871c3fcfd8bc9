package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

// cliBinary returns the slurmspec binary, for tests that need a real
// process: sharedCLI, built on first use.
func cliBinary(t *testing.T) string {
	t.Helper()
	bin, err := sharedCLI.get()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// cliBuild is a slurmspec binary built once per test process (a build
// links for seconds: the tests that need one used to build their own) in
// a directory of its own, removed when the tests end (TestMain).
type cliBuild struct {
	once     sync.Once
	dir, bin string
	err      error
}

// sharedCLI is the test process's slurmspec binary.
var sharedCLI cliBuild

func (c *cliBuild) get() (string, error) {
	c.once.Do(func() {
		if c.dir, c.err = os.MkdirTemp("", "slurmspec-cli-"); c.err != nil {
			return
		}
		// Not private: TestUnreadableAndUnwritable runs it as an
		// unprivileged user.
		if c.err = os.Chmod(c.dir, 0o755); c.err != nil {
			return
		}
		c.bin = filepath.Join(c.dir, "slurmspec")
		if out, err := exec.Command("go", "build", "-o", c.bin, ".").CombinedOutput(); err != nil {
			c.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	return c.bin, c.err
}

// remove deletes the binary's directory.
func (c *cliBuild) remove() {
	if c.dir != "" {
		os.RemoveAll(c.dir)
	}
}

// asUnprivileged runs the command as an unprivileged user: "nobody" when the
// test runs as root (root reads and writes anything), the current user
// otherwise.
func asUnprivileged(t *testing.T, name string, args ...string) *exec.Cmd {
	t.Helper()
	if os.Geteuid() != 0 {
		return exec.Command(name, args...)
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Fatalf("running as root needs setpriv (util-linux) to drop privileges: %v", err)
	}
	return exec.Command(setpriv, append([]string{"--reuid=nobody", "--regid=nogroup", "--clear-groups", "--", name}, args...)...)
}

// snapshot lists every path below root with its size and mode.
func snapshot(t *testing.T, root string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		lines = append(lines, p+" "+info.Mode().String()+" "+strings.Repeat("x", int(min(info.Size(), 1))))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// TestUnreadableAndUnwritable: an unreadable spec and an unwritable output
// directory are I/O errors (exit 2) with one clear line, and nothing is
// written anywhere.
func TestUnreadableAndUnwritable(t *testing.T) {
	// Not t.TempDir: its parent is private to this user, and the
	// unprivileged user must be able to reach the files.
	tmp, err := os.MkdirTemp("", "slurmspec-perm-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	if err := os.Chmod(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := cliBinary(t)
	spec, err := os.ReadFile("../../examples/a4-training.yaml")
	if err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(tmp, "work")
	if err := os.MkdirAll(filepath.Join(work, "locked"), 0o755); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(work, "secret.yaml")
	readable := filepath.Join(work, "spec.yaml")
	for p, mode := range map[string]fs.FileMode{secret: 0o000, readable: 0o644} {
		if err := os.WriteFile(p, spec, mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(filepath.Join(work, "locked"), 0o555); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(work, 0o755); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, work)

	// Control: the unprivileged user can read the readable spec, so the
	// errors below come from the files themselves.
	if out, err := asUnprivileged(t, bin, "lint", readable).CombinedOutput(); err != nil {
		t.Fatalf("control lint as an unprivileged user failed: %v\n%s", err, out)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"unreadable spec", []string{"lint", secret}, "permission denied"},
		{"unreadable spec, render", []string{"render", secret, "-o", filepath.Join(work, "out")}, "permission denied"},
		{"unwritable output directory", []string{"render", readable, "-o", filepath.Join(work, "locked", "out")}, "permission denied"},
		{"output in an unwritable directory", []string{"render", readable, "-o", filepath.Join(work, "locked")}, "permission denied"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := asUnprivileged(t, bin, tc.args...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			out := stdout.String() + stderr.String()
			if code != 2 || !strings.Contains(out, tc.want) {
				t.Errorf("exit %d, output:\n%s\nwant exit 2 and %q", code, out, tc.want)
			}
			if strings.Contains(out, "goroutine ") || strings.Contains(out, "panic") {
				t.Errorf("a stack trace leaked:\n%s", out)
			}
		})
	}
	if after := snapshot(t, work); after != before {
		t.Errorf("files changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

// TestRenderWritesOnlyInsideTheOutputDirectory renders into a directory
// inside a tree and checks nothing else in the tree changed.
func TestRenderWritesOnlyInsideTheOutputDirectory(t *testing.T) {
	tmp := t.TempDir()
	bin := cliBinary(t)
	tree := filepath.Join(tmp, "tree")
	if err := os.MkdirAll(filepath.Join(tree, "a", "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tree, "a", "keep.txt"), []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, tree)
	out := filepath.Join(tree, "a", "b", "out")
	for range 2 { // a first render and a replacing one
		if b, err := exec.Command(bin, "render", "../../examples/seed.jsonc", "-o", out).CombinedOutput(); err != nil {
			t.Fatalf("render: %v\n%s", err, b)
		}
	}
	if err := os.RemoveAll(out); err != nil {
		t.Fatal(err)
	}
	if after := snapshot(t, tree); after != before {
		t.Errorf("render touched files outside -o:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}
