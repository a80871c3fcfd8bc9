// Package discover decides which files are cluster specs: the files
// `slurmspec lint DIR` finds under a directory, and which of the files a
// pre-commit hook passes are specs (`lint --only-specs`).
//
// A file is a spec when it has a spec extension (.json, .jsonc, .yaml,
// .yml, .cue) and, in this order:
//
//   - it is not the project configuration (.slurmspec.yaml) and not in a
//     directory slurmspec rendered (one holding its manifest);
//   - under a directory: it is not in a hidden directory, not a symbolic
//     link, FIFO or device, and not ignored by .gitignore (inside a git
//     repository: .git/info/exclude and every .gitignore from the
//     repository root down, with git's pattern rules) unless the git
//     index tracks it (git never ignores a tracked file);
//   - it matches no exclude pattern of the project configuration;
//   - it matches an include pattern, or its first PrefixSize bytes look
//     like a spec (LooksLikeSpec: a top-level nodePools or
//     orchestratorSpec key), or the loader reads it into a document with
//     such a key (isSpecContent).
//
// Nothing is followed: a symbolic link to a directory is not entered, a
// symbolic link to a file is not read, and a FIFO is never opened. Files
// are read only as far as the loader's size limit, directories only as
// far as MaxEntries entries. What a walk skips as not a spec, and the
// links and special files it does not open, are listed in its Result.
package discover

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v6/plumbing/format/gitignore"

	"github.com/slurmspec/slurmspec/compiler/load"
)

// MaxEntries bounds the directory entries one walk looks at, so that a
// path given by mistake (a home directory, /) ends with an error instead
// of running for hours.
const MaxEntries = 1_000_000

// Patterns are the include and exclude patterns of a project
// configuration, with .gitignore's syntax and rules, relative to Dir.
type Patterns struct {
	// Dir is the directory the patterns are relative to (the directory of
	// the project configuration); "" when there are none.
	Dir string
	// Include lists files that are specs whatever their content.
	Include []string
	// Exclude lists files and directories that are never specs; it wins
	// over Include.
	Exclude []string
}

// Options say what discovery needs from the layers above it.
type Options struct {
	// Patterns returns the patterns that apply to the files of dir (an
	// absolute path): those of the nearest project configuration. Nil
	// means none.
	Patterns func(dir string) (Patterns, error)
	// ConfigName is the project configuration's file name, never a spec.
	ConfigName string
	// OutputMarker is the name of the manifest that marks a directory as
	// slurmspec's rendered output: such a directory is skipped whole.
	OutputMarker string
}

// Result is what a walk found.
type Result struct {
	// Specs are the spec files, as root joined with their path below it,
	// in lexical order.
	Specs []string
	// Candidates counts the files with a spec extension that .gitignore
	// does not ignore (the specs among them included).
	Candidates int
	// NotSpecs are the candidates that are not specs (neither their
	// content nor an include pattern makes them one), shown as Specs
	// are; files an exclude pattern names are not among them.
	NotSpecs []string
	// NotRegular are the entries skipped without being opened because
	// they are neither regular files nor directories: every symbolic
	// link, and each FIFO, socket or device with a spec extension.
	NotRegular []Skipped
	// Notes say what the walk could not do as it should (a git index it
	// cannot read).
	Notes []string
	// Why says, when Specs is empty, why root itself yielded nothing
	// beyond "no file looks like a spec" ("it is ignored by .gitignore",
	// "it is a rendered output directory", "an exclude pattern names it");
	// "" otherwise.
	Why string
}

// Skipped is an entry a walk did not open.
type Skipped struct {
	// Path is shown as Specs are.
	Path string
	// Kind is what it is: "a symbolic link", "a FIFO" (load.FileKind).
	Kind string
}

// Dir finds the specs under the directory root.
func Dir(root string, opt Options) (Result, error) {
	return dir(root, opt, MaxEntries)
}

// dir is Dir with a bound on the entries listed.
func dir(root string, opt Options, maxEntries int) (Result, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return Result{}, fmt.Errorf("reading %s: %w", root, err)
	}
	scope, err := newIgnoreScope(abs)
	if err != nil {
		return Result{}, fmt.Errorf("reading %s: %w", root, err)
	}
	w := &walker{opt: opt, compiled: map[string]*compiled{}, left: maxEntries, limit: maxEntries, top: abs}
	ignored := scope.excluded()
	switch {
	case ignored && !scope.trackedBelow():
		return Result{Why: "it is ignored by .gitignore", Notes: scope.notes()}, nil
	case opt.OutputMarker != "" && exists(filepath.Join(abs, opt.OutputMarker)):
		return Result{Why: "it is a directory slurmspec rendered (it holds " + opt.OutputMarker + ")"}, nil
	}
	if c, err := w.patterns(abs); err != nil {
		return Result{}, fmt.Errorf("reading %s: %w", root, err)
	} else if c.excludes(abs, true) {
		return Result{Why: "an exclude pattern of the project config names it"}, nil
	}
	if err := w.walk(abs, root, scope, ignored); err != nil {
		return Result{}, fmt.Errorf("reading %s: %w", root, err)
	}
	w.res.Notes = scope.notes()
	return w.res, nil
}

// Keep reports whether a file named by a pre-commit hook (lint
// --only-specs) is a spec: a regular file that is not the project
// configuration, not in a rendered directory (the manifest is in its
// directory or the one above: pulumi/Pulumi.yaml), matches no exclude
// pattern, and matches an include pattern or looks like a spec. A file
// that cannot be examined (a missing one) is kept, for the loader to
// report.
func Keep(file string, opt Options) (bool, error) {
	st, err := os.Lstat(file)
	switch {
	case err != nil:
		return true, nil
	case !st.Mode().IsRegular():
		return false, nil
	case filepath.Base(file) == opt.ConfigName:
		return false, nil
	}
	if opt.OutputMarker != "" && inRendered(file, opt.OutputMarker) {
		return false, nil
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return false, fmt.Errorf("%s: %w", file, err)
	}
	w := &walker{opt: opt, compiled: map[string]*compiled{}}
	c, err := w.patterns(filepath.Dir(abs))
	if err != nil {
		return false, err
	}
	return w.isSpec(c, abs), nil
}

// inRendered reports whether file is in a directory slurmspec rendered:
// the marker is in the file's directory or in the one above (the rendered
// tree is two levels deep: cluster.json, pulumi/Pulumi.yaml). A relative
// path is never looked at above the working directory.
func inRendered(file, marker string) bool {
	dir := filepath.Dir(file)
	if exists(filepath.Join(dir, marker)) {
		return true
	}
	if !filepath.IsAbs(file) && (dir == "." || dir == ".." || strings.HasPrefix(dir, ".."+string(filepath.Separator))) {
		return false
	}
	return exists(filepath.Join(filepath.Dir(dir), marker))
}

type walker struct {
	opt      Options
	compiled map[string]*compiled
	top      string // the directory searched
	left     int    // directory entries the walk may still list
	limit    int    // and all it may list
	res      Result
}

// walk searches the directory abs, shown as shown. In a directory
// .gitignore ignores (ignored), only what the git index tracks is
// looked at.
func (w *walker) walk(abs, shown string, scope *ignoreScope, ignored bool) error {
	entries, err := w.readDir(abs, abs == w.top)
	if err != nil {
		return err
	}
	if w.opt.OutputMarker != "" {
		for _, e := range entries {
			if e.Name() == w.opt.OutputMarker {
				return nil // slurmspec's own output
			}
		}
	}
	c, err := w.patterns(abs)
	if err != nil {
		return err
	}
	for _, e := range entries {
		name, t := e.Name(), e.Type()
		fileAbs, fileShown := filepath.Join(abs, name), filepath.Join(shown, name)
		switch {
		case t.IsDir():
			if strings.HasPrefix(name, ".") || c.excludes(fileAbs, true) {
				continue
			}
			subIgnored := ignored || scope.ignores(name, true)
			if subIgnored && !scope.trackedUnder(name) {
				continue
			}
			sub, err := scope.descend(name)
			if err != nil {
				return err
			}
			if err := w.walk(fileAbs, fileShown, sub, subIgnored); err != nil {
				return err
			}
		case t.IsRegular() && load.IsSpecFile(name) && name != w.opt.ConfigName:
			if (ignored || scope.ignores(name, false)) && !scope.tracks(name) {
				continue
			}
			w.res.Candidates++
			switch {
			case w.isSpec(c, fileAbs):
				w.res.Specs = append(w.res.Specs, fileShown)
			case !c.excludes(fileAbs, false):
				w.res.NotSpecs = append(w.res.NotSpecs, fileShown)
			}
		case !t.IsRegular() && (t&fs.ModeSymlink != 0 || load.IsSpecFile(name)):
			// A symbolic link, FIFO or device in a checkout is skipped,
			// never opened, and named in the result.
			if (ignored || scope.ignores(name, false)) && !scope.tracks(name) {
				continue
			}
			w.res.NotRegular = append(w.res.NotRegular, Skipped{Path: fileShown, Kind: load.FileKind(t)})
		}
	}
	return nil
}

// readDir lists a directory in lexical order, counting its entries
// against MaxEntries as they are read (a directory of millions of entries
// is refused without listing it whole). A directory below the one
// searched (not top) is opened without following a symbolic link, so
// that one swapped in after its parent was listed is not entered.
func (w *walker) readDir(dir string, top bool) ([]fs.DirEntry, error) {
	open := load.OpenDir
	if top {
		open = os.Open // named by the user, checked by the caller
	}
	f, err := open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var entries []fs.DirEntry
	for {
		chunk, err := f.ReadDir(1024)
		entries = append(entries, chunk...)
		if w.left -= len(chunk); w.left < 0 {
			return nil, fmt.Errorf("more than %d files and directories: name the directories that hold specs", w.limit)
		}
		if errors.Is(err, io.EOF) || (err == nil && len(chunk) == 0) {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, nil
}

// isSpec applies the project configuration's patterns, then the content
// test. A file that cannot be read is kept, for the loader to report.
func (w *walker) isSpec(c *compiled, abs string) bool {
	switch {
	case c.excludes(abs, false):
		return false
	case c.includes(abs):
		return true
	}
	return isSpecContent(abs)
}

// patterns returns the compiled patterns for the files of dir.
func (w *walker) patterns(dir string) (*compiled, error) {
	if w.opt.Patterns == nil {
		return nil, nil
	}
	p, err := w.opt.Patterns(dir)
	if err != nil || p.Dir == "" {
		return nil, err
	}
	if c, ok := w.compiled[p.Dir]; ok {
		return c, nil
	}
	base, err := filepath.Abs(p.Dir)
	if err != nil {
		return nil, err
	}
	domain := components(base)
	c := &compiled{}
	if len(p.Include) > 0 {
		c.include = gitignore.NewMatcher(parsePatterns(p.Include, domain))
	}
	if len(p.Exclude) > 0 {
		c.exclude = gitignore.NewMatcher(parsePatterns(p.Exclude, domain))
	}
	w.compiled[p.Dir] = c
	return c, nil
}

// compiled are a project configuration's patterns, matched against the
// components of absolute paths. A nil *compiled matches nothing.
type compiled struct {
	include, exclude gitignore.Matcher
}

func (c *compiled) excludes(abs string, isDir bool) bool {
	return c != nil && c.exclude != nil && c.exclude.Match(components(abs), isDir)
}

func (c *compiled) includes(abs string) bool {
	return c != nil && c.include != nil && c.include.Match(components(abs), false)
}

// components splits an absolute path into its names.
func components(abs string) []string {
	return strings.Split(strings.Trim(filepath.ToSlash(abs), "/"), "/")
}

// exists reports whether name exists, whatever it is (nothing is read or
// followed).
func exists(name string) bool {
	_, err := os.Lstat(name)
	return err == nil
}
