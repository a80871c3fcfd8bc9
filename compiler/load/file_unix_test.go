//go:build unix

package load

import (
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// Only regular files are read: a FIFO neither blocks nor is read, a
// device is refused, and a symbolic link is not followed.
func TestOnlyRegularFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "f.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "l.yaml")
	if err := os.Symlink("/proc/self/environ", link); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{fifo: "FIFO", "/dev/zero": "device", link: "symbolic link", dir: "directory"} {
		done := make(chan diag.List, 1)
		go func() { _, l := File(name, Options{Format: FormatYAML}); done <- l }()
		select {
		case l := <-done:
			if len(l) != 1 || l[0].Rule != RuleIO || !strings.Contains(l[0].Message, want) {
				t.Errorf("%s: %v", name, l)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: File blocked", name)
		}
	}
	if _, err := ReadFile(fifo, 10); err == nil {
		t.Error("ReadFile read a FIFO")
	}
	reg := filepath.Join(dir, "r")
	if err := os.WriteFile(reg, []byte("12345678901"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(reg, 10); err == nil || !strings.Contains(err.Error(), "larger than the 10 bytes limit") {
		t.Errorf("over the limit: %v", err)
	}
	if b, err := ReadFile(reg, 11); err != nil || string(b) != "12345678901" {
		t.Errorf("at the limit: %q %v", b, err)
	}
}

// FileKind names each type of file as os.Lstat reports it, in the words
// the refusals use.
func TestFileKind(t *testing.T) {
	dir := t.TempDir()
	reg := filepath.Join(dir, "r")
	if err := os.WriteFile(reg, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "l")
	if err := os.Symlink(reg, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "f")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "s")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	for path, want := range map[string]string{
		reg: "a regular file", link: "a symbolic link", dir: "a directory",
		fifo: "a FIFO", sock: "a socket", "/dev/null": "a device",
	} {
		st, err := os.Lstat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := FileKind(st.Mode()); got != want {
			t.Errorf("FileKind(%s, mode %v) = %q, want %q", path, st.Mode(), got, want)
		}
	}
	if got := FileKind(fs.ModeIrregular); got != "a special file" {
		t.Errorf("FileKind(irregular) = %q", got)
	}
}

// TestOpenDirRefusesLinks: a directory below the one lint searches is
// opened without following a link swapped in after its parent was
// listed.
func TestOpenDirRefusesLinks(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink(t.TempDir(), filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	f, err := OpenDir(dir)
	if err != nil {
		t.Fatalf("OpenDir(dir): %v", err)
	}
	f.Close()
	if f, err := OpenDir(filepath.Join(dir, "link")); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		if f != nil {
			f.Close()
		}
		t.Errorf("OpenDir(link): %v, want a symbolic-link error", err)
	}
}
