package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExplainKnowsEveryID: `slurmspec explain ID` prints the catalog's
// entry for every id of the diagnostic catalog (lint/pipeline's
// TestEveryEmittedIDIsCatalogued proves every id the code emits is in it),
// with its stage.
func TestExplainKnowsEveryID(t *testing.T) {
	cat := diagCatalog()
	if len(cat.IDs()) < 130 {
		t.Fatalf("the catalog has %d ids", len(cat.IDs()))
	}
	for _, d := range cat.Entries() {
		var out, errOut bytes.Buffer
		if code := Run([]string{"explain", d.ID}, &out, &errOut); code != 0 {
			t.Errorf("explain %s: exit %d: %s", d.ID, code, errOut.String())
			continue
		}
		head := fmt.Sprintf("%s (%s): %s\n\nStage: %s. ", d.ID, d.Severity, d.Summary, d.Stage)
		if !strings.HasPrefix(out.String(), head) || !strings.HasSuffix(out.String(), d.Doc) {
			t.Errorf("explain %s printed %q, want %q ... its doc", d.ID, out.String(), head)
		}
	}
}

// TestSARIFAgreesWithExplain: a schema-type finding in SARIF has a help
// link to its section of docs/rules.md and the summary `explain
// schema-type` prints, not a made-up one (issue #24).
func TestSARIFAgreesWithExplain(t *testing.T) {
	spec := filepath.Join(t.TempDir(), "toplist.yaml")
	if err := os.WriteFile(spec, []byte("- a\n- b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := Run([]string{"lint", "--format", "sarif", spec}, &out, &errOut); code != 1 {
		t.Fatalf("lint: exit %d: %s", code, errOut.String())
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID               string
						HelpURI          string
						ShortDescription struct{ Text string }
					}
				}
			}
			Results []struct{ RuleID string }
		}
	}
	if err := json.Unmarshal(out.Bytes(), &log); err != nil || len(log.Runs) != 1 || len(log.Runs[0].Results) == 0 || log.Runs[0].Results[0].RuleID != "schema-type" {
		t.Fatalf("%v: %s", err, out.String())
	}
	var explain bytes.Buffer
	if code := Run([]string{"explain", "schema-type"}, &explain, &errOut); code != 0 {
		t.Fatalf("explain: exit %d", code)
	}
	first, _, _ := strings.Cut(explain.String(), "\n")
	_, summary, _ := strings.Cut(first, ": ")
	found := false
	for _, rd := range log.Runs[0].Tool.Driver.Rules {
		if rd.ID != "schema-type" {
			continue
		}
		found = true
		if rd.ShortDescription.Text != summary || summary == "" {
			t.Errorf("SARIF summary %q, explain's %q", rd.ShortDescription.Text, summary)
		}
		if !strings.HasSuffix(rd.HelpURI, "/docs/rules.md#schema-type") {
			t.Errorf("SARIF helpUri %q", rd.HelpURI)
		}
	}
	if !found {
		t.Error("no SARIF rule for schema-type")
	}
}
