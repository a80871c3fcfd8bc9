package load

import (
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ReadFile reads a regular file of at most limit bytes. Anything else is
// refused with an error that says why: a symbolic link (a checkout may point
// one at /proc/self/environ or a secret), a FIFO (it would block forever), a
// device (/dev/zero never ends), a directory, or a file larger than limit.
// Opening does not block, whatever the file turns out to be.
func ReadFile(name string, limit int64) ([]byte, error) {
	f, err := openRegular(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s is larger than the %s limit", name, sizeString(limit))
	}
	return data, nil
}

// openRegular opens a regular file for reading without following a
// symbolic link in its last element and without blocking on a FIFO.
func openRegular(name string) (*os.File, error) {
	if !noFollowOpen {
		if st, err := os.Lstat(name); err == nil && st.Mode()&os.ModeSymlink != 0 {
			return nil, errSymlink(name)
		}
	}
	f, err := os.OpenFile(name, os.O_RDONLY|openFlags, 0)
	if err != nil {
		if isLoop(err) {
			return nil, errSymlink(name)
		}
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	switch m := st.Mode(); {
	case m.IsDir():
		f.Close()
		return nil, fmt.Errorf("%s is a directory, not a file", name)
	case !m.IsRegular():
		f.Close()
		return nil, fmt.Errorf("%s is not a regular file (%s); slurmspec reads only regular files", name, FileKind(m))
	}
	return f, nil
}

// OpenDir opens a directory for listing without following a symbolic
// link in its last element (on systems with O_NOFOLLOW).
func OpenDir(name string) (*os.File, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|dirFlags, 0)
	if err != nil {
		// O_NOFOLLOW with O_DIRECTORY fails on a link with ELOOP or
		// ENOTDIR, depending on the system.
		if st, lerr := os.Lstat(name); isLoop(err) || lerr == nil && st.Mode()&os.ModeSymlink != 0 {
			return nil, errSymlink(name)
		}
		return nil, err
	}
	return f, nil
}

func errSymlink(name string) error {
	return fmt.Errorf("%s is a symbolic link; slurmspec reads only regular files (name the file it points to)", name)
}

// FileKind names the type of a file from its mode, with an article, in the
// words every refusal of a file that is not a regular file uses: "a
// symbolic link", "a directory", "a FIFO", "a socket", "a device", else
// "a special file" ("a regular file" for a regular file). Take the mode
// from os.Lstat, so that a symbolic link is named as one.
func FileKind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}

func sizeString(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	if n >= 1<<10 && n%(1<<10) == 0 {
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
