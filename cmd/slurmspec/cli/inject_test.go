package cli

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/cmd/internal/injecttest"
	"github.com/slurmspec/slurmspec/deploy/dispatch"
	"github.com/slurmspec/slurmspec/lab/sandbox"
)

// TestNoForgedWorkflowCommands runs every command of slurmspec (the tree is
// walked, so a command added later is covered; cobra's hidden __complete
// too) with file names, arguments, unknown flags and flag values holding
// a newline and "::error file=x::forged" or starting with
// "::stop-commands::", and checks that no output line starts a GitHub
// Actions workflow command (compiler/escape).
func TestNoForgedWorkflowCommands(t *testing.T) {
	seed, err := os.ReadFile("../../../examples/seed.jsonc")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	// Two valid specs whose prolog scripts hold the payloads: diff prints
	// the scripts' lines.
	script := `echo 'First prolog script running'`
	for i, tail := range []string{"y", "z"} {
		var lines []string
		for _, p := range injecttest.Payloads {
			lines = append(lines, strings.ReplaceAll(strings.ReplaceAll(p, "\r", ""), "\n", `\n`)) // in a JSON string
		}
		body := strings.Replace(string(seed), script, strings.Join(append(lines, "echo "+tail), "\\n"), 1)
		if err := os.WriteFile(fmt.Sprintf("valid%d.jsonc", i), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv(sandbox.EnvDir, t.TempDir())
	t.Setenv(dispatch.EnvBinary, "")
	t.Setenv("PATH", t.TempDir()) // no slurmspec-deploy, slurmspec-online, git or Slurm
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	// The payloads as file names of specs with errors, so that they reach
	// the diagnostics too, and as a directory.
	var files []string
	for i, p := range injecttest.Payloads {
		name := p + ".yaml"
		if i == 1 {
			name = p + ".json"
		}
		body := "nodePools: []\n" + strings.ReplaceAll(p, "\n", "") + "unknown: " + strconv.Quote(p) + "\n"
		if i == 1 {
			body = `{"nodePools": [], "x": "` + "\n" // a syntax error
		}
		if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
	}
	if err := os.Mkdir(injecttest.Payloads[0], 0o755); err != nil {
		t.Fatal(err)
	}
	args := append(files, "HEAD:"+files[0], injecttest.Payloads[0])
	lines := injecttest.CommandLines(newRootCmd(env{}), args)
	for _, p := range injecttest.Payloads {
		lines = append(lines,
			[]string{"__complete", "lint", p},
			[]string{"__complete", "render", "-o", p},
			[]string{"render", "-o", p, files[0]},
			[]string{"diff", "HEAD:" + p, files[0]},
			[]string{"diff", p + ":x.yaml", p},
			[]string{"import", p},
			[]string{"explain", p},
			[]string{"help", p},
			[]string{"lint", "--", p},
			[]string{"lint", "--format", "text", "--verbose", "--", p},
		)
	}
	for _, p := range injecttest.Payloads {
		// Rendered into a directory named by the payload, then checked
		// against the other spec: a stale diff of the scripts.
		lines = append(lines,
			[]string{"render", "--check", "-o", p, "valid0.jsonc"},
			[]string{"render", "-o", p, "valid0.jsonc"},
			[]string{"render", "--check", "-o", p, "valid0.jsonc"},
			[]string{"render", "--check", "-o", p, "valid1.jsonc"},
		)
	}
	for _, format := range []string{"text", "json", "markdown"} {
		lines = append(lines, []string{"diff", "--format", format, "valid0.jsonc", "valid1.jsonc"})
		var out bytes.Buffer
		if code := Run([]string{"diff", "--format", format, "valid0.jsonc", "valid1.jsonc"}, &out, &out); code == exitUsage || !strings.Contains(out.String(), "forged") {
			t.Fatalf("diff --format %s of the valid specs: exit %d\n%s", format, code, out.String())
		}
	}
	for _, f := range files {
		for _, format := range []string{"text", "json", "sarif"} {
			lines = append(lines, []string{"lint", "--format", format, f})
		}
		for _, format := range []string{"text", "json", "markdown"} {
			lines = append(lines, []string{"diff", "--format", format, files[0], f})
		}
	}
	if len(lines) < 300 {
		t.Fatalf("%d command lines: the walk is broken", len(lines))
	}
	for _, line := range lines {
		var out, errOut bytes.Buffer
		Run(line, &out, &errOut)
		for _, s := range []string{out.String(), errOut.String()} {
			if bad := injecttest.Forged(s); len(bad) > 0 {
				t.Errorf("slurmspec %q: output lines start a workflow command: %q", line, bad)
			}
		}
	}
}
