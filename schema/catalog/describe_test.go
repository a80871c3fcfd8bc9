package catalog

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/schema/catalog/internal/descgen"
)

func TestGeneratedDescriptionsAreCurrent(t *testing.T) {
	want, err := descgen.Generate("data")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(descgen.OutputFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is stale: run `go generate ./schema/catalog` and commit the result", descgen.OutputFile)
	}
}

// TestDescriptionsMatchTheCatalog: a description for every key of every
// scope, and none for a key the catalog does not have.
func TestDescriptionsMatchTheCatalog(t *testing.T) {
	cat := Default()
	keys := map[string]bool{}
	for _, s := range Scopes() {
		for _, p := range cat.Params(s) {
			keys[s.String()+"/"+strings.ToLower(p.Name)] = true
			if Description(s, p.Name) == "" || Description(s, strings.ToUpper(p.Name)) == "" {
				t.Errorf("%s key %s has no description in data/descriptions.tsv", s, p.Name)
			}
		}
	}
	for _, d := range genDescriptions {
		if !keys[d.key] {
			t.Errorf("data/descriptions.tsv describes %s, which the catalog does not have", d.key)
		}
		if !strings.HasSuffix(d.text, ".") || len(d.text) > 200 {
			t.Errorf("%s: a description is one sentence of at most 200 bytes: %q", d.key, d.text)
		}
	}
	if len(keys) != cat.Len() {
		t.Errorf("%d scope/key pairs, the catalog has %d entries", len(keys), cat.Len())
	}
}
