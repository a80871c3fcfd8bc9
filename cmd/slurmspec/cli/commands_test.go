package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestUnknownSubcommands: every command group, the root included, refuses
// an unknown subcommand with exit 2 and names it; without arguments a
// group prints its help and exits 0. The groups are found by walking the
// command tree, so a group added later is checked too.
func TestUnknownSubcommands(t *testing.T) {
	root := newRootCmd(env{})
	var groups [][]string
	var walk func(*cobra.Command, []string)
	walk = func(c *cobra.Command, path []string) {
		if c.HasSubCommands() {
			groups = append(groups, path)
		}
		for _, sub := range c.Commands() {
			walk(sub, append(append([]string(nil), path...), sub.Name()))
		}
	}
	walk(root, nil)
	if len(groups) < 3 { // the root, completion, sandbox at least
		t.Fatalf("groups %q: the walk is broken", groups)
	}
	for _, g := range groups {
		var out, errOut bytes.Buffer
		if code := Run(append(append([]string(nil), g...), "nosuchcommand"), &out, &errOut); code != exitUsage ||
			!strings.Contains(errOut.String(), `unknown command "nosuchcommand"`) {
			t.Errorf("slurmspec %s nosuchcommand: exit %d, stderr %q", strings.Join(g, " "), code, errOut.String())
		}
		if len(g) == 0 {
			continue // the root without arguments is its help too, tested by the scripts
		}
		out.Reset()
		errOut.Reset()
		if code := Run(g, &out, &errOut); code != exitOK || !strings.Contains(out.String(), "Usage:") {
			t.Errorf("slurmspec %s: exit %d, stdout %q, stderr %q", strings.Join(g, " "), code, out.String(), errOut.String())
		}
	}
	var out, errOut bytes.Buffer
	if code := Run([]string{"help", "nosuchcommand"}, &out, &errOut); code != exitUsage {
		t.Errorf("help nosuchcommand: exit %d", code)
	}
}

// TestVersionFlag: --version prints what `slurmspec version` prints.
func TestVersionFlag(t *testing.T) {
	var a, b, e bytes.Buffer
	if Run([]string{"version"}, &a, &e) != 0 || Run([]string{"--version"}, &b, &e) != 0 {
		t.Fatalf("exit: %s", e.String())
	}
	if a.String() != b.String() || !strings.HasPrefix(a.String(), "slurmspec ") || !strings.HasSuffix(a.String(), "\n") {
		t.Errorf("version %q, --version %q", a.String(), b.String())
	}
}
