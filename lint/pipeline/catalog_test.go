package pipeline_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/lint/pipeline/pipelinetest"
	"github.com/slurmspec/slurmspec/schema"
)

// repoRoot is the repository, seen from this package.
const repoRoot = "../.."

// idLiteral is the form of a diagnostic id.
var idLiteral = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)

// TestEveryEmittedIDIsCatalogued: every diagnostic id any code path of the
// repository can emit is in the catalog. Statically, the Go sources of
// every module (tests aside) are read with go/ast for id literals where a
// diagnostic is made or its id compared (sourceIDs), and the CUE schema
// for the ids of its messages. Dynamically, the ids the pipeline reports
// on the test corpus (the testscript archives' specs, and every way the
// schema can refuse a value of the examples) and the ids the goldens
// record are looked up. A branch that adds a literal id without its
// catalog entry fails here after the merge.
func TestEveryEmittedIDIsCatalogued(t *testing.T) {
	cat := pipeline.Catalog()
	found := sourceIDs(t, repoRoot)
	for _, id := range []string{"load-syntax", "schema-type", "schema-pattern", "schema-reference", "render-managed", "cluster-identity", "internal-error"} {
		if _, ok := found[id]; !ok {
			t.Errorf("the source scan did not find %s: the scan is broken", id)
		}
	}
	for id, where := range emittedOnCorpus(t) {
		if _, ok := found[id]; !ok {
			found[id] = where
		}
	}
	var missing []string
	for id, where := range found {
		if _, ok := cat.Lookup(id); !ok {
			missing = append(missing, id+" ("+where+")")
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("diagnostic id %s is not in the catalog: add it to compiler/diag/ids.Stages (or its package's entries)", m)
	}
}

// sourceIDs scans the Go files (not tests) of every module under root and
// the CUE files for diagnostic id literals, by id with one place each:
//
//   - a key Rule or rule of a composite literal (diag.Diagnostic{Rule: ...},
//     the schema's generated message tables), given as a string literal or
//     a constant of the same file;
//   - the first argument of an Errorf, Warnf or Infof method call (diag.List's
//     constructors), not fmt's;
//   - a constant or variable named Rule... (load.RuleIO, render.RuleManaged);
//   - a comparison with or an assignment to a .Rule field;
//   - in CUE, an id at the start of a message ("schema-id: ...") or in @msg.
func sourceIDs(t *testing.T, root string) map[string]string {
	t.Helper()
	found, err := scanTree(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(found) < 30 {
		t.Fatalf("found only %d ids: the scan is broken", len(found))
	}
	return found
}

// scanTree is sourceIDs' walk.
func scanTree(root string) (map[string]string, error) {
	found := map[string]string{}
	fset := token.NewFileSet()
	inCUE := regexp.MustCompile(`"(schema-[a-z-]+)[:"]|@msg\((schema-[a-z-]+),`)
	add := func(id string, pos token.Pos) {
		if idLiteral.MatchString(id) {
			if _, seen := found[id]; !seen {
				found[id] = fset.Position(pos).String()
			}
		}
	}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		switch {
		case strings.HasSuffix(name, ".cue"):
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, m := range inCUE.FindAllStringSubmatch(string(b), -1) {
				for _, id := range m[1:] {
					if id != "" {
						if _, seen := found[id]; !seen {
							found[id] = path
						}
					}
				}
			}
		case strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go"):
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool { scanNode(n, add); return true })
		}
		return nil
	})
	return found, err
}

// scanNode reports the id literals of one syntax node (sourceIDs).
func scanNode(n ast.Node, add func(string, token.Pos)) {
	switch n := n.(type) {
	case *ast.KeyValueExpr:
		if k, ok := n.Key.(*ast.Ident); ok && (k.Name == "Rule" || k.Name == "rule") {
			stringValue(n.Value, add)
		}
	case *ast.CallExpr:
		sel, ok := n.Fun.(*ast.SelectorExpr)
		if !ok || len(n.Args) == 0 {
			break
		}
		if x, ok := sel.X.(*ast.Ident); ok && x.Name == "fmt" {
			break
		}
		switch sel.Sel.Name {
		case "Errorf", "Warnf", "Infof":
			stringValue(n.Args[0], add)
		}
	case *ast.ValueSpec:
		for i, name := range n.Names {
			if strings.HasPrefix(name.Name, "Rule") && i < len(n.Values) {
				stringValue(n.Values[i], add)
			}
		}
	case *ast.BinaryExpr:
		if n.Op == token.EQL || n.Op == token.NEQ {
			if isRuleField(n.X) {
				stringValue(n.Y, add)
			}
			if isRuleField(n.Y) {
				stringValue(n.X, add)
			}
		}
	case *ast.AssignStmt:
		for i, lhs := range n.Lhs {
			if isRuleField(lhs) && i < len(n.Rhs) {
				stringValue(n.Rhs[i], add)
			}
		}
	}
}

// isRuleField reports whether e is x.Rule.
func isRuleField(e ast.Expr) bool {
	sel, ok := e.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Rule"
}

// stringValue reports e when it is a string literal, or a constant of the
// file whose value is one.
func stringValue(e ast.Expr, add func(string, token.Pos)) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.STRING {
			if s, err := strconv.Unquote(e.Value); err == nil {
				add(s, e.Pos())
			}
		}
	case *ast.Ident:
		if e.Obj != nil && e.Obj.Kind == ast.Con {
			if spec, ok := e.Obj.Decl.(*ast.ValueSpec); ok {
				for i, name := range spec.Names {
					if name.Name == e.Name && i < len(spec.Values) {
						if lit, ok := spec.Values[i].(*ast.BasicLit); ok {
							stringValue(lit, add)
						}
					}
				}
			}
		}
	}
}

// emittedOnCorpus runs the pipeline on the test corpus and returns every
// id it reports, and every id the testscript goldens record, with where
// it was seen: the specs of the testscript archives (testdata/script), and
// the examples with each of the schema's refusals pipelinetest.Mutations
// makes.
func emittedOnCorpus(t *testing.T) map[string]string {
	t.Helper()
	p, err := pipeline.New(pipeline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sch, err := schema.New()
	if err != nil {
		t.Fatal(err)
	}
	s, err := p.SettingsIn(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	record := func(r *pipeline.Result, where string) {
		for _, d := range r.Diags {
			if _, seen := out[d.Rule]; !seen {
				out[d.Rule] = where
			}
		}
	}
	// The goldens' findings, in the text ("... [id]"), json and sarif
	// formats.
	recorded := regexp.MustCompile(`(?m)^\S+: (?:error|warning|info): .* \[([a-z0-9-]+)\]$|"(?:rule|ruleId)": "([a-z0-9-]+)"`)
	archives, err := filepath.Glob(filepath.Join(repoRoot, "testdata", "script", "*.txtar"))
	if err != nil || len(archives) < 10 {
		t.Fatalf("testscript archives: %v (%d)", err, len(archives))
	}
	for _, path := range archives {
		a, err := txtar.ParseFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range a.Files {
			where := filepath.Base(path) + ":" + f.Name
			for _, m := range recorded.FindAllStringSubmatch(string(f.Data), -1) {
				if id := m[1] + m[2]; out[id] == "" {
					out[id] = where
				}
			}
			switch filepath.Ext(f.Name) {
			case ".yaml", ".yml", ".json", ".jsonc", ".cue":
				if !strings.Contains(f.Name, ".slurmspec") {
					r, err := p.Analyse(pipeline.Bytes(f.Name, f.Data), pipeline.AnalyseOptions{Schema: sch, Settings: s})
					if err != nil {
						t.Fatal(err)
					}
					record(r, where)
				}
			}
		}
	}
	for _, file := range []string{"../../examples/a4-training.yaml", "../../examples/seed.jsonc"} {
		base, err := p.Analyse(pipeline.File(file, nil), pipeline.AnalyseOptions{Schema: sch})
		if err != nil || base.Doc == nil {
			t.Fatalf("%s: %v", file, err)
		}
		for _, m := range pipelinetest.Mutations(base.Doc.Root) {
			doc := *base.Doc
			doc.Root = pipelinetest.Clone(base.Doc.Root)
			m.Apply(doc.Root)
			r, err := p.Analyse(pipeline.Loaded(file, &doc, nil), pipeline.AnalyseOptions{Schema: sch, Settings: s})
			if err != nil {
				t.Fatal(err)
			}
			record(r, filepath.Base(file)+" with "+m.What)
		}
	}
	if len(out) < 10 {
		t.Fatalf("the corpus reported only %d ids: %v", len(out), out)
	}
	return out
}

// TestSourceIDsScan: the scan finds an id in every form a new diagnostic
// of another branch could take, and no format string of fmt.
func TestSourceIDsScan(t *testing.T) {
	dir := t.TempDir()
	src := `package x

const RuleNew = "load-new"

const local = "local-const"

func f(l *diag.List, d diag.Diagnostic) {
	l.Errorf("syntax-new", pos, "", "", "bad")
	l.Warnf(local, pos, "", "", "bad")
	l.Add(diag.Diagnostic{Rule: "render-new"})
	_ = &message{rule: "schema-new"}
	if d.Rule == "compare-new" {
		d.Rule = "assign-new"
	}
	_ = fmt.Errorf("not-an-id")
}
`
	if err := os.WriteFile(filepath.Join(dir, "x.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "x_test.go"), []byte("package x\nvar _ = diag.Diagnostic{Rule: \"test-only\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	found, err := scanTree(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for id := range found {
		got = append(got, id)
	}
	sort.Strings(got)
	if want := "assign-new compare-new load-new local-const render-new schema-new syntax-new"; strings.Join(got, " ") != want {
		t.Errorf("found %q, want %q", strings.Join(got, " "), want)
	}
}
