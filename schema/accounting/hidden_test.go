package accounting_test

import (
	"bytes"
	"strconv"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/escape"
	"github.com/slurmspec/slurmspec/schema/accounting"
)

// TestDescriptionRefusesHiddenCharacters: an account's description goes
// into the script render writes (accounting/apply.sh) and into the
// database; a control, bidirectional or zero-width character there would
// hide or reorder what a reviewer reads, so the schema refuses it at the
// value. Other text, accents and emoji included, is a description.
func TestDescriptionRefusesHiddenCharacters(t *testing.T) {
	file := func(desc string) []byte {
		return []byte("accounts:\n  - name: ops\n    description: " + strconv.Quote(desc) + "\n")
	}
	for _, r := range []rune{'\r', '\t', 0x1b, 0x7f, 0x9b, 0x202e, 0x2066, 0x200b, 0xfeff, 0x061c} {
		f, l := accounting.LoadBytes("a.accounting.yaml", file("a"+string(r)+"b"))
		if f != nil || len(l) != 1 || l[0].Rule != accounting.RuleSchema || l[0].Path != "accounts[0].description" || l[0].Pos.Line != 3 {
			t.Errorf("description with %U: accepted or misplaced: %v", r, l)
		}
	}
	for _, ok := range []string{"research teams", "équipe ü 😀", "cost center #12 (GPU)"} {
		if f, l := accounting.LoadBytes("a.accounting.yaml", file(ok)); f == nil {
			t.Errorf("description %q refused: %v", ok, l)
		}
	}
}

// TestJSONSchemaShowsWhatItHolds: the exported JSON Schema writes the
// characters the description's pattern refuses as \u escapes, not raw.
func TestJSONSchemaShowsWhatItHolds(t *testing.T) {
	data, err := accounting.JSONSchema()
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range string(data) {
		if r != '\n' && escape.Hidden(r) {
			t.Fatalf("the JSON Schema holds %U raw at byte %d", r, i)
		}
	}
	if !bytes.Contains(data, []byte(`\u202a-\u202e`)) {
		t.Errorf("the description's pattern does not name the bidirectional controls:\n%s", data)
	}
}
