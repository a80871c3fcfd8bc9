package cli

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestRerunCommand: the hint render --check prints keeps every flag that
// was given except --check, and a shell reads it back as the same words:
// bash parses the hint here and prints its arguments one per line.
func TestRerunCommand(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	var got string
	cmd := newRenderCmd(env{})
	cmd.RunE = func(c *cobra.Command, args []string) error {
		got = rerunCommand(c, args[0], "o u't/\x1b[31m")
		return nil
	}
	spec := "-we'ird $(touch x)\n.yaml"
	cmd.SetArgs([]string{"--slurm-version", "24.11", "--disable", "placeholder", "--disable", "unused-pool",
		"--with-foundation", "--check", "-o", "o u't/\x1b[31m", "--project", "my proj", "--", spec})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	want := "render --disable=placeholder,unused-pool --project='my proj' --slurm-version=24.11 --with-foundation -o $'o u\\'t/\\x1b[31m' -- $'-we\\'ird $(touch x)\\n.yaml'"
	if got != want {
		t.Errorf("hint\n%s\nwant\n%s", got, want)
	}
	if strings.ContainsFunc(got, func(r rune) bool { return r < ' ' }) {
		t.Errorf("hint holds control characters: %q", got)
	}
	words, _ := strings.CutPrefix(got, "render ")
	out, err := exec.Command(bash, "-c", `printf '%s\0' `+words).Output()
	if err != nil {
		t.Fatal(err)
	}
	args := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	wantArgs := []string{"--disable=placeholder,unused-pool", "--project=my proj", "--slurm-version=24.11", "--with-foundation", "-o", "o u't/\x1b[31m", "--", spec}
	if strings.Join(args, "|") != strings.Join(wantArgs, "|") {
		t.Errorf("bash reads %q\nwant %q", args, wantArgs)
	}
}

// TestSandboxStateDirHint: the --state-dir a sandbox command tells the
// user to repeat is quoted like every printed command (shellquote.Command):
// an escape sequence in the directory's name is shown escaped, not sent to
// the terminal.
func TestSandboxStateDirHint(t *testing.T) {
	d := &sandboxDir{explicit: true}
	for dir, want := range map[string]string{
		"/tmp/sandbox":        " --state-dir /tmp/sandbox",
		"/tmp/my sandbox":     " --state-dir '/tmp/my sandbox'",
		"/tmp/\x1b[31mred":    ` --state-dir $'/tmp/\x1b[31mred'`,
		"/tmp/\u202eevil.yml": ` --state-dir $'/tmp/\u202eevil.yml'`,
	} {
		if got := d.hint(dir); got != want {
			t.Errorf("hint(%q) = %q, want %q", dir, got, want)
		}
	}
	if got := (&sandboxDir{}).hint("/tmp/x"); got != "" {
		t.Errorf("the default directory needs no flag, got %q", got)
	}
}
