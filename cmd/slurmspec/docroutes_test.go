package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// docRoutes are the command blocks a newcomer follows as written, and the
// testscripts that run them (paths from the repository root). Every
// command of a route's ```sh blocks must appear in one of its scripts
// after exec (or ! exec, where the doc's command exits non-zero by
// design, as diff and render --check do on a change); "CMD > FILE" as
// exec CMD followed by cp stdout FILE. So a command a doc changes is run
// before it ships: the docs once told a newcomer to run slurmspec-deploy
// accounting plan on examples/a4-training.yaml, which has no accounting
// file.
var docRoutes = []struct {
	doc, section string
	scripts      []string
}{
	{"README.md", "## Quick start", []string{"testdata/script/doc_routes.txtar"}},
	{"README.md", "## In CI: render --check and diff", []string{"testdata/script/doc_routes.txtar"}},
	{"README.md", "## Editor support and cue vet", []string{"testdata/script/doc_routes.txtar"}},
	{"docs/accounting.md", "## Plan and apply through the Slurm Job API", []string{"cmd/slurmspec-deploy/testdata/script/doc_routes.txtar"}},
}

// notScripted are the commands of those blocks that no testscript runs,
// and where they are checked instead. A command of another name fails
// the test until it is scripted or listed here.
var notScripted = map[string]string{
	"go":  "go install …@COMMIT: TestInstallByVersion and TestReleaseRehearsal install with the real go command",
	"cue": "cue is not installed by the repository (make bench-tools); lint/rules/schemaagree_test.go checks cue vet's verdicts",
}

// TestDocRoutesAreScripted holds each route's commands to its scripts,
// which TestScripts (and slurmspec-deploy's TestScripts) run.
func TestDocRoutesAreScripted(t *testing.T) {
	for _, r := range docRoutes {
		data, err := os.ReadFile(filepath.Join("..", "..", r.doc))
		if err != nil {
			t.Fatal(err)
		}
		cmds := shellCommands(section(string(data), r.section))
		if len(cmds) == 0 {
			t.Errorf("%s, %q: no ```sh block (moved? update docRoutes)", r.doc, r.section)
			continue
		}
		var script []string
		for _, s := range r.scripts {
			script = append(script, scriptCommands(t, filepath.Join("..", "..", s))...)
		}
		for _, c := range cmds {
			name, _, _ := strings.Cut(c, " ")
			if _, ok := notScripted[name]; ok {
				continue
			}
			if !scripted(script, c) {
				t.Errorf("%s, %q: %q is not run by %s (add it there, after exec, with what it must print)", r.doc, r.section, c, strings.Join(r.scripts, ", "))
			}
		}
	}
}

// scripted reports whether the script runs c: "exec c", or for
// "CMD > FILE", "exec CMD" then "cp stdout FILE".
func scripted(script []string, c string) bool {
	cmd, file, redirect := strings.Cut(c, " > ")
	for i, l := range script {
		if redirect {
			if l == "exec "+strings.TrimSpace(cmd) && i+1 < len(script) && script[i+1] == "cp stdout "+strings.TrimSpace(file) {
				return true
			}
		} else if l == "exec "+c {
			return true
		}
	}
	return false
}

// section returns the text under heading, up to the next heading of its
// level or above.
func section(doc, heading string) string {
	level := strings.Index(heading, " ")
	_, after, ok := strings.Cut(doc, "\n"+heading+"\n")
	if !ok {
		return ""
	}
	lines := strings.Split(after, "\n")
	inFence := false
	for i, l := range lines {
		if strings.HasPrefix(l, "```") {
			inFence = !inFence
		}
		if !inFence && strings.HasPrefix(l, "#") {
			if n := strings.Index(l, " "); n > 0 && n <= level && strings.Trim(l[:n], "#") == "" {
				return strings.Join(lines[:i], "\n")
			}
		}
	}
	return after
}

// shellCommands returns the commands of the ```sh blocks of text: lines
// joined at a trailing backslash, comments and white space runs removed.
func shellCommands(text string) []string {
	var cmds []string
	inSh, pending := false, ""
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "```") {
			inSh = !inSh && strings.TrimSpace(strings.TrimPrefix(l, "```")) == "sh"
			continue
		}
		if !inSh {
			continue
		}
		if s, ok := strings.CutSuffix(stripComment(l), "\\"); ok {
			pending += s + " "
			continue
		}
		if c := strings.Join(strings.Fields(pending+stripComment(l)), " "); c != "" {
			cmds = append(cmds, c)
		}
		pending = ""
	}
	return cmds
}

// scriptCommands returns a testscript's command lines (before its first
// file), comments and white space runs removed, "! exec" as "exec".
func scriptCommands(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cmds []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(l, "-- ") {
			break
		}
		c := strings.Join(strings.Fields(stripComment(l)), " ")
		cmds = append(cmds, strings.TrimPrefix(c, "! "))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cmds
}

// stripComment removes a # comment that begins a word outside quotes.
func stripComment(l string) string {
	var quote rune
	for i, r := range l {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == '#' && (i == 0 || l[i-1] == ' ' || l[i-1] == '\t'):
			return strings.TrimRight(l[:i], " \t")
		}
	}
	return l
}

// docExamples are a doc's example inputs and outputs, each the first
// fenced block after a line of the doc that starts with after, and the
// file of a testscript that holds it: the script gives the inputs to
// slurmspec and compares what it prints with the outputs, so the doc
// shows what the newcomer gets.
var docExamples = []struct {
	doc, after, script, file string
}{
	{"docs/output-formats.md", "The examples of this page lint", "testdata/script/doc_output_formats.txtar", "a.yaml"},
	{"docs/output-formats.md", "`slurmspec lint a.yaml`:", "testdata/script/doc_output_formats.txtar", "text.txt"},
	{"docs/output-formats.md", "`slurmspec lint --format json a.yaml missing.yaml`:", "testdata/script/doc_output_formats.txtar", "json.json"},
	{"docs/output-formats.md", "and line (`slurmspec lint --format github a.yaml missing.yaml`):", "testdata/script/doc_output_formats.txtar", "github.txt"},
}

// TestDocExamplesAreCurrent: each example block of docExamples is,
// byte for byte, the script's file, which TestScripts checks against
// slurmspec's output.
func TestDocExamplesAreCurrent(t *testing.T) {
	for _, e := range docExamples {
		data, err := os.ReadFile(filepath.Join("..", "..", e.doc))
		if err != nil {
			t.Fatal(err)
		}
		block, ok := blockAfter(string(data), e.after)
		if !ok {
			t.Errorf("%s: no fenced block after a line starting %q (moved? update docExamples)", e.doc, e.after)
			continue
		}
		ar, err := txtar.ParseFile(filepath.Join("..", "..", e.script))
		if err != nil {
			t.Fatal(err)
		}
		var want []byte
		for _, f := range ar.Files {
			if f.Name == e.file {
				want = f.Data
			}
		}
		if want == nil {
			t.Errorf("%s has no file %s", e.script, e.file)
		} else if block != string(want) {
			t.Errorf("%s: the block after %q is not what slurmspec prints (%s, %s); copy that file into the doc:\n--- doc\n%s--- %s\n%s", e.doc, e.after, e.script, e.file, block, e.file, want)
		}
	}
}

// blockAfter returns the content of the first fenced block after the
// first line of doc that starts with after.
func blockAfter(doc, after string) (string, bool) {
	lines := strings.SplitAfter(doc, "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, after) {
			continue
		}
		for j := i + 1; j < len(lines); j++ {
			if !strings.HasPrefix(lines[j], "```") {
				continue
			}
			for k := j + 1; k < len(lines); k++ {
				if strings.HasPrefix(lines[k], "```") {
					return strings.Join(lines[j+1:k], ""), true
				}
			}
			return "", false
		}
		return "", false
	}
	return "", false
}

// TestDocCopiesAgree: a session shown both in README.md and in its doc
// page is the same on both (the sandbox session was fixed in one, once,
// and not the other).
func TestDocCopiesAgree(t *testing.T) {
	for _, c := range []struct{ a, b, after string }{
		{"README.md", "docs/sandbox.md", "this run, and says so:"},
	} {
		var blocks [2]string
		for i, doc := range []string{c.a, c.b} {
			data, err := os.ReadFile(filepath.Join("..", "..", doc))
			if err != nil {
				t.Fatal(err)
			}
			var ok bool
			if blocks[i], ok = blockAfter(string(data), c.after); !ok {
				t.Fatalf("%s: no fenced block after a line starting %q", doc, c.after)
			}
		}
		if blocks[0] != blocks[1] {
			t.Errorf("the block after %q differs between %s and %s: make them the same", c.after, c.a, c.b)
		}
	}
}
