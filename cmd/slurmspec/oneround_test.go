package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/slurmspec/slurmspec/cmd/slurmspec/cli"
	"github.com/slurmspec/slurmspec/lint/format"
)

// oneRoundProblems are the eleven independent mistakes of each spec of
// testdata/script/one_round.txtar (issue 18, "one round"), by rule id.
var oneRoundProblems = []string{
	"preemption-never-fires",
	"priority-without-multifactor",
	"schema-enum",
	"schema-filestore-name",
	"schema-pattern",
	"schema-reference",
	"schema-unknown-field",
	"script-syntax",
	"unknown-config-key",
	"unknown-config-key",
	"unused-pool",
}

// finding is what every output format says about a diagnostic: its rule
// and where it is.
type finding struct {
	rule      string
	line, col int
}

func (f finding) String() string { return fmt.Sprintf("%d:%d %s", f.line, f.col, f.rule) }

var (
	textLine   = regexp.MustCompile(`(?m)^[^ \n]+:(\d+):(\d+): \w+: .* \[([a-z0-9-]+)\]$`)
	githubLine = regexp.MustCompile(`(?m)^::\w+ file=[^,]+,line=(\d+),col=(\d+),title=([a-z0-9-]+)::`)
)

// readFindings reads a lint run's output in a format. A format without a
// reader here fails the test: add one, so that one round is proved for it.
func readFindings(t *testing.T, name string, out []byte) []finding {
	t.Helper()
	var got []finding
	atoi := func(s string) int { n, _ := strconv.Atoi(s); return n }
	switch name {
	case "text", "github":
		re := textLine
		if name == "github" {
			re = githubLine
		}
		for _, m := range re.FindAllSubmatch(out, -1) {
			got = append(got, finding{string(m[3]), atoi(string(m[1])), atoi(string(m[2]))})
		}
	case "json":
		var r format.JSONReport
		if err := json.Unmarshal(out, &r); err != nil {
			t.Fatalf("json: %v", err)
		}
		for _, f := range r.Files {
			for _, d := range f.Diagnostics {
				got = append(got, finding{d.Rule, d.Line, d.Column})
			}
		}
	case "sarif":
		var r struct {
			Runs []struct {
				Results []struct {
					RuleID    string `json:"ruleId"`
					Locations []struct {
						PhysicalLocation struct {
							Region struct{ StartLine, StartColumn int }
						}
					}
				}
			}
		}
		if err := json.Unmarshal(out, &r); err != nil {
			t.Fatalf("sarif: %v", err)
		}
		for _, run := range r.Runs {
			for _, res := range run.Results {
				f := finding{rule: res.RuleID}
				if len(res.Locations) > 0 {
					f.line, f.col = res.Locations[0].PhysicalLocation.Region.StartLine, res.Locations[0].PhysicalLocation.Region.StartColumn
				}
				got = append(got, f)
			}
		}
	default:
		t.Fatalf("no reader for the output format %q: add one to readFindings", name)
	}
	slices.SortFunc(got, func(a, b finding) int {
		if a.line != b.line {
			return a.line - b.line
		}
		if a.col != b.col {
			return a.col - b.col
		}
		return bytes.Compare([]byte(a.rule), []byte(b.rule))
	})
	return got
}

// TestOneRoundInEveryFormat lints each spec of one_round.txtar in every
// output format slurmspec has and checks that each reports the eleven
// problems, at the same places as the json format.
func TestOneRoundInEveryFormat(t *testing.T) {
	ar, err := txtar.ParseFile("../../testdata/script/one_round.txtar")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var specs []string
	for _, f := range ar.Files {
		if m, _ := filepath.Match("spec.*", f.Name); m {
			p := filepath.Join(dir, f.Name)
			if err := os.WriteFile(p, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
			specs = append(specs, p)
		}
	}
	if len(specs) != 3 {
		t.Fatalf("one_round.txtar has %d specs, want spec.yaml, spec.jsonc and spec.cue", len(specs))
	}
	for _, spec := range specs {
		run := func(name string) []finding {
			var out, errb bytes.Buffer
			if code := cli.Run([]string{"lint", "--format", name, spec}, &out, &errb); code != 1 {
				t.Errorf("%s --format %s: exit %d, want 1\n%s", filepath.Base(spec), name, code, errb.String())
			}
			return readFindings(t, name, out.Bytes())
		}
		want := run("json")
		var rules []string
		for _, f := range want {
			rules = append(rules, f.rule)
		}
		slices.Sort(rules)
		if !slices.Equal(rules, oneRoundProblems) {
			t.Errorf("%s: reports %v,\nwant %v", filepath.Base(spec), rules, oneRoundProblems)
		}
		for _, name := range format.Formats().Names() {
			if got := run(name); !slices.Equal(got, want) {
				t.Errorf("%s --format %s reports\n  %v\nwhile --format json reports\n  %v", filepath.Base(spec), name, got, want)
			}
		}
	}
}
