package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/slurmspec/slurmspec/cmd/slurmspec/cli"
)

// TestEveryDiagnosticIsComplete lints every spec in the testscript archives
// and checks that each diagnostic has a position, a spec path or file-level
// scope, a rule id, a severity and a hint.
func TestEveryDiagnosticIsComplete(t *testing.T) {
	archives, _ := filepath.Glob("../../testdata/script/*.txtar")
	dir := t.TempDir()
	var files []string
	for _, a := range archives {
		ar, err := txtar.ParseFile(a)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			ext := filepath.Ext(f.Name)
			if ext != ".json" && ext != ".jsonc" && ext != ".yaml" && ext != ".cue" || strings.Contains(f.Name, "config") {
				continue
			}
			p := filepath.Join(dir, strings.TrimSuffix(filepath.Base(a), ".txtar")+"-"+strings.ReplaceAll(f.Name, "/", "-"))
			if err := os.WriteFile(p, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, p)
		}
	}
	var out, errb bytes.Buffer
	cli.Run(append([]string{"lint", "--format", "json"}, files...), &out, &errb)
	var report struct {
		Files []struct {
			File        string `json:"file"`
			Diagnostics []struct {
				Rule, Severity, File, Path, Message, Hint string
				Line, Column                              int
			} `json:"diagnostics"`
		} `json:"files"`
	}
	if err := json.Unmarshal(out.Bytes(), &report); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	n := 0
	for _, f := range report.Files {
		for _, d := range f.Diagnostics {
			n++
			if d.Rule == "" || d.Severity == "" || d.Message == "" || d.Hint == "" || d.File == "" {
				t.Errorf("incomplete diagnostic: %+v", d)
			}
			if d.Line == 0 && d.Rule != "load-io" && d.Rule != "load-limit" {
				t.Errorf("diagnostic without a line: %+v", d)
			}
		}
	}
	if n < 50 {
		t.Errorf("only %d diagnostics checked; the test data should exercise many rules", n)
	}
}
