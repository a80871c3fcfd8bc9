package discover

import (
	"bytes"
	"crypto"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v6/plumbing/format/index"
	"github.com/go-git/go-git/v6/plumbing/hash"

	"github.com/slurmspec/slurmspec/compiler/load"
)

// MaxIndexBytes bounds the git index a walk reads (the Linux kernel's,
// about 80,000 files, is under 10 MiB).
const MaxIndexBytes = 64 << 20

// tracked is the set of paths the git index holds, read once per walk and
// only when .gitignore ignores something the walk meets: git never
// ignores a tracked file, so a committed spec that a committed .gitignore
// matches is still linted.
//
// The index is read by this process (go-git's decoder, versions 2 to 4),
// never by running git: git reads the repository's configuration, which
// can name programs to run (core.fsmonitor), and a directory being linted
// may come from anyone. An index this decoder cannot read (a split or
// sparse index, a newer version, a file over MaxIndexBytes) leaves the
// walk as it was before tracked files counted (ignored means skipped), and
// says so in a note.
type tracked struct {
	root   string
	loaded bool
	paths  []string // sorted, slash-separated, relative to root
	note   string   // why the index could not be read, once
}

// load reads the index on first use.
func (t *tracked) load() {
	if t.loaded {
		return
	}
	t.loaded = true
	paths, err := readIndex(t.root)
	if err != nil {
		t.note = fmt.Sprintf("cannot read the git index of %s (%v): files .gitignore ignores are skipped even when tracked", t.root, err)
		return
	}
	slices.Sort(paths)
	t.paths = paths
}

// has reports whether the path rel (components from the root) is tracked.
func (t *tracked) has(rel []string) bool {
	t.load()
	p := strings.Join(rel, "/")
	_, ok := slices.BinarySearch(t.paths, p)
	return ok
}

// under reports whether a tracked path lies below the directory rel.
func (t *tracked) under(rel []string) bool {
	t.load()
	if len(rel) == 0 {
		return len(t.paths) > 0
	}
	prefix := strings.Join(rel, "/") + "/"
	i, _ := slices.BinarySearch(t.paths, prefix)
	return i < len(t.paths) && strings.HasPrefix(t.paths[i], prefix)
}

// readIndex returns the paths of the index of the work tree at root. A
// repository without an index (nothing added yet) tracks nothing.
func readIndex(root string) ([]string, error) {
	gitDir, err := gitDirOf(root)
	if err != nil {
		return nil, err
	}
	data, err := load.ReadFile(filepath.Join(gitDir, "index"), MaxIndexBytes)
	if load.NotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var idx index.Index
	// The checksum is not checked (an index written with
	// index.skipHash has none, and SHA-256 repositories use another).
	if err := index.NewDecoder(bytes.NewReader(data), hash.New(crypto.SHA1), index.WithSkipHash()).Decode(&idx); err != nil {
		return nil, err
	}
	paths := make([]string, 0, len(idx.Entries))
	for _, e := range idx.Entries {
		paths = append(paths, e.Name)
	}
	return paths, nil
}

// gitDirOf returns the git directory of the work tree at root: root/.git,
// or where the .git file of a linked worktree or a submodule points
// ("gitdir: PATH", relative to root when not absolute).
func gitDirOf(root string) (string, error) {
	dotGit := filepath.Join(root, ".git")
	st, err := os.Lstat(dotGit)
	if err != nil {
		return "", err
	}
	if st.IsDir() {
		return dotGit, nil
	}
	data, err := load.ReadFile(dotGit, 4096)
	if err != nil {
		return "", err
	}
	line, _, _ := strings.Cut(string(data), "\n")
	dir, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	if !ok {
		return "", fmt.Errorf("%s holds no gitdir: line", dotGit)
	}
	dir = strings.TrimSpace(dir)
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(root, dir)
	}
	return dir, nil
}
