package cli

import (
	"os"
	"path/filepath"
	"reflect"
	"syscall"
	"testing"
)

// TestExpandArgsRegularOnly: a directory walk takes regular spec files
// only; a FIFO (which would hang the read) and a symbolic link (which
// would read outside the directory) are skipped.
func TestExpandArgsRegularOnly(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.yaml", "b/c.json", ".hidden/d.yaml", "e.txt"} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.yaml"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	secret := filepath.Join(t.TempDir(), "secret.yaml")
	if err := os.WriteFile(secret, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(dir, "link.yaml")); err != nil {
		t.Fatal(err)
	}
	got, err := expandArgs([]string{dir, "-", "named.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b", "c.json"), "-", "named.yaml"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
