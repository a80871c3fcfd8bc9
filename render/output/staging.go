package output

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// stagingPrefix names staging directories, next to the output directory.
// A staging name is stagingPrefix + PID + "-" + 16 hex digits + "." + the
// output directory's base name. PID and the random part hold no "." or
// "-" of the base name, so a name belongs to exactly one output directory:
// the render into X never takes X-700's staging directory for its own.
const stagingPrefix = ".slurmspec-staging-"

// staging is a render's own staging directory. The render holds an
// exclusive flock on it for as long as it runs; the lock, not the PID in
// the name, is what tells a live render from a killed one.
type staging struct {
	name  string // base name, in the parent directory
	path  string
	lock  int  // fd holding the flock
	moved bool // renamed into place: nothing left to remove
}

func newStaging(pfd int, parent, base string) (*staging, error) {
	var rnd [8]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		return nil, err
	}
	name := fmt.Sprintf("%s%d-%s.%s", stagingPrefix, os.Getpid(), hex.EncodeToString(rnd[:]), base)
	if err := unix.Mkdirat(pfd, name, 0o700); err != nil {
		return nil, err
	}
	fd, err := unix.Openat(pfd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		_ = unix.Unlinkat(pfd, name, unix.AT_REMOVEDIR)
		return nil, err
	}
	s := &staging{name: name, path: filepath.Join(parent, name), lock: fd}
	if err := unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB); err != nil {
		_ = s.remove()
		return nil, fmt.Errorf("locking %s: %w", s.path, err)
	}
	if err := unix.Fchmod(fd, 0o755); err != nil {
		_ = s.remove()
		return nil, err
	}
	return s, nil
}

// remove deletes the staging directory (after an exchange: the old set)
// and releases the lock.
func (s *staging) remove() error {
	var err error
	if !s.moved {
		err = os.RemoveAll(s.path)
	}
	if s.lock >= 0 {
		unix.Close(s.lock)
		s.lock = -1
	}
	return err
}

// ownStaging reports whether name is a staging directory of the output
// directory base.
func ownStaging(name, base string) bool {
	rest, ok := strings.CutPrefix(name, stagingPrefix)
	if !ok {
		return false
	}
	pid, rest, ok := strings.Cut(rest, "-")
	if !ok || pid == "" || strings.Trim(pid, "0123456789") != "" {
		return false
	}
	rnd, b, ok := strings.Cut(rest, ".")
	if !ok || len(rnd) != 16 || strings.Trim(rnd, "0123456789abcdef") != "" {
		return false
	}
	return b == base
}

// removeStaleStaging removes staging directories of base left next to the
// output directory by renders that were killed: those no process holds
// the lock of. Anything else in the parent is left alone.
func removeStaleStaging(pfd int, parent, base string) {
	dup, err := unix.Openat(pfd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	d := os.NewFile(uintptr(dup), parent)
	names, _ := d.Readdirnames(-1)
	d.Close()
	for _, name := range names {
		if !ownStaging(name, base) {
			continue
		}
		fd, err := unix.Openat(pfd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			continue // not a directory, or gone
		}
		if err := unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB); errors.Is(err, unix.EWOULDBLOCK) || err != nil {
			unix.Close(fd) // a live render's
			continue
		}
		_ = os.RemoveAll(filepath.Join(parent, name))
		unix.Close(fd)
	}
}
