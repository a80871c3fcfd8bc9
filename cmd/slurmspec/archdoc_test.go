package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestArchitectureDocPaths: every file and directory of the module that
// docs/architecture.md names (its layers, homes and recipes) exists, so
// the recipes' file lists stay true as code moves. A Go identifier after a
// package path (compiler/diag.Diagnostic) names the package; a NAME is a
// placeholder.
func TestArchitectureDocPaths(t *testing.T) {
	root := filepath.Join("..", "..")
	doc, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	tops := regexp.MustCompile(`^(compiler|schema|lint|render|deploy|cmd|docs|examples|testdata|\.ci)/`)
	ident := regexp.MustCompile(`\.[A-Z][A-Za-z]*$`)
	checked := 0
	for _, m := range regexp.MustCompile("`([^`\n]+)`").FindAllStringSubmatch(string(doc), -1) {
		p := m[1]
		if !tops.MatchString(p) || strings.Contains(p, "NAME") || strings.ContainsAny(p, " (") {
			continue
		}
		p = strings.TrimSuffix(strings.TrimSuffix(p, "/..."), "/")
		p = ident.ReplaceAllString(p, "")
		matches, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil || len(matches) == 0 {
			t.Errorf("docs/architecture.md names %s, which does not exist", m[1])
		}
		checked++
	}
	if checked < 30 {
		t.Errorf("checked only %d paths: is the doc still parsed?", checked)
	}
}
