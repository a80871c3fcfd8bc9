package main

import (
	"io/fs"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// module is this module's import path.
const module = "github.com/slurmspec/slurmspec/"

// layers ranks the top-level directories (docs/architecture.md): a
// package may import packages of its own layer or a lower one, never a
// higher one. lint and render share a layer but are separate branches:
// neither imports the other.
var layers = map[string]int{
	"compiler": 0,
	"schema":   1,
	"lint":     2,
	"render":   2,
	"deploy":   3,
	"lab":      3, // the local Slurm lab: harness, sandbox, fidelity oracle
	"cmd":      4,
	"tools":    5, // developer tools (benchcmp), never installed
}

// knownViolations are the imports that run up the layers today. The list
// may only shrink: an import not listed fails the test, and so does a
// listed one that is gone (delete its line).
var knownViolations = map[string]string{
	// Empty: compiler/importconf moved to render/importconf and
	// deploy/model to render/pulumimodel. An entry is "pkg -> imported":
	// "why, and what will remove it".
}

// TestLayers checks every package's imports (not its tests': a test may
// use a higher layer's helpers to build its inputs) against the layers, in
// every module of the repository.
func TestLayers(t *testing.T) {
	var lines []string
	for _, dir := range modules(t, "../..") {
		cmd := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "./...")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go list in %s: %v\n%s", dir, err, out)
		}
		lines = append(lines, strings.Split(strings.TrimSpace(string(out)), "\n")...)
	}
	if len(lines) < 40 {
		t.Fatalf("go list listed %d packages; want the whole repository:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	found := map[string]bool{}
	for _, line := range lines {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], module)
		from, ok := layerOf(pkg)
		if !ok {
			t.Errorf("package %s is in no layer: add its top-level directory to layers", pkg)
			continue
		}
		for _, imp := range fields[1:] {
			if !strings.HasPrefix(imp, module) {
				continue
			}
			imp = strings.TrimPrefix(imp, module)
			to, ok := layerOf(imp)
			if !ok {
				continue // reported as a package of its own
			}
			if to > from || to == from && top(pkg) != top(imp) {
				found[pkg+" -> "+imp] = true
			}
		}
	}
	var got []string
	for v := range found {
		got = append(got, v)
	}
	sort.Strings(got)
	for _, v := range got {
		if _, known := knownViolations[v]; !known {
			t.Errorf("%s imports a package of a higher layer (or a sibling): see docs/architecture.md", v)
		}
	}
	for v, why := range knownViolations {
		if !found[v] {
			t.Errorf("known violation %q (%s) is gone: delete it from knownViolations", v, why)
		}
	}
}

// modules returns the directories under root that hold a go.mod: the root
// module and the helpers' nested modules (README.md, Install), which
// `go list ./...` in the root does not enter.
func modules(t *testing.T, root string) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != root && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_")) {
			return filepath.SkipDir
		}
		if !d.IsDir() && d.Name() == "go.mod" {
			dirs = append(dirs, filepath.Dir(p))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) < 5 {
		t.Fatalf("found the modules %q; want the root and the helpers'", dirs)
	}
	return dirs
}

func top(pkg string) string {
	t, _, _ := strings.Cut(pkg, "/")
	return t
}

func layerOf(pkg string) (int, bool) {
	l, ok := layers[top(pkg)]
	return l, ok
}
