package output

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/slurmspec/slurmspec/render"
)

func set(tag string) render.Set {
	return render.Set{
		{Path: "a.conf", Data: []byte("a " + tag + "\n"), Mode: 0o644},
		{Path: "d/run.sh", Data: []byte("#!/bin/sh\necho " + tag + "\n"), Mode: 0o755},
	}
}

func read(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestWriteReplacesTheWholeSet(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if err := Write(dir, append(set("one"), render.Artifact{Path: "old.txt", Data: []byte("x"), Mode: 0o644})); err != nil {
		t.Fatal(err)
	}
	if err := Write(dir, set("two")); err != nil {
		t.Fatal(err)
	}
	if got := read(t, filepath.Join(dir, "a.conf")); got != "a two\n" {
		t.Errorf("a.conf = %q", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "old.txt")); !os.IsNotExist(err) {
		t.Errorf("old.txt survived the second render: %v", err)
	}
	fi, err := os.Stat(filepath.Join(dir, "d/run.sh"))
	if err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("run.sh mode: %v %v", fi.Mode(), err)
	}
	// Nothing is left next to the output directory.
	entries, _ := os.ReadDir(filepath.Dir(dir))
	if len(entries) != 1 {
		t.Errorf("left behind next to out: %v", entries)
	}
}

func TestWriteRefusesForeignFilesSymlinksAndFiles(t *testing.T) {
	tmp := t.TempDir()
	mine := filepath.Join(tmp, "mine")
	if err := os.MkdirAll(mine, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mine, "notes.txt"), []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(mine, set("x")); err == nil || !strings.Contains(err.Error(), "notes.txt") {
		t.Errorf("foreign file not refused: %v", err)
	}
	if got := read(t, filepath.Join(mine, "notes.txt")); got != "keep" {
		t.Errorf("notes.txt changed: %q", got)
	}
	// A file added to a rendered directory is protected too.
	out := filepath.Join(tmp, "out")
	if err := Write(out, set("x")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "d", "extra"), []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(out, set("y")); err == nil {
		t.Error("file added to the output directory was not protected")
	}
	link := filepath.Join(tmp, "link")
	if err := os.Symlink(mine, link); err != nil {
		t.Fatal(err)
	}
	if err := Write(link, set("x")); err == nil || !strings.Contains(err.Error(), "symlink") {
		t.Errorf("symlink not refused: %v", err)
	}
	file := filepath.Join(tmp, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(file, set("x")); err == nil {
		t.Error("a file as output directory was accepted")
	}
}

func TestCheck(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	d, err := Check(dir, set("one"))
	if err != nil || !bytes.Contains(d, []byte("(missing)")) {
		t.Errorf("missing directory: %q %v", d, err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Error("Check created the directory")
	}
	if err := Write(dir, set("one")); err != nil {
		t.Fatal(err)
	}
	if d, err := Check(dir, set("one")); err != nil || len(d) != 0 {
		t.Errorf("current directory reported stale: %q %v", d, err)
	}
	d, err = Check(dir, set("two"))
	if err != nil || !bytes.Contains(d, []byte("-a one")) || !bytes.Contains(d, []byte("+a two")) {
		t.Errorf("diff = %q %v", d, err)
	}
	if got := read(t, filepath.Join(dir, "a.conf")); got != "a one\n" {
		t.Errorf("Check wrote: %q", got)
	}
	if err := os.Chmod(filepath.Join(dir, "d/run.sh"), 0o644); err != nil {
		t.Fatal(err)
	}
	if d, _ := Check(dir, set("one")); !bytes.Contains(d, []byte("mode of")) {
		t.Errorf("mode change not reported: %q", d)
	}
}

// TestKilledRenderLeavesACompleteSet kills a writing child process at
// random moments, many times, and checks that the output directory always
// holds one complete set: the old one or the new one, never a mix.
func TestKilledRenderLeavesACompleteSet(t *testing.T) {
	if os.Getenv("SLURMSPEC_OUTPUT_CHILD") != "" {
		t.Skip("child process")
	}
	dir := filepath.Join(t.TempDir(), "out")
	if err := Write(dir, bigSet("old")); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	killed := 0
	for i := range 40 {
		cmd := exec.Command(exe, "-test.run=^TestChildWriter$", "-test.count=1")
		cmd.Env = append(os.Environ(), "SLURMSPEC_OUTPUT_CHILD="+dir, fmt.Sprintf("SLURMSPEC_OUTPUT_TAG=new%d", i))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(i%10) * 3 * time.Millisecond)
		if cmd.Process.Signal(syscall.SIGKILL) == nil {
			killed++
		}
		_ = cmd.Wait()
		tag := completeTag(t, dir)
		if tag != "old" && !strings.HasPrefix(tag, "new") {
			t.Fatalf("round %d: unexpected tag %q", i, tag)
		}
	}
	if killed == 0 {
		t.Fatal("no child was killed; the test proved nothing")
	}
	// The next render cleans up what the killed ones left next to out.
	if err := Write(dir, bigSet("final")); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(dir)); len(entries) != 1 {
		t.Errorf("staging directories left behind: %d entries next to out", len(entries))
	}
}

// bigSet is large enough that writing it takes a while.
func bigSet(tag string) render.Set {
	var s render.Set
	for i := range 30 {
		s = append(s, render.Artifact{Path: fmt.Sprintf("f%02d", i), Data: bytes.Repeat([]byte(tag+"\n"), 20000), Mode: 0o644})
	}
	return s
}

// completeTag checks that every file holds the same tag and returns it.
func completeTag(t *testing.T, dir string) string {
	t.Helper()
	tag := ""
	for i := range 30 {
		b := read(t, filepath.Join(dir, fmt.Sprintf("f%02d", i)))
		first, _, _ := strings.Cut(b, "\n")
		if tag == "" {
			tag = first
		}
		if first != tag || len(b) != len(first+"\n")*20000 {
			t.Fatalf("file f%02d holds %q (%d bytes), others %q: a mixed or partial set", i, first, len(b), tag)
		}
	}
	return tag
}

// TestChildWriter is the child of TestKilledRenderLeavesACompleteSet.
func TestChildWriter(t *testing.T) {
	dir := os.Getenv("SLURMSPEC_OUTPUT_CHILD")
	if dir == "" {
		t.Skip("only run as the child of TestKilledRenderLeavesACompleteSet")
	}
	for {
		if err := Write(dir, bigSet(os.Getenv("SLURMSPEC_OUTPUT_TAG"))); err != nil {
			t.Fatal(err)
		}
	}
}
