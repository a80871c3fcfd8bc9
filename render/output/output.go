// Package output writes a rendered set of files to an output directory,
// atomically for the whole set, and compares a set with what a directory
// holds (for `render --check`).
//
// The output directory belongs to slurmspec: a manifest (.slurmspec-manifest)
// lists the files it wrote. Write refuses a directory that holds files the
// manifest does not list, so nothing a user put there is ever lost, and it
// refuses a symlink, so nothing outside the directory is touched. The new
// set is staged in a sibling directory and swapped in with one atomic
// exchange (renameat2 RENAME_EXCHANGE): a reader, or a render killed at any
// point, sees either the old complete set or the new one. A killed render
// leaves its staging directory behind; the next render removes it.
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
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/diff"
	"golang.org/x/sys/unix"

	"github.com/slurmspec/slurmspec/render"
)

// Manifest is the name of the file that lists what slurmspec wrote.
const Manifest = ".slurmspec-manifest"

// stagingPrefix names staging directories, next to the output directory.
const stagingPrefix = ".slurmspec-staging-"

// Write replaces the contents of dir with set.
func Write(dir string, set render.Set) (err error) {
	if err := checkOwned(dir); err != nil {
		return err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return fmt.Errorf("output directory %s: %w", dir, err)
	}
	parent := filepath.Dir(abs)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", parent, err)
	}
	removeStaleStaging(parent, filepath.Base(abs))
	stage, err := os.MkdirTemp(parent, fmt.Sprintf("%s%s-%d-", stagingPrefix, filepath.Base(abs), os.Getpid()))
	if err != nil {
		return fmt.Errorf("staging output next to %s: %w", dir, err)
	}
	defer func() {
		// After a successful exchange the staging path holds the old set.
		if rmErr := os.RemoveAll(stage); rmErr != nil && err == nil {
			err = fmt.Errorf("removing %s: %w", stage, rmErr)
		}
	}()
	if err := os.Chmod(stage, 0o755); err != nil {
		return fmt.Errorf("staging output: %w", err)
	}
	for _, a := range set {
		if err := writeFile(filepath.Join(stage, filepath.FromSlash(a.Path)), a.Data, fs.FileMode(a.Mode)); err != nil {
			return err
		}
	}
	if err := writeFile(filepath.Join(stage, Manifest), manifest(set), 0o644); err != nil {
		return err
	}
	if err := syncDir(stage); err != nil {
		return err
	}
	if _, err := os.Lstat(abs); errors.Is(err, fs.ErrNotExist) {
		if err := os.Rename(stage, abs); err != nil {
			return fmt.Errorf("moving output into place: %w", err)
		}
		return syncDir(parent)
	}
	if err := unix.Renameat2(unix.AT_FDCWD, stage, unix.AT_FDCWD, abs, unix.RENAME_EXCHANGE); err != nil {
		return fmt.Errorf("swapping in the new output (atomic exchange of %s): %w", dir, err)
	}
	return syncDir(parent)
}

// removeStaleStaging removes staging directories left next to the output
// directory by renders that were killed: those whose process is gone.
func removeStaleStaging(parent, base string) {
	prefix := stagingPrefix + base + "-"
	entries, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || !e.IsDir() {
			continue
		}
		pidText, _, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid <= 0 {
			continue
		}
		if err := unix.Kill(pid, 0); errors.Is(err, unix.ESRCH) {
			_ = os.RemoveAll(filepath.Join(parent, e.Name()))
		}
	}
}

func writeFile(name string, data []byte, mode fs.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", filepath.Dir(name), err)
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
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

// checkOwned refuses an output directory that is a symlink, not a
// directory, or holds files slurmspec did not write.
func checkOwned(dir string) error {
	st, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("output directory %s: %w", dir, err)
	}
	switch {
	case st.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("output directory %s is a symlink; pass the directory it points to, so that nothing outside it is touched", dir)
	case !st.IsDir():
		return fmt.Errorf("output path %s exists and is not a directory", dir)
	}
	listed, hasManifest, err := readManifest(dir)
	if err != nil {
		return err
	}
	present, err := listFiles(dir)
	if err != nil {
		return err
	}
	var foreign []string
	for _, p := range present {
		if p != Manifest && !listed[p] {
			foreign = append(foreign, p)
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
		return fmt.Errorf("output directory %s %s (%s); they would be lost: choose an empty or new directory", dir, what, strings.Join(foreign, ", "))
	}
	return nil
}

func readManifest(dir string) (map[string]bool, bool, error) {
	data, err := os.ReadFile(filepath.Join(dir, Manifest))
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]bool{}, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("reading %s: %w", filepath.Join(dir, Manifest), err)
	}
	listed := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 3 && !strings.HasPrefix(f[0], "#") {
			listed[f[2]] = true
			// Directories of listed files are ours too.
			for d := filepath.Dir(f[2]); d != "."; d = filepath.Dir(d) {
				listed[d] = true
			}
		}
	}
	return listed, true, nil
}

// listFiles returns every file and directory below dir, slash-separated.
func listFiles(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == dir {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading output directory %s: %w", dir, err)
	}
	sort.Strings(out)
	return out, nil
}

// Check compares set with the contents of dir without writing anything. It
// returns a unified diff of every difference (empty when dir is current).
func Check(dir string, set render.Set) ([]byte, error) {
	var out bytes.Buffer
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, fmt.Errorf("output directory %s: %w", dir, err)
	case !st.IsDir():
		return nil, fmt.Errorf("output path %s is not a directory", dir)
	}
	want := map[string]bool{Manifest: true}
	for _, a := range set {
		want[a.Path] = true
		for d := filepath.Dir(a.Path); d != "."; d = filepath.Dir(d) {
			want[d] = true
		}
		name := filepath.Join(dir, filepath.FromSlash(a.Path))
		old, err := os.ReadFile(name)
		if errors.Is(err, fs.ErrNotExist) {
			out.Write(diff.Diff(filepath.ToSlash(name)+" (missing)", nil, filepath.ToSlash(name), a.Data))
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", name, err)
		}
		if !bytes.Equal(old, a.Data) {
			out.Write(diff.Diff(filepath.ToSlash(name)+" (on disk)", old, filepath.ToSlash(name)+" (rendered)", a.Data))
		}
		if fi, err := os.Stat(name); err == nil && uint32(fi.Mode().Perm()) != a.Mode {
			fmt.Fprintf(&out, "mode of %s: %04o on disk, %04o rendered\n", filepath.ToSlash(name), fi.Mode().Perm(), a.Mode)
		}
	}
	if err == nil {
		present, lerr := listFiles(dir)
		if lerr != nil {
			return nil, lerr
		}
		for _, p := range present {
			if !want[p] {
				fmt.Fprintf(&out, "%s: on disk but no longer rendered\n", filepath.ToSlash(filepath.Join(dir, p)))
			}
		}
	}
	return out.Bytes(), nil
}
