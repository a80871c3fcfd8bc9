package output

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// Limits on what is read from an output directory. The directory is
// committed to the repository, so it is as untrusted as the spec.
const (
	// maxFileSize bounds one file read back for --check; rendered files
	// are far smaller.
	maxFileSize = 16 << 20
	// maxManifestSize bounds the manifest.
	maxManifestSize = 4 << 20
	// maxEntries bounds the files and directories below the output
	// directory, and maxDepth its nesting.
	maxEntries = 10000
	maxDepth   = 32
)

// errNotExist reports that a file is absent (as fs.ErrNotExist).
var errNotExist = os.ErrNotExist

// entry is one file or directory below the output directory.
type entry struct {
	rel string // slash-separated
	dir bool
}

// openDirNoFollow opens dir, refusing a symlink (also when written with a
// trailing slash, which would make the kernel follow it).
func openDirNoFollow(dir string) (int, error) {
	fd, err := unix.Open(strings.TrimRight(dir, "/")+suffixIfRoot(dir), unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	return fd, nil
}

// suffixIfRoot keeps "/" usable: trimming it would leave an empty name.
func suffixIfRoot(dir string) string {
	if strings.TrimRight(dir, "/") == "" {
		return "/"
	}
	return ""
}

// walk lists every file and directory below the directory open at fd, by
// file descriptor, never following a symlink. Anything that is neither a
// regular file nor a directory is an error: slurmspec writes neither
// symlinks nor special files, so one is never read, compared or kept.
func walk(fd int, shown string) ([]entry, error) {
	var out []entry
	var rec func(fd int, prefix string, depth int) error
	rec = func(fd int, prefix string, depth int) error {
		if depth > maxDepth {
			return fmt.Errorf("output directory %s is nested deeper than %d levels; slurmspec never writes that", shown, maxDepth)
		}
		names, err := readDirNames(fd)
		if err != nil {
			return fmt.Errorf("reading output directory %s: %w", path.Join(shown, prefix), err)
		}
		for _, name := range names {
			rel := path.Join(prefix, name)
			if len(out) >= maxEntries {
				return fmt.Errorf("output directory %s holds more than %d files; slurmspec never writes that many", shown, maxEntries)
			}
			var st unix.Stat_t
			if err := unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
				return fmt.Errorf("reading output directory %s: %s: %w", shown, showName(rel), err)
			}
			switch st.Mode & unix.S_IFMT {
			case unix.S_IFREG:
				if st.Nlink > 1 {
					return fmt.Errorf("output directory %s holds %s, which has other hard links; slurmspec writes each file once, so it neither reads nor replaces it: remove it", shown, showName(rel))
				}
				out = append(out, entry{rel: rel})
			case unix.S_IFDIR:
				out = append(out, entry{rel: rel, dir: true})
				sub, err := unix.Openat(fd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
				if err != nil {
					return fmt.Errorf("reading output directory %s: %s: %w", shown, showName(rel), err)
				}
				err = rec(sub, rel, depth+1)
				unix.Close(sub)
				if err != nil {
					return err
				}
			default:
				return fmt.Errorf("output directory %s holds %s, which is %s; slurmspec writes only regular files and directories, so it neither reads nor replaces it: remove it", shown, showName(rel), kindOf(st.Mode))
			}
		}
		return nil
	}
	if err := rec(fd, "", 0); err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool { return out[i].rel < out[j].rel })
	return out, nil
}

// readDirNames lists the names in the directory open at fd without
// consuming fd.
func readDirNames(fd int) ([]string, error) {
	dup, err := unix.Openat(fd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(dup), ".")
	defer f.Close()
	names, err := f.Readdirnames(maxEntries + 1)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	sort.Strings(names)
	return names, nil
}

func kindOf(mode uint32) string {
	switch mode & unix.S_IFMT {
	case unix.S_IFLNK:
		return "a symlink"
	case unix.S_IFIFO:
		return "a FIFO"
	case unix.S_IFSOCK:
		return "a socket"
	case unix.S_IFCHR, unix.S_IFBLK:
		return "a device"
	}
	return "not a regular file"
}

// readBeneath reads the regular file rel (slash-separated) below the
// directory open at root: every component is opened without following
// symlinks, the file without blocking (a FIFO), and it must be a regular
// file of at most limit bytes. It returns errNotExist when rel is absent,
// and tooBig when the file is larger than limit.
func readBeneath(root int, rel string, limit int64) (data []byte, mode uint32, tooBig bool, err error) {
	parts := strings.Split(rel, "/")
	fd := root
	closeFd := func() {
		if fd != root {
			unix.Close(fd)
		}
	}
	defer func() { closeFd() }()
	for _, p := range parts[:len(parts)-1] {
		sub, err := unix.Openat(fd, p, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			return nil, 0, false, openErr(rel, err)
		}
		closeFd()
		fd = sub
	}
	f, err := unix.Openat(fd, parts[len(parts)-1], unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, 0, false, openErr(rel, err)
	}
	file := os.NewFile(uintptr(f), rel)
	defer file.Close()
	var st unix.Stat_t
	if err := unix.Fstat(f, &st); err != nil {
		return nil, 0, false, fmt.Errorf("%s: %w", rel, err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, 0, false, fmt.Errorf("%s is %s; slurmspec writes only regular files, so it does not read it: remove it", rel, kindOf(st.Mode))
	}
	if st.Nlink > 1 {
		return nil, 0, false, fmt.Errorf("%s has other hard links; slurmspec writes each file once, so it does not read one that may be another file outside the directory: remove it", rel)
	}
	mode = st.Mode & 0o7777
	if st.Size > limit {
		return nil, mode, true, nil
	}
	data, err = io.ReadAll(io.LimitReader(file, limit+1))
	if err != nil {
		return nil, 0, false, fmt.Errorf("reading %s: %w", rel, err)
	}
	if int64(len(data)) > limit {
		return nil, mode, true, nil
	}
	return data, mode, false, nil
}

func openErr(rel string, err error) error {
	switch {
	case errors.Is(err, unix.ENOENT):
		return errNotExist
	case errors.Is(err, unix.ELOOP), errors.Is(err, unix.ENOTDIR):
		return fmt.Errorf("%s: a symlink or a file stands where slurmspec expects its own file or directory: remove it", rel)
	}
	return fmt.Errorf("opening %s: %w", rel, err)
}

// showName returns a file name from the output directory for a message:
// as it is when printable, else quoted with escapes, so that a name cannot
// carry a newline or a terminal escape into the output.
func showName(name string) string {
	if printable([]byte(name)) && !strings.ContainsAny(name, "\t\n") {
		return name
	}
	return strconv.Quote(name)
}
