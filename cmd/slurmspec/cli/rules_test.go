package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"sort"
	"strings"
	"testing"
)

// TestRulesJSON checks `slurmspec rules --format json` against the things
// it describes: every id of the diagnostic catalog appears once, with its
// stage as its category; every helpUri names a heading of docs/rules.md;
// and "disableable" is what lint --disable really accepts (a guarded rule
// and a stage id exit 2).
func TestRulesJSON(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := Run([]string{"rules", "--format", "json"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	// The keys are a contract: written here, not taken from the struct.
	var raw struct{ Rules []map[string]any }
	if err := json.Unmarshal(out.Bytes(), &raw); err != nil || len(raw.Rules) == 0 {
		t.Fatalf("%v", err)
	}
	var keys []string
	for k := range raw.Rules[0] {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if got := strings.Join(keys, " "); got != "category description disableable guard helpUri id severity summary" {
		t.Errorf("keys %s", got)
	}
	dec := json.NewDecoder(&out)
	dec.DisallowUnknownFields()
	var doc rulesJSON
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if doc.Version != 1 {
		t.Errorf("version %d", doc.Version)
	}
	want := map[string]string{}
	for _, d := range diagCatalog().Entries() {
		want[d.ID] = string(d.Stage)
	}
	docs, err := os.ReadFile("../../../docs/rules.md")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	tried := map[bool]int{}
	for _, r := range doc.Rules {
		stage, ok := want[r.ID]
		switch {
		case !ok:
			t.Errorf("%s: not in the diagnostic catalog", r.ID)
			continue
		case seen[r.ID]:
			t.Errorf("%s listed twice", r.ID)
		case r.Summary == "" || r.Description == "" || r.Severity == "":
			t.Errorf("%s: empty summary, description or severity: %+v", r.ID, r)
		case r.Category != stage:
			t.Errorf("%s: category %q, want its stage %q", r.ID, r.Category, stage)
		}
		seen[r.ID] = true
		// Every id, of every stage, links to its section of docs/rules.md.
		anchor, ok := strings.CutPrefix(r.HelpURI, "https://github.com/slurmspec/slurmspec/blob/")
		_, anchor, _ = strings.Cut(anchor, "/docs/rules.md#")
		if !ok || anchor != r.ID || !bytes.Contains(docs, []byte("\n## "+r.ID+"\n")) {
			t.Errorf("%s: helpUri %q does not name its section of docs/rules.md", r.ID, r.HelpURI)
		}
		if r.Disableable && stage != "lint" && stage != "online" {
			t.Errorf("%s id %s is disableable", stage, r.ID)
		}
		// --disable accepts exactly the disableable ids (every guarded
		// rule, a few of the others: the checks are not free).
		if r.Guard != "" || tried[r.Disableable] < 3 {
			tried[r.Disableable]++
			var o, e bytes.Buffer
			code := Run([]string{"lint", "--disable", r.ID, "../../../examples/seed.jsonc"}, &o, &e)
			if accepted := code != exitUsage; accepted != r.Disableable {
				t.Errorf("%s: disableable %v, but lint --disable exits %d: %s", r.ID, r.Disableable, code, e.String())
			}
		}
	}
	for id := range want {
		if !seen[id] {
			t.Errorf("%s missing", id)
		}
	}
	if tried[false] == 0 || tried[true] == 0 {
		t.Errorf("--disable tried %v", tried)
	}
}
