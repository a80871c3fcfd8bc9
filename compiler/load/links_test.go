package load

import (
	"os"
	"path/filepath"
	"testing"
)

// TestLinkOnPath: which elements of a path may be symbolic links (#28.1).
// The layout: machine/alias -> real stands for /tmp -> /private/tmp on
// macOS (a link above the checkout); real/ws is a repository whose
// clusters is a committed link out of it; real/plain is no repository.
func TestLinkOnPath(t *testing.T) {
	base := t.TempDir()
	mk := func(p string) {
		if err := os.MkdirAll(filepath.Join(base, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ln := func(target, p string) {
		if err := os.Symlink(target, filepath.Join(base, p)); err != nil {
			t.Fatal(err)
		}
	}
	mk("real/ws/.git")
	mk("real/ws/specs")
	mk("real/plain/specs")
	mk("outside")
	mk("elsewhere")
	mk("machine")
	ln(filepath.Join(base, "real"), "machine/alias")
	ln(filepath.Join(base, "outside"), "real/ws/clusters")
	ln(filepath.Join(base, "outside"), "real/plain/clusters")
	ln(filepath.Join(base, "outside"), "real/ws/specs/linked.yaml")

	abs := func(p string) string { return filepath.Join(base, p) }
	t.Chdir(abs("elsewhere"))
	for _, c := range []struct{ path, want string }{
		// Absolute, from outside the checkout: links above the
		// repository are the machine's; below it they are refused.
		{abs("machine/alias/ws/specs/a.yaml"), ""},
		{abs("machine/alias/ws/clusters/a.yaml"), abs("machine/alias/ws/clusters")},
		{abs("real/ws/clusters"), abs("real/ws/clusters")},
		{abs("real/ws/clusters") + "/", abs("real/ws/clusters")},
		{abs("real/ws/specs/linked.yaml"), abs("real/ws/specs/linked.yaml")},
		// No repository, not below the working directory: as named.
		{abs("real/plain/clusters/a.yaml"), ""},
		{"-", ""},
		{abs("real/ws/missing/a.yaml"), ""},
	} {
		if got := LinkOnPath(c.path); got != c.want {
			t.Errorf("from elsewhere: LinkOnPath(%q) = %q, want %q", c.path, got, c.want)
		}
	}

	// Relative, and absolute below the working directory, reached through
	// a link above it.
	t.Chdir(abs("machine/alias/plain"))
	for _, c := range []struct{ path, want string }{
		{"specs/a.yaml", ""},
		{"clusters", "clusters"},
		{"clusters/", "clusters"},
		{"./clusters/a.yaml", "./clusters"},
		{"specs/../clusters/a.yaml", "specs/../clusters"},
		{"../plain/clusters/a.yaml", "../plain/clusters"},
		{abs("real/plain/clusters/a.yaml"), abs("real/plain/clusters")},
		{abs("machine/alias/plain/clusters/a.yaml"), abs("machine/alias/plain/clusters")},
		{abs("machine/alias/plain/specs/a.yaml"), ""},
	} {
		if got := LinkOnPath(c.path); got != c.want {
			t.Errorf("from plain: LinkOnPath(%q) = %q, want %q", c.path, got, c.want)
		}
	}
}
