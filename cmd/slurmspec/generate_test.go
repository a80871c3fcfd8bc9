package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestMakeGenerate checks the Makefile's generate target: every test it
// runs to rewrite a generated file exists in the package it names (a
// misspelt -run pattern matches nothing, and go test passes, rewriting
// nothing).
func TestMakeGenerate(t *testing.T) {
	data, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	_, recipe, ok := strings.Cut(string(data), "\ngenerate:\n")
	if !ok {
		t.Fatal("the Makefile has no generate target")
	}
	if end := strings.Index(recipe, "\n\n"); end >= 0 {
		recipe = recipe[:end]
	}
	runRe := regexp.MustCompile(`test (\./\S+) -run '\^(\w+)\$\$'`)
	runs := runRe.FindAllStringSubmatch(recipe, -1)
	if len(runs) < 2 || strings.Count(recipe, " -run ") != len(runs) {
		t.Fatalf("generate runs %d tests as `go test ./PKG -run '^TestName$$'`, want every -run in that form:\n%s", len(runs), recipe)
	}
	for _, m := range runs {
		dir, name := filepath.Join("..", "..", filepath.FromSlash(m[1])), m[2]
		files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			found = found || strings.Contains(string(src), "\nfunc "+name+"(t *testing.T)")
		}
		if !found {
			t.Errorf("make generate runs %s in %s, which has no such test", name, m[1])
		}
	}
}
