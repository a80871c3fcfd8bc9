package sandbox

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/render"
	"github.com/slurmspec/slurmspec/render/output"
)

// victim starts a process the sandbox never started, and returns it as a
// state would record it (PID, start time and executable all right).
func victim(t *testing.T) Proc {
	t.Helper()
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	p := identify("supervisor", cmd.Process.Pid)
	if !p.Running() {
		t.Fatal("the victim process does not count as running")
	}
	return p
}

// victimDir makes a directory with a file the user cares about, named as
// lab/localslurm names work directories.
func victimDir(t *testing.T) string {
	t.Helper()
	d, err := os.MkdirTemp("", "localslurm-victim-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	writeFile(t, filepath.Join(d, "thesis.tex"), "years of work")
	return d
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustExist(t *testing.T, names ...string) {
	t.Helper()
	for _, n := range names {
		if _, err := os.Lstat(n); err != nil {
			t.Errorf("%s is gone: %v", n, err)
		}
	}
}

// TestForgedStateStopsAndRemovesNothing: a state.json the sandbox did not
// write (committed to a repository, or copied from another directory)
// makes neither down nor up signal a process or delete a file (#15.5).
func TestForgedStateStopsAndRemovesNothing(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	sup := victim(t)
	work := victimDir(t)
	forged := State{Status: StatusUp, Supervisor: sup, Processes: []Proc{sup}, WorkDir: work, Spec: "x.yaml"}
	plain, err := json.Marshal(forged)
	if err != nil {
		t.Fatal(err)
	}
	// A state correctly signed, but for another directory.
	elsewhere := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.Mkdir(elsewhere, 0o755); err != nil {
		t.Fatal(err)
	}
	copied := forged
	copied.Dir = elsewhere
	if err := copied.write(); err != nil {
		t.Fatal(err)
	}
	signedElsewhere, err := os.ReadFile(filepath.Join(elsewhere, stateFile))
	if err != nil {
		t.Fatal(err)
	}
	badMAC, _ := json.Marshal(signedState{State: plain, MAC: strings.Repeat("0", 64)})
	for name, content := range map[string][]byte{
		"plain JSON":             plain,
		"a MAC that is wrong":    badMAC,
		"signed for another dir": signedElsewhere,
	} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "state")
			writeFile(t, filepath.Join(dir, stateFile), string(content))
			writeFile(t, filepath.Join(dir, "notes.txt"), "mine")
			writeFile(t, filepath.Join(dir, "rendered", "slurm.conf"), "mine too")
			if err := Down(dir, nil); err == nil {
				t.Error("Down accepted a forged state")
			}
			if err := claim(dir, nil); err == nil {
				t.Error("Up (claim) accepted a forged state")
			}
			if _, err := Read(dir); err == nil || !strings.Contains(err.Error(), "not written by this user's slurmspec sandbox") {
				t.Errorf("Read: %v", err)
			}
			if !sup.Running() {
				t.Fatal("the foreign process was stopped")
			}
			mustExist(t, filepath.Join(work, "thesis.tex"), filepath.Join(dir, "notes.txt"), filepath.Join(dir, "rendered", "slurm.conf"), filepath.Join(dir, stateFile))
		})
	}
}

// TestDownRemovesOnlyItsOwnFiles: with a genuine state, down removes what
// the sandbox wrote and leaves, and reports, anything else (#15.5).
func TestDownRemovesOnlyItsOwnFiles(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	dir := filepath.Join(t.TempDir(), "state")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	st := &State{Dir: dir, Status: StatusStopped, WorkDir: filepath.Join(t.TempDir(), "deeper", "localslurm-1")}
	writeFile(t, filepath.Join(st.WorkDir, "keep"), "not in the temp dir itself")
	if err := st.write(); err != nil {
		t.Fatal(err)
	}
	if err := output.Write(filepath.Join(dir, renderedDir), render.Set{{Path: "slurm.conf", Data: []byte("x\n"), Mode: 0o644}}); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, binDir, "sinfo"), "#!/bin/sh\n")
	writeFile(t, filepath.Join(dir, supervisorLog), "log\n")
	writeFile(t, filepath.Join(dir, "notes.txt"), "mine")
	writeFile(t, filepath.Join(dir, binDir, "my-tool"), "mine")
	writeFile(t, filepath.Join(dir, renderedDir, "extra.conf"), "mine")
	err := Down(dir, nil)
	if err == nil || !strings.Contains(err.Error(), "notes.txt") {
		t.Errorf("Down: %v; want it to name what it left", err)
	}
	mustExist(t, filepath.Join(dir, "notes.txt"), filepath.Join(dir, binDir, "my-tool"), filepath.Join(dir, renderedDir, "extra.conf"), filepath.Join(st.WorkDir, "keep"))
	for _, gone := range []string{filepath.Join(dir, binDir, "sinfo"), filepath.Join(dir, supervisorLog), filepath.Join(dir, stateFile)} {
		if _, err := os.Lstat(gone); !os.IsNotExist(err) {
			t.Errorf("%s was not removed: %v", gone, err)
		}
	}
	// Without its state the directory is no sandbox's any more: down
	// leaves it.
	if err := Down(dir, nil); err == nil {
		t.Error("a second Down removed a directory without state")
	}
	mustExist(t, filepath.Join(dir, "notes.txt"))
}

// TestClaimTakesOnlyEmptyOrOwnDirectories: up uses a new or empty
// directory, refuses one holding anything else.
func TestClaimTakesOnlyEmptyOrOwnDirectories(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	empty := t.TempDir()
	if err := claim(empty, nil); err != nil {
		t.Errorf("an empty directory: %v", err)
	}
	full := t.TempDir()
	writeFile(t, filepath.Join(full, "notes.txt"), "mine")
	if err := claim(full, nil); err == nil {
		t.Error("a directory holding a user's file was claimed")
	}
	mustExist(t, filepath.Join(full, "notes.txt"))
}

// TestProcIdentityIncludesTheExecutable: a PID whose executable is not the
// recorded one is not the recorded process.
func TestProcIdentityIncludesTheExecutable(t *testing.T) {
	p := identify("self", os.Getpid())
	if p.Exe == "" || !p.Running() {
		t.Fatalf("%+v", p)
	}
	p.Exe = "/usr/sbin/slurmctld"
	if p.Running() {
		t.Error("a process with another executable counts as the recorded one")
	}
}

// TestKeyFileMustBeTheUsers: a key readable by others, or a symlink, is
// refused, so state cannot be signed or verified with it.
func TestKeyFileMustBeTheUsers(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	key, err := loadKey(true)
	if err != nil || len(key) != keySize {
		t.Fatalf("loadKey: %v", err)
	}
	again, err := loadKey(true)
	if err != nil || string(again) != string(key) {
		t.Fatalf("a second loadKey made another key: %v", err)
	}
	path, _ := keyFile()
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := loadKey(false); err == nil {
		t.Error("a key readable by others was used")
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(t.TempDir(), "k")
	writeFile(t, other, strings.Repeat("k", keySize))
	if err := os.Chmod(other, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(other, path); err != nil {
		t.Fatal(err)
	}
	if _, err := loadKey(true); err == nil {
		t.Error("a key that is a symlink was used")
	}
}

// TestLinkedStateDirRefused: a state directory committed as a symlink to
// an empty directory elsewhere is not written through.
func TestLinkedStateDirRefused(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	elsewhere := t.TempDir()
	link := filepath.Join(t.TempDir(), "state")
	if err := os.Symlink(elsewhere, link); err != nil {
		t.Fatal(err)
	}
	if err := claim(link, nil); err == nil || !strings.Contains(err.Error(), "symlink") {
		t.Errorf("claim: %v", err)
	}
	if err := Down(link, nil); err == nil {
		t.Error("Down accepted a linked state directory")
	}
	if _, err := os.Lstat(link); err != nil {
		t.Errorf("the link is gone: %v", err)
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
		t.Errorf("written through the link: %v", entries)
	}
}
