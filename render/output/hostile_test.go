package output

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// secret is put in the environment, so that a read of /proc/self/environ
// would show it.
const secret = "SLURMSPEC_TEST_SECRET=hunter2-do-not-print"

// withTimeout runs f and fails the test when it blocks (a FIFO).
func withTimeout(t *testing.T, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("blocked for 10 s (a FIFO was opened for reading?)")
	}
}

// hostileDirs builds rendered output directories that a pull request
// could commit, each with one planted trap, and returns them by name.
func hostileDirs(t *testing.T) map[string]string {
	t.Helper()
	tmp := t.TempDir()
	good := func(name string) string {
		dir := filepath.Join(tmp, name)
		if err := Write(dir, set("one")); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	dirs := map[string]string{}

	d := good("environ")
	must(os.Remove(filepath.Join(d, "a.conf")))
	must(os.Symlink("/proc/self/environ", filepath.Join(d, "a.conf")))
	dirs["file links to /proc/self/environ"] = d

	d = good("zero")
	must(os.Remove(filepath.Join(d, "a.conf")))
	must(os.Symlink("/dev/zero", filepath.Join(d, "a.conf")))
	dirs["file links to /dev/zero"] = d

	d = good("fifo")
	must(os.Remove(filepath.Join(d, "a.conf")))
	must(syscall.Mkfifo(filepath.Join(d, "a.conf"), 0o644))
	dirs["file is a FIFO"] = d

	outside := filepath.Join(tmp, "outside")
	must(os.MkdirAll(outside, 0o755))
	must(os.WriteFile(filepath.Join(outside, "run.sh"), []byte(secret+"\n"), 0o755))
	d = good("subdir")
	must(os.RemoveAll(filepath.Join(d, "d")))
	must(os.Symlink(outside, filepath.Join(d, "d")))
	dirs["subdirectory links outside"] = d

	d = good("manifest-environ")
	must(os.Remove(filepath.Join(d, Manifest)))
	must(os.Symlink("/proc/self/environ", filepath.Join(d, Manifest)))
	dirs["manifest links to /proc/self/environ"] = d

	d = good("manifest-zero")
	must(os.Remove(filepath.Join(d, Manifest)))
	must(os.Symlink("/dev/zero", filepath.Join(d, Manifest)))
	dirs["manifest links to /dev/zero"] = d

	d = good("manifest-fifo")
	must(os.Remove(filepath.Join(d, Manifest)))
	must(syscall.Mkfifo(filepath.Join(d, Manifest), 0o644))
	dirs["manifest is a FIFO"] = d

	d = good("manifest-huge")
	must(os.Truncate(filepath.Join(d, Manifest), 1<<40)) // sparse: 1 TiB
	dirs["manifest is 1 TiB"] = d

	d = good("extra-link")
	must(os.Symlink("/proc/self/environ", filepath.Join(d, "d", "extra")))
	dirs["unlisted link"] = d

	d = good("listed-link")
	m, err := os.ReadFile(filepath.Join(d, Manifest))
	must(err)
	must(os.WriteFile(filepath.Join(d, Manifest), append(m, []byte("00 0644 env\n")...), 0o644))
	must(os.Symlink("/proc/self/environ", filepath.Join(d, "env")))
	dirs["link listed in a forged manifest"] = d

	d = good("hardlink")
	must(os.Remove(filepath.Join(d, "a.conf")))
	must(os.Link(filepath.Join(outside, "run.sh"), filepath.Join(d, "a.conf")))
	dirs["file is a hard link to a file outside"] = d

	d = good("loop")
	must(os.Symlink("..", filepath.Join(d, "d", "up")))
	dirs["link to its own parent"] = d

	d = good("manifest-dir")
	must(os.Remove(filepath.Join(d, Manifest)))
	must(os.MkdirAll(filepath.Join(d, Manifest, "x"), 0o755))
	dirs["manifest is a directory"] = d

	d = good("setuid")
	must(os.Chmod(filepath.Join(d, "d", "run.sh"), 0o4755))
	must(os.Symlink("/etc/shadow", filepath.Join(d, "d", "z")))
	dirs["setuid file and a link"] = d

	dangling := filepath.Join(tmp, "dangling")
	must(os.Symlink(filepath.Join(tmp, "nowhere"), dangling))
	dirs["-o dangling link"] = dangling

	target := good("target")
	link := filepath.Join(tmp, "link")
	must(os.Symlink(target, link))
	dirs["-o LINK"] = link
	dirs["-o LINK/"] = link + "/"
	return dirs
}

// TestCheckAppliesRendersRules: --check refuses what render refuses, and
// never prints a byte from outside the output directory (#15.1).
func TestCheckAppliesRendersRules(t *testing.T) {
	t.Setenv("SLURMSPEC_TEST_SECRET", "hunter2-do-not-print")
	for name, dir := range hostileDirs(t) {
		t.Run(name, func(t *testing.T) {
			var d []byte
			var err error
			withTimeout(t, func() { d, err = Check(dir, set("one")) })
			if err == nil {
				t.Errorf("Check accepted it; diff:\n%s", d)
			}
			if bytes.Contains(d, []byte("hunter2")) || (err != nil && strings.Contains(err.Error(), "hunter2")) {
				t.Errorf("the secret leaked: %q %v", d, err)
			}
			if len(d) > 1<<20 {
				t.Errorf("%d bytes of diff", len(d))
			}
		})
	}
}

// TestWriteRefusesHostileDirs: render refuses the same directories and
// leaves them, and what they point to, untouched (#15.1, #15.6).
func TestWriteRefusesHostileDirs(t *testing.T) {
	for name, dir := range hostileDirs(t) {
		t.Run(name, func(t *testing.T) {
			before := snapshot(t, filepath.Dir(filepath.Clean(dir)))
			var err error
			withTimeout(t, func() { err = Write(dir, set("two")) })
			if err == nil {
				t.Fatal("Write accepted it")
			}
			if after := snapshot(t, filepath.Dir(filepath.Clean(dir))); after != before {
				t.Errorf("Write changed the parent directory:\nbefore %s\nafter  %s", before, after)
			}
		})
	}
}

// snapshot describes every entry below dir (without following links).
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %v %d;", p, fi.Mode(), fi.Size())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestTrailingSlashLinkKeepsTheLink: -o LINK/ once replaced the link by a
// directory and exited 0 (#15.6).
func TestTrailingSlashLinkKeepsTheLink(t *testing.T) {
	tmp := t.TempDir()
	target := filepath.Join(tmp, "target")
	if err := os.Mkdir(target, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(tmp, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := Write(link+"/", set("x")); err == nil || !strings.Contains(err.Error(), "symlink") {
		t.Errorf("-o LINK/ not refused as a symlink: %v", err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", fi, err)
	}
}

// TestWorkingDirectoryRefused: -o . (or an ancestor of the working
// directory) would swap the caller's directory away (#15.6).
func TestWorkingDirectoryRefused(t *testing.T) {
	tmp := t.TempDir()
	out := filepath.Join(tmp, "out")
	if err := Write(out, set("one")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(out, "d", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(out, "d", "sub"))
	for _, o := range []string{".", "./", "..", "../..", out, out + "/d/sub/../.."} {
		if err := Write(o, set("two")); err == nil || !strings.Contains(err.Error(), "current directory") {
			t.Errorf("-o %s: %v", o, err)
		}
		if _, err := Check(o, set("two")); err == nil || !strings.Contains(err.Error(), "current directory") {
			t.Errorf("--check -o %s: %v", o, err)
		}
	}
	if err := Write("/", set("two")); err == nil {
		t.Error("-o / accepted")
	}
	if _, err := os.Stat(filepath.Join(out, "d", "sub")); err != nil {
		t.Errorf("the working directory is gone: %v", err)
	}
}

func TestStagingNamesBelongToOneOutput(t *testing.T) {
	for _, c := range []struct {
		name, base string
		want       bool
	}{
		{".slurmspec-staging-12-0123456789abcdef.X", "X", true},
		{".slurmspec-staging-12-0123456789abcdef.X-700", "X", false},
		{".slurmspec-staging-12-0123456789abcdef.X-700", "X-700", true},
		{".slurmspec-staging-12-0123456789abcdef.a.b", "a.b", true},
		{".slurmspec-staging-12-0123456789abcdef.a.b", "a", false},
		{".slurmspec-staging-X-700-123", "X", false}, // the old scheme
		{".slurmspec-staging-12-0123456789abcdeX.X", "X", false},
		{"notes.X", "X", false},
	} {
		if got := ownStaging(c.name, c.base); got != c.want {
			t.Errorf("ownStaging(%q, %q) = %v", c.name, c.base, got)
		}
	}
}

// TestLinkedParentRefused: -o out/cluster where out is a committed symlink
// would write outside the checkout.
func TestLinkedParentRefused(t *testing.T) {
	tmp := t.TempDir()
	elsewhere := filepath.Join(tmp, "elsewhere")
	if err := os.Mkdir(elsewhere, 0o755); err != nil {
		t.Fatal(err)
	}
	checkout := filepath.Join(tmp, "checkout")
	if err := os.MkdirAll(filepath.Join(checkout, "real"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, filepath.Join(checkout, "out")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(checkout)
	for _, o := range []string{"out/cluster", "./out/cluster/", "real/../out/cluster"} {
		if err := Write(o, set("x")); err == nil || !strings.Contains(err.Error(), "symlink") {
			t.Errorf("-o %s: %v", o, err)
		}
		if _, err := Check(o, set("x")); err == nil || !strings.Contains(err.Error(), "symlink") {
			t.Errorf("--check -o %s: %v", o, err)
		}
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
		t.Errorf("written through the link: %v", entries)
	}
	if err := Write("real/cluster", set("x")); err != nil {
		t.Errorf("a real path: %v", err)
	}
}

// TestRemoveDeletesOnlyWhatWriteWrote: Remove (used by sandbox down)
// refuses a directory holding a file the manifest does not list.
func TestRemoveDeletesOnlyWhatWriteWrote(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if err := Write(dir, set("one")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "d", "mine"), []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Remove(dir); err == nil {
		t.Error("Remove deleted a directory holding a user's file")
	}
	if got := read(t, filepath.Join(dir, "d", "mine")); got != "keep" {
		t.Errorf("the user's file: %q", got)
	}
	if err := os.Remove(filepath.Join(dir, "d", "mine")); err != nil {
		t.Fatal(err)
	}
	if err := Remove(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(dir); !os.IsNotExist(err) {
		t.Errorf("still there: %v", err)
	}
	if err := Remove(dir); err != nil {
		t.Errorf("Remove of an absent directory: %v", err)
	}
}

// TestBoundedWork: a 1 TiB (sparse) file is reported, not read; too many
// entries or levels below -o are refused without walking them all.
func TestBoundedWork(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if err := Write(dir, set("one")); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(filepath.Join(dir, "a.conf"), 1<<40); err != nil {
		t.Fatal(err)
	}
	d, err := Check(dir, set("one"))
	if err != nil || !bytes.Contains(d, []byte("larger than")) || len(d) > 4096 {
		t.Errorf("a 1 TiB file: %d bytes of diff, %v", len(d), err)
	}

	wide := filepath.Join(t.TempDir(), "wide")
	if err := os.Mkdir(wide, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range maxEntries + 1 {
		f, err := os.Create(filepath.Join(wide, fmt.Sprintf("f%05d", i)))
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	if _, err := Check(wide, set("one")); err == nil || !strings.Contains(err.Error(), "more than") {
		t.Errorf("%d entries: %v", maxEntries+1, err)
	}

	deep := filepath.Join(t.TempDir(), "deep")
	p := deep
	for range maxDepth + 2 {
		p = filepath.Join(p, "d")
	}
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := Write(deep, set("one")); err == nil || !strings.Contains(err.Error(), "deeper") {
		t.Errorf("%d levels: %v", maxDepth+2, err)
	}
}

// TestCheckDoesNotPrintControlCharacters: a committed file holding terminal
// escapes or bidi controls is reported as different without being shown.
func TestCheckDoesNotPrintControlCharacters(t *testing.T) {
	for _, content := range []string{"a one\n\x1b[2K\x1b[1Aok\n", "a one\n\u202eevil\n", "a one\n\r\n", "\xff\xfe"} {
		dir := filepath.Join(t.TempDir(), "out")
		if err := Write(dir, set("one")); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "a.conf"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		d, err := Check(dir, set("one"))
		if err != nil || !bytes.Contains(d, []byte("not shown")) || bytes.ContainsAny(d, "\x1b\r\u202e\xff") {
			t.Errorf("%q: %q, %v", content, d, err)
		}
	}
}

// TestFileNamesAreShownEscaped: a committed file name with a newline or an
// escape cannot add lines to the output or the error.
func TestFileNamesAreShownEscaped(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if err := Write(dir, set("one")); err != nil {
		t.Fatal(err)
	}
	name := "x\n::error::forged\x1b[2K"
	if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Check(dir, set("one"))
	if err == nil || strings.ContainsAny(err.Error(), "\n\x1b") || !strings.Contains(err.Error(), `"x\n::error::forged\x1b[2K"`) {
		t.Errorf("Check: %v", err)
	}
	if err := Write(dir, set("one")); err == nil || strings.ContainsAny(err.Error(), "\n\x1b") {
		t.Errorf("Write: %v", err)
	}
}
