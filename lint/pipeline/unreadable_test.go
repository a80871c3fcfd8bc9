package pipeline

import (
	"io/fs"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/load"
)

// TestUnreadableSaysWhy: why an accounting file the config names cannot
// be read, without its name again (the message names it): no permission
// (root reads any file, so the error is made here), a directory, a FIFO.
func TestUnreadableSaysWhy(t *testing.T) {
	if got := unreadable("t.yaml", &fs.PathError{Op: "open", Path: "t.yaml", Err: syscall.EACCES}); got != "cannot be read: permission denied" {
		t.Errorf("no permission: %q", got)
	}
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		dir:  "is a directory, not a file",
		fifo: "is not a regular file (a FIFO); slurmspec reads only regular files",
	} {
		_, err := load.ReadFile(name, load.MaxFileSize)
		if got := unreadable(name, err); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
}
