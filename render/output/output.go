// Package output writes a rendered set of files to an output directory,
// atomically for the whole set, and compares a set with what a directory
// holds (for `render --check`).
//
// The output directory belongs to slurmspec: a manifest (.slurmspec-manifest)
// lists the files it wrote. The directory is committed to repositories, so
// it is read as untrusted input: Write and Check apply the same rules to it
// (inspect). Both refuse an output path that is a symlink (also written
// with a trailing slash), the working directory or one of its ancestors, a
// directory holding a symlink or a special file anywhere below it, and
// files the manifest does not list, so nothing a user put there is lost and
// nothing outside it is read or touched. Every file is opened below a
// directory file descriptor without following symlinks and without
// blocking, checked to be a regular file, and read with a size limit.
//
// The new set is staged in a sibling directory and swapped in with one
// atomic exchange (renameat2 RENAME_EXCHANGE): a reader, or a render killed
// at any point, sees either the old complete set or the new one. After the
// exchange the old directory is checked again; if it is not the one
// inspected, or something was added to it meanwhile, the exchange is undone
// and Write fails. A killed render leaves its staging directory behind; the
// next render into the same directory removes it (staging.go).
package output

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/rogpeppe/go-internal/diff"
	"golang.org/x/sys/unix"

	"github.com/slurmspec/slurmspec/render"
)

// Manifest is the name of the file that lists what slurmspec wrote.
const Manifest = ".slurmspec-manifest"

// target is a checked -o argument.
type target struct {
	shown  string // as the user wrote it, for messages
	abs    string // absolute and clean: no trailing slash
	parent string
	base   string
}

// resolve checks the output path itself: it may not be the file system
// root, the working directory or an ancestor of it (the exchange would
// move the caller's own directory away).
func resolve(dir string) (target, error) {
	if dir == "" {
		return target{}, errors.New("no output directory given")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return target{}, fmt.Errorf("output directory %s: %w", dir, err)
	}
	t := target{shown: dir, abs: abs, parent: filepath.Dir(abs), base: filepath.Base(abs)}
	if t.parent == abs {
		return t, fmt.Errorf("output directory %s is the file system root; pass a directory of its own, such as out/", dir)
	}
	if err := notWorkingDir(t); err != nil {
		return t, err
	}
	if err := noLinkBelowWorkingDir(dir); err != nil {
		return t, err
	}
	return t, nil
}

// noLinkBelowWorkingDir refuses a relative output path that passes through
// a symlink (out/ in "out/cluster" committed as a link to a directory
// elsewhere): below the working directory the path is the checkout's, and
// a link there would take the output, and the staging directory next to
// it, outside it. Directories above the working directory (an absolute
// path's /tmp or /home) are the machine's and may be links.
func noLinkBelowWorkingDir(dir string) error {
	if filepath.IsAbs(dir) {
		return nil
	}
	clean := filepath.Clean(dir)
	parts := strings.Split(clean, string(filepath.Separator))
	for i := range parts[:len(parts)-1] {
		prefix := filepath.Join(parts[:i+1]...)
		if parts[i] == ".." || parts[i] == "." {
			continue
		}
		fi, err := os.Lstat(prefix)
		if err != nil {
			return nil // absent: render creates real directories
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return fmt.Errorf("output directory %s: %s is a symlink; pass the real path, so that nothing outside it is touched", dir, prefix)
		}
	}
	return nil
}

// notWorkingDir refuses a target that is the working directory or holds
// it, compared by device and inode so that any spelling (., .., a symlink
// to it) is caught.
func notWorkingDir(t target) error {
	var want unix.Stat_t
	if err := unix.Stat(t.abs, &want); err != nil {
		return nil // absent (or unreadable: inspect reports it)
	}
	wd, err := os.Getwd()
	if err != nil {
		return nil
	}
	for d := wd; ; d = filepath.Dir(d) {
		var st unix.Stat_t
		if unix.Stat(d, &st) == nil && st.Dev == want.Dev && st.Ino == want.Ino {
			what := "the current directory"
			if d != wd {
				what = "an ancestor of the current directory"
			}
			return fmt.Errorf("output directory %s is %s; render replaces the whole directory, which would move it away from under your shell: pass a directory of its own, such as out/", t.shown, what)
		}
		if filepath.Dir(d) == d {
			return nil
		}
	}
}

// state is what inspect found at the output path.
type state struct {
	exists bool
	fd     int // open on the directory when exists
	dev    uint64
	ino    uint64
	listed map[string]bool // manifest entries and their directories
	files  []entry
}

func (s *state) close() {
	if s.exists && s.fd >= 0 {
		unix.Close(s.fd)
		s.fd = -1
	}
}

// inspect applies the rules for an existing output directory: a directory,
// not a symlink; only regular files and directories below it; a bounded,
// regular manifest; no file the manifest does not list.
func inspect(t target) (*state, error) {
	s := &state{fd: -1, listed: map[string]bool{}}
	var st unix.Stat_t
	switch err := unix.Lstat(t.abs, &st); {
	case errors.Is(err, unix.ENOENT):
		return s, nil
	case err != nil:
		return nil, fmt.Errorf("output directory %s: %w", t.shown, err)
	case st.Mode&unix.S_IFMT == unix.S_IFLNK:
		return nil, fmt.Errorf("output directory %s is a symlink; pass the directory it points to, so that nothing outside it is touched", t.shown)
	case st.Mode&unix.S_IFMT != unix.S_IFDIR:
		return nil, fmt.Errorf("output path %s exists and is not a directory", t.shown)
	}
	fd, err := openDirNoFollow(t.abs)
	if err != nil {
		return nil, fmt.Errorf("output directory %s: %w", t.shown, err)
	}
	s.exists, s.fd = true, fd
	if err := unix.Fstat(fd, &st); err != nil {
		s.close()
		return nil, fmt.Errorf("output directory %s: %w", t.shown, err)
	}
	s.dev, s.ino = uint64(st.Dev), st.Ino
	if err := s.scan(t.shown); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

// scan lists the directory open at s.fd and checks it against its manifest.
func (s *state) scan(shown string) error {
	files, err := walk(s.fd, shown)
	if err != nil {
		return err
	}
	s.files = files
	hasManifest := false
	for _, e := range files {
		if e.rel == Manifest && !e.dir {
			hasManifest = true
		}
	}
	s.listed = map[string]bool{}
	if hasManifest {
		data, _, tooBig, err := readBeneath(s.fd, Manifest, maxManifestSize)
		switch {
		case err != nil:
			return fmt.Errorf("output directory %s: %w", shown, err)
		case tooBig:
			return fmt.Errorf("output directory %s: %s is larger than %d bytes; slurmspec never writes one that large", shown, Manifest, maxManifestSize)
		}
		s.listed = parseManifest(data)
	}
	var foreign []string
	for _, e := range files {
		if e.rel != Manifest && !s.listed[e.rel] {
			foreign = append(foreign, showName(e.rel))
		}
	}
	if len(foreign) > 0 {
		what := "holds files slurmspec did not write"
		if !hasManifest {
			what = "is not empty and was not written by slurmspec"
		}
		if len(foreign) > 5 {
			foreign = append(foreign[:5], "...")
		}
		return fmt.Errorf("output directory %s %s (%s); they would be lost: choose an empty or new directory", shown, what, strings.Join(foreign, ", "))
	}
	return nil
}

// Write replaces the contents of dir with set.
func Write(dir string, set render.Set) (err error) {
	t, err := resolve(dir)
	if err != nil {
		return err
	}
	s, err := inspect(t)
	if err != nil {
		return err
	}
	defer s.close()
	if err := os.MkdirAll(t.parent, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", t.parent, err)
	}
	pfd, err := unix.Open(t.parent, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("output directory %s: opening its parent: %w", dir, err)
	}
	defer unix.Close(pfd)
	removeStaleStaging(pfd, t.parent, t.base)
	stg, err := newStaging(pfd, t.parent, t.base)
	if err != nil {
		return fmt.Errorf("staging output next to %s: %w", dir, err)
	}
	defer func() {
		// After a successful exchange the staging name holds the old set.
		if rmErr := stg.remove(); rmErr != nil && err == nil {
			err = fmt.Errorf("removing %s: %w", stg.path, rmErr)
		}
	}()
	for _, a := range set {
		if err := writeFile(filepath.Join(stg.path, filepath.FromSlash(a.Path)), a.Data, fs.FileMode(a.Mode)); err != nil {
			return err
		}
	}
	if err := writeFile(filepath.Join(stg.path, Manifest), manifest(set), 0o644); err != nil {
		return err
	}
	if err := syncDir(stg.path); err != nil {
		return err
	}
	if !s.exists {
		err := unix.Renameat2(pfd, stg.name, pfd, t.base, unix.RENAME_NOREPLACE)
		if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) {
			// A file system without RENAME_NOREPLACE: a plain rename
			// replaces only an empty directory, so nothing is lost.
			err = unix.Renameat(pfd, stg.name, pfd, t.base)
		}
		switch {
		case errors.Is(err, unix.EEXIST), errors.Is(err, unix.ENOTEMPTY):
			return fmt.Errorf("output directory %s was created by someone else while rendering; nothing was changed: render again", dir)
		case err != nil:
			return fmt.Errorf("moving output into place at %s: %w", dir, err)
		}
		stg.moved = true
		return syncDir(t.parent)
	}
	if err := unix.Renameat2(pfd, stg.name, pfd, t.base, unix.RENAME_EXCHANGE); err != nil {
		return fmt.Errorf("swapping in the new output (atomic exchange of %s): %w", dir, err)
	}
	if err := verifySwappedOut(pfd, stg.name, s, dir); err != nil {
		// Put back what was there; the staging name then holds the new
		// set again, which the deferred remove deletes.
		if backErr := unix.Renameat2(pfd, stg.name, pfd, t.base, unix.RENAME_EXCHANGE); backErr != nil {
			return fmt.Errorf("%v; undoing the exchange failed too (%v): the previous contents of %s are at %s", err, backErr, dir, stg.path)
		}
		return err
	}
	return syncDir(t.parent)
}

// verifySwappedOut checks that what the exchange moved out of the output
// path is the directory inspect checked, and that nothing was added to it
// since: a directory created or replaced at -o while the render ran is
// not deleted.
func verifySwappedOut(pfd int, name string, s *state, dir string) error {
	fd, err := unix.Openat(pfd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("output directory %s changed while rendering (%v); nothing was changed: render again", dir, err)
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || uint64(st.Dev) != s.dev || st.Ino != s.ino {
		return fmt.Errorf("output directory %s was replaced while rendering; nothing was changed: render again", dir)
	}
	again := &state{fd: fd}
	if err := again.scan(dir); err != nil {
		return fmt.Errorf("output directory %s changed while rendering: %w", dir, err)
	}
	return nil
}

func writeFile(name string, data []byte, mode fs.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", filepath.Dir(name), err)
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL|unix.O_NOFOLLOW, mode)
	if err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if err := f.Chmod(mode); err != nil { // not subject to the umask
		f.Close()
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", name, err)
	}
	return f.Close()
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("syncing %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("syncing %s: %w", dir, err)
	}
	return nil
}

func manifest(set render.Set) []byte {
	var b bytes.Buffer
	b.WriteString("# Files written by slurmspec render; the directory is replaced as a whole on each render.\n")
	for _, a := range set {
		sum := sha256.Sum256(a.Data)
		fmt.Fprintf(&b, "%s %04o %s\n", hex.EncodeToString(sum[:]), a.Mode, a.Path)
	}
	return b.Bytes()
}

// parseManifest returns the paths a manifest lists, with their directories.
func parseManifest(data []byte) map[string]bool {
	listed := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, maxManifestSize)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 3 && !strings.HasPrefix(f[0], "#") {
			p := path.Clean(f[2])
			if p != f[2] || strings.HasPrefix(p, "../") || p == ".." || path.IsAbs(p) {
				continue // never written by slurmspec
			}
			listed[p] = true
			// Directories of listed files are ours too.
			for d := path.Dir(p); d != "."; d = path.Dir(d) {
				listed[d] = true
			}
		}
	}
	return listed
}

// Check compares set with the contents of dir without writing anything. It
// returns a unified diff of every difference (empty when dir is current).
// It refuses what Write refuses, and prints only bytes of regular files
// below dir.
func Check(dir string, set render.Set) ([]byte, error) {
	t, err := resolve(dir)
	if err != nil {
		return nil, err
	}
	s, err := inspect(t)
	if err != nil {
		return nil, err
	}
	defer s.close()
	var out bytes.Buffer
	want := map[string]bool{Manifest: true}
	for _, a := range set {
		want[a.Path] = true
		for d := path.Dir(a.Path); d != "."; d = path.Dir(d) {
			want[d] = true
		}
		name := path.Join(filepath.ToSlash(dir), a.Path)
		if !s.exists {
			out.Write(diff.Diff(name+" (missing)", nil, name, a.Data))
			continue
		}
		old, mode, tooBig, err := readBeneath(s.fd, a.Path, maxFileSize)
		switch {
		case errors.Is(err, errNotExist):
			out.Write(diff.Diff(name+" (missing)", nil, name, a.Data))
			continue
		case err != nil:
			return nil, fmt.Errorf("output directory %s: %w", dir, err)
		case tooBig:
			fmt.Fprintf(&out, "%s: on disk larger than %d bytes, rendered %d bytes\n", name, maxFileSize, len(a.Data))
		case !bytes.Equal(old, a.Data) && !printable(old):
			fmt.Fprintf(&out, "%s: on disk differs and holds control characters or invalid UTF-8 (not shown)\n", name)
		case !bytes.Equal(old, a.Data):
			out.Write(diff.Diff(name+" (on disk)", old, name+" (rendered)", a.Data))
		}
		if mode&0o777 != a.Mode || mode&^0o777 != 0 {
			fmt.Fprintf(&out, "mode of %s: %04o on disk, %04o rendered\n", name, mode, a.Mode)
		}
	}
	for _, e := range s.files {
		if !want[e.rel] {
			fmt.Fprintf(&out, "%s: on disk but no longer rendered\n", showName(path.Join(filepath.ToSlash(dir), e.rel)))
		}
	}
	return out.Bytes(), nil
}

// Remove deletes an output directory that Write wrote, and the staging
// directories killed renders left next to it. It refuses what Write
// refuses (a symlink, a special file, a file the manifest does not list),
// so it never deletes a file slurmspec did not write. An absent directory
// is not an error.
func Remove(dir string) error {
	t, err := resolve(dir)
	if err != nil {
		return err
	}
	s, err := inspect(t)
	if err != nil {
		return err
	}
	s.close()
	if pfd, err := unix.Open(t.parent, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0); err == nil {
		removeStaleStaging(pfd, t.parent, t.base)
		unix.Close(pfd)
	}
	if !s.exists {
		return nil
	}
	// Sorted paths reversed: every file before its directory.
	for i := len(s.files) - 1; i >= 0; i-- {
		if err := os.Remove(filepath.Join(t.abs, filepath.FromSlash(s.files[i].rel))); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing output directory %s: %w", dir, err)
		}
	}
	if err := os.Remove(t.abs); err != nil {
		return fmt.Errorf("removing output directory %s: %w", dir, err)
	}
	return nil
}

// printable reports whether a file from the output directory can be shown
// in a diff as it is: valid UTF-8 without control characters (but tab and
// newline), Unicode line separators or bidirectional controls, which could
// rewrite or hide lines of a terminal or CI log.
func printable(b []byte) bool {
	if !utf8.Valid(b) {
		return false
	}
	for _, r := range string(b) {
		switch {
		case r == '\t' || r == '\n':
		case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0:
			return false
		case r == 0x2028 || r == 0x2029 || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f || r == 0x061c:
			return false
		}
	}
	return true
}
