package cli

import (
	"os"
	"strconv"
	"testing"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal and returns its terminal side.
func openPTY(t *testing.T) *os.File {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals: %v", err)
	}
	t.Cleanup(func() { ptmx.Close() })
	if err := unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(ptmx.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	tty, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tty.Close() })
	return tty
}

// TestAutoColourOnATerminal: --color auto colours a real terminal, unless
// NO_COLOR is set or TERM is dumb; a regular file only with FORCE_COLOR;
// always and never win over the environment.
func TestAutoColourOnATerminal(t *testing.T) {
	tty := openPTY(t)
	file, err := os.Create(t.TempDir() + "/report.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	for _, c := range []struct {
		mode string
		env  map[string]string
		tty  bool
		want bool
	}{
		{"auto", nil, true, true},
		{"auto", map[string]string{"TERM": "xterm-256color"}, true, true},
		{"auto", map[string]string{"TERM": "dumb"}, true, false},
		{"auto", map[string]string{"NO_COLOR": "1"}, true, false},
		{"auto", map[string]string{"NO_COLOR": ""}, true, true},
		{"auto", nil, false, false},
		{"auto", map[string]string{"FORCE_COLOR": "1"}, false, true},
		{"auto", map[string]string{"FORCE_COLOR": "false"}, false, false},
		{"auto", map[string]string{"FORCE_COLOR": "1", "NO_COLOR": "1"}, false, false},
		{"never", map[string]string{"FORCE_COLOR": "1"}, true, false},
		{"always", map[string]string{"NO_COLOR": "1", "TERM": "dumb"}, false, true},
	} {
		e := env{environ: func(k string) string { return c.env[k] }}
		w := file
		if c.tty {
			w = tty
		}
		got, err := (&reportFlags{color: c.mode}).colour(e, w)
		if err != nil || got != c.want {
			t.Errorf("--color %s, env %v, terminal %v: colour %v (%v), want %v", c.mode, c.env, c.tty, got, err, c.want)
		}
	}
}
