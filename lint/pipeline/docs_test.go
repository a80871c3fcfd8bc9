package pipeline_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/lint/rules"
)

// TestRulesDocIsCurrent fails when docs/rules.md is not what `slurmspec
// rules --markdown` writes for every rule a run can report (pipeline.Rules,
// the online rules included, so that every SARIF help link, which points
// at docs/rules.md#RULE, resolves). make generate runs it with
// SLURMSPEC_UPDATE=1 to rewrite the file.
func TestRulesDocIsCurrent(t *testing.T) {
	var b bytes.Buffer
	if err := rules.Markdown(&b, pipeline.Rules()); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("..", "..", "docs", "rules.md")
	if os.Getenv("SLURMSPEC_UPDATE") == "1" {
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	have, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (make generate writes it)", err)
	}
	if !bytes.Equal(have, b.Bytes()) {
		t.Errorf("%s is stale: run make generate", path)
	}
	for _, r := range pipeline.Rules() {
		if !strings.Contains(string(have), "\n## "+r.ID+"\n") {
			t.Errorf("docs/rules.md has no section (no #%s anchor) for %s", r.ID, r.ID)
		}
	}
}
