package schema

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"cuelang.org/go/cue"

	"github.com/slurmspec/slurmspec/compiler/cuectx"
	"github.com/slurmspec/slurmspec/schema/slurmconf"
)

func TestEveryCatalogKeyHasADescription(t *testing.T) {
	cat := slurmconf.Default()
	n := 0
	for _, s := range slurmconf.Scopes() {
		for _, p := range cat.Params(s) {
			n++
			d := slurmconf.Description(s, p.Name)
			if d == "" {
				t.Errorf("%s key %s has no description in slurmconf/data/descriptions.tsv", s, p.Name)
			} else if !strings.HasSuffix(d, ".") || strings.Contains(d, "\t") || len(d) > 200 {
				t.Errorf("%s key %s: the description should be one sentence of at most 200 bytes: %q", s, p.Name, d)
			}
		}
	}
	if n != cat.Len() {
		t.Fatalf("walked %d keys, the catalog has %d", n, cat.Len())
	}
}

// cueVet validates a spec file against the exported CUE schema with the
// cue command when it is installed (make bench-tools), else with the same
// evaluator through CUE's Go API, and returns the error text.
func cueVet(t *testing.T, v slurmconf.Version, spec string) string {
	t.Helper()
	src, err := CUESource(v)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	schemaFile := filepath.Join(dir, "cluster.cue")
	if err := os.WriteFile(schemaFile, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if bin, err := exec.LookPath("cue"); err == nil {
		out, err := exec.Command(bin, "vet", "-d", "#Cluster", schemaFile, spec).CombinedOutput()
		if err == nil {
			return ""
		}
		return string(out)
	}
	t.Logf("cue not on PATH: validating with CUE's Go API")
	ctx := cuectx.New()
	root := ctx.CompileBytes(src)
	data, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	doc := asWrittenBytes(t, spec, data)
	if err := root.LookupPath(cue.ParsePath("#Cluster")).Unify(ctx.Encode(doc)).Validate(cue.Concrete(true)); err != nil {
		return err.Error()
	}
	return ""
}
