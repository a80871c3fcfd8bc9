package helperbin

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// tree makes a directory with the files named (mode 0 for a directory)
// and returns its path.
func tree(t *testing.T, files map[string]os.FileMode) string {
	t.Helper()
	dir := t.TempDir()
	for name, mode := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if mode == 0 {
			if err := os.Mkdir(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestFind(t *testing.T) {
	const name = "slurmspec-helper"
	onPath := tree(t, map[string]os.FileMode{name: 0o755})
	pathed := filepath.Join(onPath, name)
	lookPath := func(n string) (string, error) {
		if n != name {
			t.Errorf("looked up %q on PATH", n)
		}
		return pathed, nil
	}
	noPath := func(string) (string, error) { return "", exec.ErrNotFound }
	env := map[string]string{"HELPER": "/opt/helper"}
	getenv := func(k string) string { return env[k] }

	beside := tree(t, map[string]os.FileMode{"bin/slurmspec": 0o755, "bin/" + name: 0o755})
	lostMode := tree(t, map[string]os.FileMode{"bin/slurmspec": 0o755, "bin/" + name: 0o644})
	isDir := tree(t, map[string]os.FileMode{"bin/slurmspec": 0o755, "bin/" + name: 0})
	// ~/bin/slurmspec is a link to a release's bin/slurmspec.
	linked := tree(t, map[string]os.FileMode{"release/bin/slurmspec": 0o755, "release/bin/" + name: 0o755, "home/bin/x": 0o644})
	if err := os.Symlink(filepath.Join(linked, "release/bin/slurmspec"), filepath.Join(linked, "home/bin/slurmspec")); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		what, env, exe string
		lookPath       func(string) (string, error)
		want           string
	}{
		{"the variable first", "HELPER", filepath.Join(beside, "bin/slurmspec"), lookPath, "/opt/helper"},
		{"an unset variable is passed over", "UNSET", filepath.Join(beside, "bin/slurmspec"), lookPath, filepath.Join(beside, "bin", name)},
		{"beside the executable before PATH", "", filepath.Join(beside, "bin/slurmspec"), lookPath, filepath.Join(beside, "bin", name)},
		{"beside the link's target", "", filepath.Join(linked, "home/bin/slurmspec"), lookPath, filepath.Join(linked, "release/bin", name)},
		// Where slurmspec-online's finder and slurmspec-deploy's differed:
		// the first ran a file that had lost its execute bit.
		{"a file without an execute bit is passed over", "", filepath.Join(lostMode, "bin/slurmspec"), lookPath, pathed},
		{"a directory is passed over", "", filepath.Join(isDir, "bin/slurmspec"), lookPath, pathed},
		{"no executable known", "", "", lookPath, pathed},
	} {
		got, err := find(name, tc.env, tc.exe, getenv, tc.lookPath)
		if err != nil || got != tc.want {
			t.Errorf("%s: find = %q, %v; want %q", tc.what, got, err, tc.want)
		}
	}
	_, err := find(name, "", filepath.Join(lostMode, "bin/slurmspec"), getenv, noPath)
	if !errors.Is(err, ErrNotFound) {
		t.Errorf("nowhere: %v, want ErrNotFound", err)
	}
}
