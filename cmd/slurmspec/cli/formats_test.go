package cli

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/outformat"
	"github.com/slurmspec/slurmspec/lint/format"
	"github.com/slurmspec/slurmspec/render/diff"
)

// formatCommands are the commands that take --format, each with its
// registry of formats and the arguments of a run that succeeds.
func formatCommands() []struct {
	name    string
	formats outformat.List
	args    []string
} {
	const spec = "../../../examples/a4-training.yaml"
	return []struct {
		name    string
		formats outformat.List
		args    []string
	}{
		{"lint", format.Formats(), []string{spec}},
		{"diff", diff.Formats(), []string{spec, spec}},
		{"rules", rulesFormats(), nil},
		{"schema", schemaFormats(), nil},
	}
}

// TestFormatRegistry checks that lint, diff, rules and schema take --format from
// their registries (package compiler/outformat): the flag's default and
// usage, the names the help lists and the shell completes, and every name
// runs.
func TestFormatRegistry(t *testing.T) {
	root := newRootCmd(env{})
	for _, c := range formatCommands() {
		t.Run(c.name, func(t *testing.T) {
			cmd, _, err := root.Find([]string{c.name})
			if err != nil || cmd.Name() != c.name {
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
			if code := Run([]string{c.name, "--help"}, &help, &errb); code != 0 {
				t.Fatalf("--help: exit %d: %s", code, errb.String())
			}
			if !strings.Contains(help.String(), c.formats.Usage()) {
				t.Errorf("--help does not say %q:\n%s", c.formats.Usage(), help.String())
			}
			var comp bytes.Buffer
			if code := Run([]string{"__complete", c.name, "--format", ""}, &comp, &errb); code != 0 {
				t.Fatalf("__complete: exit %d: %s", code, errb.String())
			}
			lines := strings.Split(comp.String(), "\n")
			if i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, ":") }); i < 0 || !slices.Equal(lines[:i], c.formats.Names()) {
				t.Errorf("--format completes %q, want %q", lines, c.formats.Names())
			}
			for _, name := range c.formats.Names() {
				var out, errb bytes.Buffer
				code := Run(append([]string{c.name, "--format", name}, c.args...), &out, &errb)
				if code > 1 {
					t.Errorf("--format %s: exit %d: %s", name, code, errb.String())
				}
			}
		})
	}
}

// TestUnknownFormat checks that lint, diff, rules and schema refuse a format they
// do not have with the same error, the registry's, and exit 2.
func TestUnknownFormat(t *testing.T) {
	for _, c := range formatCommands() {
		for _, name := range []string{"xml", "jsn", ""} {
			var out, errb bytes.Buffer
			code := Run(append([]string{c.name, "--format", name}, c.args...), &out, &errb)
			want := "slurmspec: --format: " + c.formats.Check(name).Error() + "\n"
			if code != exitUsage || out.Len() != 0 || errb.String() != want {
				t.Errorf("%s --format %q: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.name, name, code, out.String(), errb.String(), want)
			}
		}
	}
}
