package linkflag

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/spf13/pflag"
)

// TestFlag: a path through a link is refused, naming it, unless the flag
// is given; the file's own name may be a link (the reader refuses it),
// a directory's may not.
func TestFlag(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, d := range []string{"real", "real/sub"} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("real", "link"); err != nil {
		t.Fatal(err)
	}
	var f Flag
	err := f.File("--config", filepath.Join("link", "c.yaml"))
	var le *Error
	if !errors.As(err, &le) || le.Link != "link" {
		t.Fatalf("File through a link: %v, want an *Error naming link", err)
	}
	if want := "--config link/c.yaml passes through link, a symbolic link; slurmspec does not follow links in paths it is given (one in a checkout can point outside it): name the real path, or pass --follow-symlinks"; err.Error() != want {
		t.Errorf("message:\n%s\nwant\n%s", err, want)
	}
	if err := f.File("", "link"); err != nil {
		t.Errorf("File naming a link itself: %v, want nil (the reader refuses it)", err)
	}
	if err := f.Dir("", "link/"); err == nil || err.Error()[:len("link/ is a symbolic link;")] != "link/ is a symbolic link;" {
		t.Errorf("Dir of a link: %v", err)
	}
	if err := f.Dir("", "real/sub"); err != nil {
		t.Errorf("Dir without links: %v", err)
	}
	if len(f.Args()) != 0 {
		t.Errorf("Args without the flag: %q", f.Args())
	}
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	f.Register(fs)
	if err := fs.Parse([]string{"--" + Name}); err != nil {
		t.Fatal(err)
	}
	if err := f.Dir("", "link/sub"); err != nil {
		t.Errorf("Dir with --%s: %v", Name, err)
	}
	if got := f.Args(); len(got) != 1 || got[0] != "--follow-symlinks" {
		t.Errorf("Args with the flag: %q", got)
	}
}
