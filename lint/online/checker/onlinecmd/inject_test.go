package onlinecmd_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/slurmspec/slurmspec/lint/online"
	"github.com/slurmspec/slurmspec/lint/online/checker"
	"github.com/slurmspec/slurmspec/lint/online/checker/onlinecmd"
	"github.com/slurmspec/slurmspec/lint/pipeline"
)

// TestNoForgedWorkflowCommands runs slurmspec-online with a file name,
// arguments, unknown flags and every flag's value holding a newline and
// "::error file=x::forged" or starting with "::stop-commands::", and
// checks that no output line starts a GitHub Actions workflow command and
// that standard error holds no escape sequence or bidi control
// (compiler/escape; cmd/internal/injecttest does this for the other
// binaries, whose trees it walks).
func TestNoForgedWorkflowCommands(t *testing.T) {
	payloads := []string{"x\n::error file=x::forged", "::stop-commands::tok", "x\r\n::warning::forged", "x\x1b[2J\u202e"}
	dir := t.TempDir()
	var args []string
	for _, p := range payloads {
		name := filepath.Join(dir, p+".yaml")
		if err := os.WriteFile(name, []byte("nodePools: []\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, name, p, p+".yaml")
	}
	// The helper's flags, registered as Run registers them.
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	var spec pipeline.Options
	var of online.Flags
	spec.RegisterFlags(fs)
	of.RegisterFlags(fs)
	var lines [][]string
	for _, a := range args {
		lines = append(lines, []string{a}, []string{"--", a}, []string{"--" + a})
	}
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Value.Type() == "bool" {
			return
		}
		for _, p := range payloads {
			lines = append(lines, []string{"--" + f.Name + "=" + p, args[0]})
		}
	})
	if len(lines) < 20 {
		t.Fatalf("%d command lines", len(lines))
	}
	for _, line := range lines {
		var out, errOut bytes.Buffer
		onlinecmd.Run(context.Background(), line, strings.NewReader(""), &out, &errOut, checker.Options{})
		if strings.ContainsAny(errOut.String(), "\x1b\u202e") {
			t.Errorf("slurmspec-online %q: raw control characters on standard error: %q", line, errOut.String())
		}
		for _, s := range []string{out.String(), errOut.String()} {
			for _, l := range strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' }) {
				if strings.HasPrefix(strings.TrimLeft(l, " \t"), "::") {
					t.Errorf("slurmspec-online %q: output line starts a workflow command: %q", line, l)
				}
			}
		}
	}
}
