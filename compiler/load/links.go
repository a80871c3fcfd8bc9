package load

import (
	"os"
	"path/filepath"
	"strings"
)

// LinkOnPath returns the first element of path, as written up to and
// including that element, that is a symbolic link where the checkout
// controls the path; "" when there is none (or for "-", standard input).
// A pull request can commit a link (clusters -> /home/runner/.config)
// and have every file behind it read and printed, so the commands that
// take paths refuse one unless told to follow links.
//
// Which elements count:
//
//   - a relative path: every element ("." and ".." are not links). The
//     working directory is the checkout's, and what lies below it is the
//     pull request's;
//   - an absolute path: every element below the working directory (when
//     the path passes through it, compared by device and inode) and every
//     element below the first directory on the path that holds .git (a
//     repository's work tree). Elements above both (/tmp on macOS, /home
//     on some systems) are the machine's and may be links; an absolute
//     path outside the working directory and outside any repository is
//     the user's as named.
//
// The path is examined as written, element by element with os.Lstat,
// never cleaned: "a/../b" passes through a. An element that does not
// exist ends the examination (the command reports the missing file).
// The check and the open that follows are two steps; a pull request has
// no process running between them.
func LinkOnPath(path string) string {
	if path == "-" || path == "" {
		return ""
	}
	abs := filepath.IsAbs(path)
	inScope := !abs
	var cwd os.FileInfo
	if abs {
		cwd, _ = os.Stat(".")
	}
	sep := string(filepath.Separator)
	parts := strings.Split(path, sep)
	prefix := ""
	for i, part := range parts {
		switch {
		case i == 0 && abs:
			prefix = part + sep // "" on unix: the root
			continue
		case i == 0:
			prefix = part
		case prefix == "" || strings.HasSuffix(prefix, sep):
			prefix += part
		default:
			prefix += sep + part
		}
		if part == "" || part == "." || part == ".." {
			continue
		}
		st, err := os.Lstat(prefix)
		if err != nil {
			return ""
		}
		if st.Mode()&os.ModeSymlink != 0 && inScope {
			return prefix
		}
		if !inScope {
			inScope = startsScope(prefix, cwd)
		}
	}
	return ""
}

// startsScope reports whether the elements below dir are the checkout's:
// dir is the working directory or a repository's work tree.
func startsScope(dir string, cwd os.FileInfo) bool {
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return false
	}
	if cwd != nil && os.SameFile(st, cwd) {
		return true
	}
	_, err = os.Lstat(filepath.Join(dir, ".git"))
	return err == nil
}
