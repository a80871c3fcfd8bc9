package main

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// maxLines is the most lines a hand-written Go source file may have
// (docs/architecture.md): past it, a file holds more than one job.
const maxLines = 550

// longFiles are the hand-written files allowed over maxLines, each with
// why and what will remove it. The list may only shrink: a listed file
// that is back under the limit (or gone) fails the test; delete its line.
var longFiles = map[string]string{
	// Empty: tools/benchcmp is split by job.
}

// generated matches the line that marks a generated Go file.
var generated = regexp.MustCompile(`^// Code generated .* DO NOT EDIT\.$`)

// TestFileSizes: no hand-written, non-test Go file of the module is over
// maxLines lines, but those listed in longFiles.
func TestFileSizes(t *testing.T) {
	root := filepath.Join("..", "..")
	long := map[string]int{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		n, gen, err := countLines(path)
		if err != nil {
			return err
		}
		if !gen && n > maxLines {
			rel, _ := filepath.Rel(root, path)
			long[filepath.ToSlash(rel)] = n
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(long) == 0 && len(longFiles) == 0 {
		return
	}
	for f, n := range long {
		if _, ok := longFiles[f]; !ok {
			t.Errorf("%s has %d lines, more than %d: split it by job (docs/architecture.md)", f, n, maxLines)
		}
	}
	for f := range longFiles {
		if _, ok := long[f]; !ok {
			t.Errorf("%s is listed in longFiles but is not over %d lines (or is gone): delete its line", f, maxLines)
		}
	}
}

// countLines returns how many lines a file has and whether it is
// generated: a "Code generated ... DO NOT EDIT." line before the package
// clause.
func countLines(path string) (n int, gen bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	header := true
	for sc.Scan() {
		n++
		line := sc.Text()
		if header && generated.MatchString(line) {
			gen = true
		}
		if strings.HasPrefix(line, "package ") {
			header = false
		}
	}
	return n, gen, sc.Err()
}
