package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/spf13/cobra"

	"github.com/slurmspec/slurmspec/compiler/outformat"
	"github.com/slurmspec/slurmspec/lint/format"
	"github.com/slurmspec/slurmspec/render/diff"
)

// formatCommand is a command that takes --format: its path below the
// root, its registry of formats and the arguments of a run that succeeds.
type formatCommand struct {
	name    string
	formats outformat.List
	args    []string
}

// path is the command's words, for Run and root.Find.
func (c formatCommand) path() []string { return strings.Fields(c.name) }

// formatCommands are the commands that take --format.
func formatCommands(t *testing.T) []formatCommand {
	const spec = "../../../examples/a4-training.yaml"
	return []formatCommand{
		{"lint", format.Formats(), []string{spec}},
		{"diff", diff.Formats(), []string{spec, spec}},
		{"rules", rulesFormats(), nil},
		{"schema", schemaFormats(), nil},
		{"accounting plan", planFormats(), accountingPlanArgs(t)},
	}
}

// accountingPlanArgs are the arguments of an accounting plan that runs: a
// copy of the a4-training example with its accounting file beside it, and
// the capture of testdata/script/accounting_plan.txtar.
func accountingPlanArgs(t *testing.T) []string {
	t.Helper()
	dir := t.TempDir()
	ar, err := txtar.ParseFile("../../../testdata/script/accounting_plan.txtar")
	if err != nil {
		t.Fatal(err)
	}
	var current []byte
	for _, f := range ar.Files {
		if f.Name == "current.txt" {
			current = f.Data
		}
	}
	files := map[string]string{"a4.yaml": "../../../examples/a4-training.yaml", "a4.accounting.yaml": "../../../examples/accounting/a4-training.accounting.yaml"}
	for name, from := range files {
		data, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if current == nil {
		t.Fatal("accounting_plan.txtar has no current.txt")
	}
	if err := os.WriteFile(filepath.Join(dir, "current.txt"), current, 0o644); err != nil {
		t.Fatal(err)
	}
	return []string{filepath.Join(dir, "a4.yaml"), "--current", filepath.Join(dir, "current.txt")}
}

// TestEveryFormatFlagIsRegistered: every command of the tree that has a
// --format flag is one of formatCommands, so that TestFormatRegistry and
// TestUnknownFormat check it: a command with a format switch of its own
// (as accounting plan had) fails here.
func TestEveryFormatFlagIsRegistered(t *testing.T) {
	known := map[string]bool{}
	for _, c := range formatCommands(t) {
		known[c.name] = true
	}
	var walk func(cmd *cobra.Command)
	walk = func(cmd *cobra.Command) {
		if cmd.LocalFlags().Lookup("format") != nil {
			name := strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ")
			if !known[name] {
				t.Errorf("%s has --format but is not in formatCommands: register its formats (compiler/outformat, formatFlag, lookupFormat) and list it", cmd.CommandPath())
			}
		}
		for _, sub := range cmd.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd(env{}))
}

// TestFormatRegistry checks that lint, diff, rules, schema and accounting plan take --format from
// their registries (package compiler/outformat): the flag's default and
// usage, the names the help lists and the shell completes, and every name
// runs.
func TestFormatRegistry(t *testing.T) {
	root := newRootCmd(env{})
	for _, c := range formatCommands(t) {
		t.Run(c.name, func(t *testing.T) {
			cmd, _, err := root.Find(c.path())
			if err != nil || cmd.CommandPath() != "slurmspec "+c.name {
				t.Fatalf("no command %s: %v", c.name, err)
			}
			f := cmd.Flags().Lookup("format")
			if f == nil {
				t.Fatal("no --format flag")
			}
			if f.DefValue != c.formats.Default() || f.Usage != c.formats.Usage() {
				t.Errorf("--format: default %q, usage %q; the registry's are %q, %q", f.DefValue, f.Usage, c.formats.Default(), c.formats.Usage())
			}
			var help, errb bytes.Buffer
			if code := Run(append(c.path(), "--help"), &help, &errb); code != 0 {
				t.Fatalf("--help: exit %d: %s", code, errb.String())
			}
			if !strings.Contains(help.String(), c.formats.Usage()) {
				t.Errorf("--help does not say %q:\n%s", c.formats.Usage(), help.String())
			}
			var comp bytes.Buffer
			if code := Run(append(append([]string{"__complete"}, c.path()...), "--format", ""), &comp, &errb); code != 0 {
				t.Fatalf("__complete: exit %d: %s", code, errb.String())
			}
			lines := strings.Split(comp.String(), "\n")
			if i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, ":") }); i < 0 || !slices.Equal(lines[:i], c.formats.Names()) {
				t.Errorf("--format completes %q, want %q", lines, c.formats.Names())
			}
			for _, name := range c.formats.Names() {
				var out, errb bytes.Buffer
				code := Run(append(append(c.path(), "--format", name), c.args...), &out, &errb)
				if code > 1 {
					t.Errorf("--format %s: exit %d: %s", name, code, errb.String())
				}
			}
		})
	}
}

// TestUnknownFormat checks that every command of formatCommands refuses a format they
// do not have with the same error, the registry's, and exit 2.
func TestUnknownFormat(t *testing.T) {
	for _, c := range formatCommands(t) {
		for _, name := range []string{"xml", "jsn", ""} {
			var out, errb bytes.Buffer
			code := Run(append(append(c.path(), "--format", name), c.args...), &out, &errb)
			want := "slurmspec: --format: " + c.formats.Check(name).Error() + "\n"
			if code != exitUsage || out.Len() != 0 || errb.String() != want {
				t.Errorf("%s --format %q: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.name, name, code, out.String(), errb.String(), want)
			}
		}
	}
}
