package realslurm

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/render"
	"github.com/slurmspec/slurmspec/render/output"
	"github.com/slurmspec/slurmspec/schema"
)

// slurmVersion is the Slurm release series of the Debian packages the
// harness runs (Debian 12: slurm-wlm 22.05.8).
const slurmVersion = "22.05"

// repoRoot is the module root, relative to this package's directory.
const repoRoot = "../../.."

// spec is one spec file to run on real Slurm.
type spec struct {
	// name is where the spec comes from: "examples/seed.jsonc", or
	// "testdata/script/diff.txtar:seed.yaml" for a file in an archive.
	name string
	data []byte
}

// compiled is a spec through load, schema, compile and lint.
type compiled struct {
	spec
	// cluster is nil when load, schema or compile reported an error.
	cluster *ir.Cluster
	// diags holds every diagnostic: load, schema, compile and lint.
	diags diag.List
}

// compileSpec runs the real pipeline (lint/pipeline) on a spec, as
// `slurmspec lint --slurm-version 22.05` run from the repository root
// does: load with the schema's verbatim keys, schema check, compile (a
// spec without a name gets cluster id "t", as with --cluster-id t), and
// every rule but those disabled. It never fails the test for a finding: the
// caller decides what the diagnostics mean.
func compileSpec(t testing.TB, s spec, disabled ...string) compiled {
	t.Helper()
	return compileSpecVersion(t, s, slurmVersion, disabled...)
}

// compileSpecVersion is compileSpec linting for the given Slurm series.
func compileSpecVersion(t testing.TB, s spec, version string, disabled ...string) compiled {
	t.Helper()
	sch, err := schema.New()
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Base(s.name)
	doc, l := load.Bytes(file, s.data, load.Options{Verbatim: sch.Verbatim})
	opt := pipeline.Options{SlurmVersion: version, Build: "debian", Disable: disabled}
	if doc != nil && doc.Root != nil && !slices.ContainsFunc(doc.Root.Fields, func(f *load.Field) bool { return f.Name == "name" }) {
		opt.ClusterID = "t"
	}
	p, err := pipeline.New(opt)
	if err != nil {
		t.Fatal(err)
	}
	settings, err := p.SettingsIn(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.Analyse(pipeline.Loaded(file, doc, l), pipeline.AnalyseOptions{Schema: sch, Settings: settings})
	if err != nil {
		t.Fatal(err)
	}
	out := compiled{spec: s, cluster: r.Cluster, diags: r.Diags}
	for _, d := range r.Diags {
		if d.Severity == diag.Error && lint.Find(pipeline.Rules(), d.Rule) == nil {
			out.cluster = nil // an error before lint: no cluster to run
		}
	}
	return out
}

// errorsText formats the error-level diagnostics for a failure message.
func errorsText(l diag.List) string {
	var lines []string
	for _, d := range l {
		if d.Severity == diag.Error {
			lines = append(lines, "  "+d.Pos.String()+": "+d.Message+" ["+d.Rule+"]")
		}
	}
	return strings.Join(lines, "\n")
}

// hasRule reports whether l holds an error-level finding of the rule.
func hasRule(l diag.List, rule string) bool {
	for _, d := range l {
		if d.Rule == rule && d.Severity == diag.Error {
			return true
		}
	}
	return false
}

// renderSpec renders a compiled spec for Slurm 22.05 into a new directory,
// through render/output as `slurmspec render` writes it.
func renderSpec(t testing.TB, c compiled) (string, render.Set) {
	t.Helper()
	return renderSpecVersion(t, c, slurmVersion)
}

// renderSpecVersion is renderSpec for the given Slurm series, as
// `slurmspec render --slurm-version <version>`.
func renderSpecVersion(t testing.TB, c compiled, version string) (string, render.Set) {
	t.Helper()
	set, l := render.Render(c.cluster, render.Options{SlurmVersion: version})
	if l.HasErrors() {
		t.Fatalf("render %s:\n%s", c.name, errorsText(l))
	}
	dir := filepath.Join(t.TempDir(), "out")
	if err := output.Write(dir, set); err != nil {
		t.Fatalf("write rendered %s: %v", c.name, err)
	}
	return dir, set
}

// renderKey identifies what a set gives Slurm: slurm.conf without its
// comments, and the scripts. cluster.json, the API body, is not Slurm's
// business (nor is the Pulumi project); comments name spec paths, which differ between spellings of one
// spec.
func renderKey(set render.Set) string {
	h := sha256.New()
	for _, a := range set {
		if a.Path == "cluster.json" || a.Path == output.Manifest || strings.HasPrefix(a.Path, "pulumi/") {
			continue
		}
		data := a.Data
		if a.Path == "slurm.conf" {
			var kept []string
			for line := range strings.SplitSeq(string(data), "\n") {
				if t := strings.TrimSpace(line); t != "" && !strings.HasPrefix(t, "#") {
					kept = append(kept, line)
				}
			}
			data = []byte(strings.Join(kept, "\n"))
		}
		h.Write([]byte(a.Path + "\x00"))
		h.Write(data)
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// exampleSpecs returns every spec in examples/ (not its subdirectories).
func exampleSpecs(t testing.TB) []spec {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(repoRoot, "examples"))
	if err != nil {
		t.Fatal(err)
	}
	var out []spec
	for _, e := range entries {
		if !e.Type().IsRegular() || !isSpecName(e.Name()) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(repoRoot, "examples", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, spec{name: "examples/" + e.Name(), data: data})
	}
	if len(out) == 0 {
		t.Fatal("no specs in examples/")
	}
	return out
}

// isSpecName reports whether a file name is a spec by its extension.
func isSpecName(name string) bool {
	return slices.Contains([]string{".yaml", ".yml", ".json", ".jsonc", ".cue"}, strings.ToLower(filepath.Ext(name)))
}

// goldenSpecs returns every spec file inside the testscript archives of
// testdata/script, in archive and file order.
func goldenSpecs(t testing.TB) []spec {
	t.Helper()
	archives, err := filepath.Glob(filepath.Join(repoRoot, "testdata", "script", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(archives)
	var out []spec
	for _, path := range archives {
		a, err := txtar.ParseFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range a.Files {
			if isSpecName(f.Name) {
				out = append(out, spec{name: "testdata/script/" + filepath.Base(path) + ":" + f.Name, data: f.Data})
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("no specs in testdata/script/*.txtar")
	}
	return out
}

// testSpec reads a spec this package adds under lab/localslurm/testdata.
func testSpec(t testing.TB, name string) spec {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return spec{name: "lab/localslurm/testdata/" + name, data: data}
}
