// Package gitrev reads a spec at a git revision (REV:PATH, as `slurmspec
// diff origin/main:cluster.yaml cluster.yaml` takes it) with the git
// command. REV comes from a pull request as often as not, so it is checked
// before git sees it: it may not look like an option, git's own option
// parsing is ended explicitly, and what git prints is bounded.
package gitrev

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/load"
)

// Ref is a spec at a revision.
type Ref struct {
	// Rev is the revision (a branch, tag, commit or any git revision
	// expression).
	Rev string
	// Path is the spec's path in Rev, with git's rules: relative to the
	// repository root, or to the working directory when it begins with
	// ./ or ../.
	Path string
}

// String is REV:PATH.
func (r Ref) String() string { return r.Rev + ":" + r.Path }

// Parse splits REV:PATH. ok is false when arg has no colon, or an empty
// side. An ok Ref may still be refused by Check.
func Parse(arg string) (r Ref, ok bool) {
	rev, path, found := strings.Cut(arg, ":")
	if !found || rev == "" || path == "" {
		return Ref{}, false
	}
	return Ref{Rev: rev, Path: path}, true
}

// Check refuses a revision git would read as an option (it begins with
// "-": `--output=FILE` would write a file) and characters no revision
// holds.
func (r Ref) Check() error {
	switch {
	case strings.HasPrefix(r.Rev, "-"):
		return fmt.Errorf("revision %q begins with '-': not a revision", r.Rev)
	case strings.ContainsAny(r.Rev, "\x00\n\r"), strings.ContainsAny(r.Path, "\x00\n\r"):
		return fmt.Errorf("%q: control characters in a revision or path", r.String())
	}
	return nil
}

// Read returns the spec's bytes, at most load.MaxFileSize of them, with
// `git cat-file blob --end-of-options REV:PATH` run in dir (the working
// directory when empty), so that PATH follows git's rules from there.
func Read(ctx context.Context, dir string, r Ref) ([]byte, error) {
	if err := r.Check(); err != nil {
		return nil, err
	}
	out, err := git(ctx, dir, load.MaxFileSize, "cat-file", "blob", "--end-of-options", r.String())
	if err != nil {
		return nil, fmt.Errorf("reading %s from git: %w", r, err)
	}
	return out, nil
}

// Dir is the directory in the working tree that holds the spec's path,
// where its project config is looked up: PATH relative to dir when it
// begins with ./ or ../, else relative to the repository's top level.
func Dir(ctx context.Context, dir string, r Ref) (string, error) {
	rel := filepath.FromSlash(r.Path)
	if strings.HasPrefix(r.Path, "./") || strings.HasPrefix(r.Path, "../") || r.Path == "." || r.Path == ".." {
		return filepath.Join(dirOrDot(dir), filepath.Dir(rel)), nil
	}
	top, err := git(ctx, dir, 1<<16, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", fmt.Errorf("finding the repository of %s: %w", r, err)
	}
	return filepath.Join(strings.TrimRight(string(top), "\n"), filepath.Dir(rel)), nil
}

func dirOrDot(dir string) string {
	if dir == "" {
		return "."
	}
	return dir
}

// errTooLarge is the error of output above the limit.
var errTooLarge = errors.New("larger than the limit")

// git runs git with args in dir and returns its standard output, at most
// limit bytes (more is an error and kills git).
func git(ctx context.Context, dir string, limit int64, args ...string) ([]byte, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &limitedWriter{w: &stderr, n: 4096}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	out, readErr := io.ReadAll(io.LimitReader(stdout, limit+1))
	if int64(len(out)) > limit {
		cancel()
		_ = cmd.Wait()
		return nil, fmt.Errorf("%w of %d bytes", errTooLarge, limit)
	}
	if err := cmd.Wait(); err != nil {
		return nil, fmt.Errorf("%v: %s", err, strings.TrimSpace(stderr.String()))
	}
	if readErr != nil {
		return nil, readErr
	}
	return out, nil
}

// limitedWriter keeps the first n bytes written and drops the rest.
type limitedWriter struct {
	w io.Writer
	n int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	keep := min(len(p), l.n)
	if keep > 0 {
		_, _ = l.w.Write(p[:keep])
		l.n -= keep
	}
	return len(p), nil
}
