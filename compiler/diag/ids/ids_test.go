package ids_test

import (
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/diag/ids"
)

// TestStagesValid: the other stages' entries form a valid catalog, each
// of a stage other than lint and online, none configurable.
func TestStagesValid(t *testing.T) {
	cat, err := ids.New(ids.Stages())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range cat.Entries() {
		if e.Stage == ids.Lint || e.Stage == ids.Online || e.Configurable() || e.Disableable() {
			t.Errorf("%s: stage %s, configurable %v", e.ID, e.Stage, e.Configurable())
		}
	}
	if e, ok := cat.Lookup("schema-type"); !ok || e.Stage != ids.Schema || e.Summary != "A value has the wrong type" || e.Anchor() != "schema-type" {
		t.Errorf("schema-type: %+v", e)
	}
}

// TestValidate: ids kebab-case and unique, a known stage, a one-line
// summary, a doc, and a guard only on an error-level lint rule.
func TestValidate(t *testing.T) {
	ok := ids.Entry{ID: "a-b", Stage: ids.Lint, Severity: diag.Warning, Summary: "s", Doc: "d"}
	for _, tc := range []struct {
		mod  func(*ids.Entry)
		want string
	}{
		{func(e *ids.Entry) { e.ID = "A_b" }, "not kebab-case"},
		{func(e *ids.Entry) { e.Stage = "lnt" }, "unknown stage"},
		{func(e *ids.Entry) { e.Summary = "s." }, "summary"},
		{func(e *ids.Entry) { e.Doc = " " }, "no doc"},
		{func(e *ids.Entry) { e.Guard = "g" }, "may guard"},
		{func(e *ids.Entry) { e.Stage, e.Severity, e.Guard = ids.Schema, diag.Error, "g" }, "may guard"},
	} {
		e := ok
		tc.mod(&e)
		if _, err := ids.New([]ids.Entry{e}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", e, err, tc.want)
		}
	}
	if _, err := ids.New([]ids.Entry{ok}, []ids.Entry{ok}); err == nil || !strings.Contains(err.Error(), "used twice") {
		t.Errorf("duplicate: %v", err)
	}
	guarded := ok
	guarded.ID, guarded.Severity, guarded.Guard = "g", diag.Error, "keeps render safe"
	online := ok
	online.ID, online.Stage = "o", ids.Online
	cat := ids.MustNew([]ids.Entry{ok, guarded, online})
	if got := strings.Join(cat.Select(ids.Entry.Disableable), " "); got != "a-b o" {
		t.Errorf("disableable %q", got)
	}
	if got := strings.Join(cat.IDs(), " "); got != "a-b g o" {
		t.Errorf("ids %q", got)
	}
}
