package load

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// RepoRoot returns the nearest directory from dir (absolute) up that holds
// .git (a directory, or a file as in a linked worktree or a submodule), or
// "" when there is none. It only looks at names; nothing is read. The
// project config and the .gitignore files are looked for up to it, never
// above.
func RepoRoot(dir string) (string, error) {
	for {
		switch _, err := os.Lstat(filepath.Join(dir, ".git")); {
		case err == nil:
			return dir, nil
		case !NotExist(err):
			return "", fmt.Errorf("find the repository root: %w", err)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", nil
		}
		dir = parent
	}
}

// NotExist reports whether err says a path does not exist, including a
// path through a file that is not a directory.
func NotExist(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}
