package discover

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v6/plumbing/format/gitignore"

	"github.com/slurmspec/slurmspec/compiler/load"
)

// MaxIgnoreBytes bounds the .gitignore and .git/info/exclude text one walk
// reads, all files together (a repository's are a few KiB), so that
// neither the patterns kept nor the matching of every file against them
// can grow without bound.
const MaxIgnoreBytes = 1 << 20

// ignoreScope is the .gitignore state of one directory of the walk: the
// repository root's path and the directory's path from it, and the
// patterns in force there. A nil *ignoreScope ignores nothing (a walk
// outside a repository).
type ignoreScope struct {
	root  string
	rel   []string // components of the directory, from root
	scope *gitignore.Scope
	// left is what the walk may still read of ignore files, shared by
	// every scope of the walk.
	left *int
	// index is the repository's git index, read when first needed and
	// shared by every scope of the walk.
	index *tracked
	// above is set while the scope is built down to the directory
	// searched: the ignore files read are above it, and must belong to us
	// or root.
	above bool
}

// newIgnoreScope returns the scope of dir (absolute): .git/info/exclude
// and every .gitignore from the repository root down to dir itself. It
// returns nil outside a repository. Ignore files are read as git reads
// them from a work tree: a symbolic link is not followed (it is skipped),
// and each is bounded.
func newIgnoreScope(dir string) (*ignoreScope, error) {
	root, err := load.RepoRoot(dir)
	if err != nil || root == "" {
		return nil, err
	}
	left := MaxIgnoreBytes
	above := root != dir // the root's files are above the directory searched
	var base []gitignore.Pattern
	if st, err := os.Lstat(filepath.Join(root, ".git")); err == nil && st.IsDir() {
		if base, err = readPatterns(filepath.Join(root, ".git", "info", "exclude"), nil, &left, above); err != nil {
			return nil, err
		}
	}
	own, err := readPatterns(filepath.Join(root, gitignore.IgnoreFile), nil, &left, above)
	if err != nil {
		return nil, err
	}
	s := &ignoreScope{root: root, scope: gitignore.NewScope(append(base, own...)), left: &left, index: &tracked{root: root}, above: above}
	rel, err := filepath.Rel(root, dir)
	if err != nil {
		return nil, fmt.Errorf("find repository root: %w", err)
	}
	if rel != "." {
		names := strings.Split(filepath.ToSlash(rel), "/")
		for i, name := range names {
			s.above = i < len(names)-1
			if s, err = s.descend(name); err != nil {
				return nil, err
			}
		}
	}
	s.above = false
	return s, nil
}

// descend returns the scope of the subdirectory name.
func (s *ignoreScope) descend(name string) (*ignoreScope, error) {
	if s == nil {
		return nil, nil
	}
	rel := append(append([]string(nil), s.rel...), name)
	scope, err := s.scope.Descend(rel, s.reader(rel))
	if err != nil {
		return nil, err
	}
	return &ignoreScope{root: s.root, rel: rel, scope: scope, left: s.left, index: s.index, above: s.above}, nil
}

// tracks reports whether the git index tracks the file name of the
// scope's directory.
func (s *ignoreScope) tracks(name string) bool {
	return s != nil && s.index.has(append(append([]string(nil), s.rel...), name))
}

// trackedUnder reports whether the git index tracks a file below the
// subdirectory name.
func (s *ignoreScope) trackedUnder(name string) bool {
	return s != nil && s.index.under(append(append([]string(nil), s.rel...), name))
}

// trackedBelow reports whether the git index tracks a file below the
// scope's own directory.
func (s *ignoreScope) trackedBelow() bool {
	return s != nil && s.index.under(s.rel)
}

// notes says what the walk could not do (a git index it could not read).
func (s *ignoreScope) notes() []string {
	if s == nil || s.index.note == "" {
		return nil
	}
	return []string{s.index.note}
}

// excluded reports whether the directory of the scope is ignored.
func (s *ignoreScope) excluded() bool { return s != nil && s.scope.Excluded() }

// ignores reports whether the file name in the scope's directory is
// ignored.
func (s *ignoreScope) ignores(name string, isDir bool) bool {
	if s == nil {
		return false
	}
	return s.scope.Match(append(append([]string(nil), s.rel...), name), isDir)
}

// reader returns the function that reads the .gitignore of the directory
// rel.
func (s *ignoreScope) reader(rel []string) func() ([]gitignore.Pattern, error) {
	return func() ([]gitignore.Pattern, error) {
		return readPatterns(filepath.Join(append([]string{s.root}, append(rel, gitignore.IgnoreFile)...)...), rel, s.left, s.above)
	}
}

// readPatterns reads an ignore file whose patterns apply below domain,
// within what is left of the walk's budget. A missing file has none, and
// so has one that is not a regular file (git does not follow a symbolic
// .gitignore either). One above the directory searched (above) that
// another user owns is refused, as FindProjectConfig refuses such a
// .slurmspec.yaml: in a shared directory made to look like a repository
// it would hide specs from the walk.
func readPatterns(path string, domain []string, left *int, above bool) ([]gitignore.Pattern, error) {
	st, err := os.Lstat(path)
	switch {
	case load.NotExist(err):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("read ignore file: %w", err)
	case !st.Mode().IsRegular():
		return nil, nil
	case above && !load.OwnedByUs(st):
		return nil, fmt.Errorf("read ignore file: %s belongs to another user: refusing it (lint the files by name, or from the repository root)", path)
	}
	data, err := load.ReadFile(path, int64(*left))
	if err != nil {
		return nil, fmt.Errorf("read ignore file (the .gitignore files of a walk may hold %d KiB in all): %w", MaxIgnoreBytes>>10, err)
	}
	*left -= len(data)
	return parsePatterns(strings.Split(string(data), "\n"), domain), nil
}

// parsePatterns parses gitignore lines (comments and blank lines dropped).
func parsePatterns(lines []string, domain []string) []gitignore.Pattern {
	var ps []gitignore.Pattern
	for _, line := range lines {
		line = strings.TrimSuffix(line, "\r")
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, domain))
	}
	return ps
}
