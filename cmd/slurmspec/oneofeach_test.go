package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/lab/localslurm/slurmtest"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// The homes of shared facts and mechanisms (docs/architecture.md, "Homes
// of shared facts"): each test below fails when a second implementation
// of one of them appears outside its home.

// goFile is one parsed hand-written, non-test Go file of the tree (every
// module), with its path relative to the root.
type goFile struct {
	rel  string
	fset *token.FileSet
	file *ast.File
}

// treeFiles parses every non-test Go file under the repository root but
// testdata and hidden directories.
func treeFiles(t *testing.T) []goFile {
	t.Helper()
	return parseTree(t, false)
}

// parseTree parses the Go files under the repository root but testdata
// and hidden directories: the non-test files, or the test files.
func parseTree(t *testing.T, tests bool) []goFile {
	t.Helper()
	root := filepath.Join("..", "..")
	var out []goFile
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
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") != tests {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		out = append(out, goFile{rel: filepath.ToSlash(rel), fset: fset, file: f})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 50 {
		t.Fatalf("found only %d Go files under %s", len(out), root)
	}
	return out
}

// in reports whether rel is in one of the directories dirs.
func in(rel string, dirs ...string) bool {
	for _, d := range dirs {
		if strings.HasPrefix(rel, d+"/") {
			return true
		}
	}
	return false
}

// callName returns "pkg.Func" for a call of a package-qualified function,
// else "".
func callName(c *ast.CallExpr) string {
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return ""
	}
	return id.Name + "." + sel.Sel.Name
}

// stringArgs returns the values of a call's string literal arguments.
func stringArgs(c *ast.CallExpr) []string {
	var out []string
	for _, a := range c.Args {
		if lit, ok := a.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if s, err := strconv.Unquote(lit.Value); err == nil {
				out = append(out, s)
			}
		}
	}
	return out
}

// seriesCapture is a regular expression's group that captures a Slurm
// series, YY.MM: the regexp of a second series reader.
var seriesCapture = regexp.MustCompile(`\(\\d\+\\\.\\d\+\)|\(\\d\\d\\\.\\d\\d\)|\(\[0-9\]\+\\\.\[0-9\]\+\)`)

// TestOneSeriesReader: a Slurm version is read by catalog.ParseSeries
// alone (schema/catalog/series.go). Elsewhere, no function splits a string
// at "." and turns a piece into a number (as render/diff's
// parseSeries and lab/sandbox's ChooseVersion did), and no regular
// expression captures a YY.MM series (as lab/localslurm's seriesOf did).
func TestOneSeriesReader(t *testing.T) {
	for _, f := range treeFiles(t) {
		if in(f.rel, "schema/catalog") {
			continue
		}
		for _, decl := range f.file.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			splits, converts := false, false
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				c, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				switch name := callName(c); name {
				case "strings.Split", "strings.SplitN", "strings.Cut", "strings.FieldsFunc", "strings.SplitSeq":
					for _, s := range stringArgs(c) {
						splits = splits || s == "."
					}
				case "strconv.Atoi", "strconv.ParseInt", "strconv.ParseUint", "fmt.Sscanf":
					converts = true
				}
				return true
			})
			if splits && converts {
				t.Errorf("%s: %s splits at \".\" and reads numbers, as a version reader does: use catalog.ParseSeries", f.fset.Position(fn.Pos()), fn.Name.Name)
			}
		}
		ast.Inspect(f.file, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok || !strings.HasPrefix(callName(c), "regexp.") {
				return true
			}
			for _, s := range stringArgs(c) {
				if seriesCapture.MatchString(s) {
					t.Errorf("%s: regexp %q captures a release series: find the version's word and read it with catalog.ParseSeries", f.fset.Position(c.Pos()), s)
				}
			}
			return true
		})
	}
}

// TestRootFSScriptReadsReleasesTSV: which Debian suite ships a release and
// how the lab runs it is stated once, in schema/catalog/data/releases.tsv.
// The Go code reads it through catalog.Version.Debian; .ci/build-rootfs.sh
// reads the file with awk: what it would build (--list) is the catalog's
// rootfs releases, and it names no suite itself.
func TestRootFSScriptReadsReleasesTSV(t *testing.T) {
	script := filepath.Join("..", "..", ".ci", "build-rootfs.sh")
	out, err := exec.Command("bash", script, "--list").CombinedOutput()
	if err != nil {
		t.Fatalf("build-rootfs.sh --list: %v\n%s", err, out)
	}
	var want strings.Builder
	suites := map[string]bool{}
	for _, v := range catalog.Versions() {
		d := v.Debian()
		for _, w := range []string{d.Suite, d.Debootstrap} {
			if w != "" {
				suites[w] = true
			}
		}
		if d.Lab == catalog.LabRootFS {
			fmt.Fprintf(&want, "%s\t%s\t%s\n", v, d.Suite, d.Debootstrap)
		}
	}
	if string(out) != want.String() {
		t.Errorf("build-rootfs.sh --list:\n%s\nthe catalog's rootfs releases:\n%s", out, want.String())
	}
	src, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(src), "\n") {
		code, _, _ := strings.Cut(line, "#")
		for _, w := range regexp.MustCompile(`[a-z]+`).FindAllString(code, -1) {
			if suites[w] {
				t.Errorf("%s:%d names Debian %s: read it from releases.tsv", script, i+1, w)
			}
		}
	}
}

// TestOneShellQuoter: a word is quoted for a shell by compiler/shellquote
// alone. Elsewhere, no string literal holds the escape of a single quote
// inside single quotes (quote, backslash, quote, quote) or opens bash's
// $'...', and nothing calls mvdan.cc/sh's syntax.Quote (a word one helper
// printed bare, another quoted, a third let an escape sequence through).
func TestOneShellQuoter(t *testing.T) {
	for _, f := range treeFiles(t) {
		if in(f.rel, "compiler/shellquote") {
			continue
		}
		ast.Inspect(f.file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				if n.Kind != token.STRING {
					return true
				}
				s, err := strconv.Unquote(n.Value)
				if err == nil && (strings.Contains(s, `'\''`) || s == "$'") {
					t.Errorf("%s: %s quotes a shell word: use compiler/shellquote", f.fset.Position(n.Pos()), n.Value)
				}
			case *ast.CallExpr:
				if callName(n) == "syntax.Quote" {
					t.Errorf("%s: syntax.Quote quotes a shell word: use compiler/shellquote", f.fset.Position(n.Pos()))
				}
			}
			return true
		})
	}
}

// TestOneHelperFinder: a helper binary (slurmspec-deploy,
// slurmspec-online) is found by compiler/helperbin alone. Elsewhere, no
// function looks beside the running executable (os.Executable with
// filepath.EvalSymlinks or exec.LookPath), as the two finders that
// disagreed on a file without an execute bit did.
func TestOneHelperFinder(t *testing.T) {
	for _, f := range treeFiles(t) {
		if in(f.rel, "compiler/helperbin") {
			continue
		}
		for _, decl := range f.file.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			calls := map[string]bool{}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if c, ok := n.(*ast.CallExpr); ok {
					calls[callName(c)] = true
				}
				return true
			})
			if calls["os.Executable"] && (calls["filepath.EvalSymlinks"] || calls["exec.LookPath"]) {
				t.Errorf("%s: %s looks for a binary beside this one: use compiler/helperbin", f.fset.Position(fn.Pos()), fn.Name.Name)
			}
		}
	}
}

// TestOneRealSlurmGate: whether a test starts the local Slurm lab is
// decided by lab/localslurm/slurmtest.Require alone. No other Go file reads
// its variable, and no test under lab/ checks for root itself (as
// TestStopKillsOnlyItsNamespace did, skipping where a run that asked for
// real Slurm should fail) but inside the check it passes to Require.
func TestOneRealSlurmGate(t *testing.T) {
	for _, tests := range []bool{false, true} {
		for _, f := range parseTree(t, tests) {
			if in(f.rel, "lab/localslurm/slurmtest") {
				continue
			}
			ast.Inspect(f.file, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.BasicLit:
					if strings.Contains(n.Value, slurmtest.Env) {
						t.Errorf("%s: %s: ask slurmtest.Require whether a real-Slurm test runs", f.fset.Position(n.Pos()), n.Value)
					}
				case *ast.CallExpr:
					switch name := callName(n); {
					case name == "slurmtest.Require":
						return false // its prerequisite check may ask for root
					case name == "os.Geteuid" && tests && in(f.rel, "lab"):
						t.Errorf("%s: a lab test checks for root itself: pass the check to slurmtest.Require", f.fset.Position(n.Pos()))
					}
				}
				return true
			})
		}
	}
}

// TestOneAnalysisEntryPoint: a spec is analysed through
// (*pipeline.Pipeline).Analyse alone, whatever it is read from (a
// pipeline.Source: a file or standard input, bytes such as a git
// revision's, a loaded document). No other exported function or method of
// lint/pipeline or the packages under it is named Analyse... or Analyze...,
// or returns a *Result (as AnalyseFile, AnalyseFileWith, AnalyseBytes and
// AnalyseWith did); Stream, the many-files driver, calls Analyse.
func TestOneAnalysisEntryPoint(t *testing.T) {
	var found []string
	for _, f := range treeFiles(t) {
		if !strings.HasPrefix(f.rel, "lint/pipeline/") {
			continue
		}
		for _, decl := range f.file.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || !fn.Name.IsExported() {
				continue
			}
			name := fn.Name.Name
			if fn.Recv != nil && len(fn.Recv.List) == 1 {
				recv := fn.Recv.List[0].Type
				if star, ok := recv.(*ast.StarExpr); ok {
					recv = star.X
				}
				id, ok := recv.(*ast.Ident)
				if !ok || !id.IsExported() {
					continue
				}
				name = id.Name + "." + name
			}
			returnsResult := false
			if fn.Type.Results != nil {
				for _, r := range fn.Type.Results.List {
					if star, ok := r.Type.(*ast.StarExpr); ok {
						switch x := star.X.(type) {
						case *ast.Ident:
							returnsResult = returnsResult || x.Name == "Result"
						case *ast.SelectorExpr:
							returnsResult = returnsResult || x.Sel.Name == "Result"
						}
					}
				}
			}
			if returnsResult || strings.HasPrefix(fn.Name.Name, "Analy") {
				found = append(found, fmt.Sprintf("%s: %s", f.rel, name))
			}
		}
	}
	if want := []string{"lint/pipeline/pipeline.go: Pipeline.Analyse"}; strings.Join(found, "\n") != strings.Join(want, "\n") {
		t.Errorf("analysis entry points of lint/pipeline:\n  %s\nwant only %s: take a pipeline.Source (File, Bytes, Loaded) and AnalyseOptions instead of adding a variant",
			strings.Join(found, "\n  "), want[0])
	}
}

// TestOneLinkRule: the rule for paths a command is given (no symbolic
// link the checkout controls, unless --follow-symlinks) is
// compiler/load/linkflag's, in every binary: slurmspec, slurmspec-deploy
// and slurmspec-online. Elsewhere no string literal is the flag's name
// or holds the refusal's wording (a help text may mention the flag), and nothing but linkflag and the accounting
// file's loaders (schema/accounting, and lint/pipeline/accounting.go, which
// hands a linked path to it before it reads the file: a path the
// repository names, refused as a diagnostic) calls load.LinkOnPath: slurmspec-deploy once had no check at all, and a
// copy of the check drifts from the flag's help and the message.
func TestOneLinkRule(t *testing.T) {
	for _, f := range treeFiles(t) {
		if in(f.rel, "compiler/load/linkflag") {
			continue
		}
		ast.Inspect(f.file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				if n.Kind != token.STRING {
					return true
				}
				s, err := strconv.Unquote(n.Value)
				if err == nil && (strings.TrimPrefix(s, "--") == "follow-symlinks" || strings.Contains(s, "does not follow links in paths it is given")) {
					t.Errorf("%s: %s: use compiler/load/linkflag (its Flag registers and checks --follow-symlinks)", f.fset.Position(n.Pos()), n.Value)
				}
			case *ast.CallExpr:
				if callName(n) == "load.LinkOnPath" && !in(f.rel, "schema/accounting") && f.rel != "lint/pipeline/accounting.go" {
					t.Errorf("%s: load.LinkOnPath: check a path a command is given with compiler/load/linkflag", f.fset.Position(n.Pos()))
				}
			}
			return true
		})
	}
}

// shapeWords and shapeOptions are the words of a job shape: the kinds' names and the
// sbatch options that make them (exact, or a prefix before the value).
var (
	shapeWords   = []string{"one-task", "one-gpu", "all-gpus", "whole-node", "two-nodes", "max-time", "--exclusive", "-N1", "-N2", "-n1"}
	shapeOptions = []string{"--gpus=", "--mem-per-gpu=", "--mem=", "--time="}
)

// TestOneJobShapeDerivation: the standard job shapes of a partition (their
// kinds, sizes and options) are derived by render/jobshapes alone, for the
// job-level oracle (lab/jobmix) and for `slurmspec verify` (deploy/verify)
// both, which derived them twice, differently (verify asked a live cluster
// five kinds of its own, from the partition's largest node). Elsewhere, no
// non-test Go file spells a kind's name or an sbatch option of the mix
// (--exclusive, -N1, --gpus=...), and a Slurm REST job description
// (slurmapi.JobSpec) is made only from a shape: in a function that takes a
// jobshapes.Shape.
func TestOneJobShapeDerivation(t *testing.T) {
	for _, f := range treeFiles(t) {
		if in(f.rel, "render/jobshapes") {
			continue
		}
		ast.Inspect(f.file, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			bad := slices.Contains(shapeWords, s) || slices.ContainsFunc(shapeOptions, func(p string) bool { return strings.HasPrefix(s, p) })
			if bad {
				t.Errorf("%s: %s is a job shape's word: derive shapes with render/jobshapes (jobshapes.Derive, Shape.Args)", f.fset.Position(lit.Pos()), lit.Value)
			}
			return true
		})
		if in(f.rel, "deploy/slurmapi") {
			continue
		}
		for _, decl := range f.file.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			fromShape := false
			for _, p := range fn.Type.Params.List {
				if sel, ok := p.Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "Shape" {
					if id, ok := sel.X.(*ast.Ident); ok && id.Name == "jobshapes" {
						fromShape = true
					}
				}
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				cl, ok := n.(*ast.CompositeLit)
				if !ok {
					return true
				}
				if sel, ok := cl.Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "JobSpec" && !fromShape {
					t.Errorf("%s: %s makes a slurmapi.JobSpec of its own: translate a jobshapes.Shape (deploy/verify's submission)", f.fset.Position(cl.Pos()), fn.Name.Name)
				}
				return true
			})
		}
	}
}
