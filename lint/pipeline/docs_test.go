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
// rules --markdown` writes for every id of the diagnostic catalog
// (pipeline.Catalog: the online rules and the other stages' ids included,
// so that every SARIF help link, which points at docs/rules.md#ID,
// resolves). make generate runs it with SLURMSPEC_UPDATE=1 to rewrite the
// file.
func TestRulesDocIsCurrent(t *testing.T) {
	var b bytes.Buffer
	if err := rules.Markdown(&b, pipeline.Catalog().Entries()); err != nil {
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
	for _, e := range pipeline.Catalog().Entries() {
		if e.Anchor() != e.ID || !strings.Contains(string(have), "\n## "+e.ID+"\n") {
			t.Errorf("docs/rules.md has no section (no #%s anchor) for %s", e.Anchor(), e.ID)
		}
	}
}
