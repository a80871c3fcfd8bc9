package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestExplainKnowsEveryID: every diagnostic id declared in the code (Rule
// constants) or written into the schema's messages ("schema-...: ") is a
// lint rule or a documented stage id, so that `slurmspec explain ID` works
// for whatever the output shows.
func TestExplainKnowsEveryID(t *testing.T) {
	known := map[string]bool{}
	for _, r := range allRules() {
		known[r.ID] = true
	}
	for id := range stageIDs {
		if known[id] {
			t.Errorf("%s is both a lint rule and a stage id", id)
		}
		known[id] = true
	}
	decl := regexp.MustCompile(`(?m)^\s*Rule[A-Za-z]*\s*=\s*"([a-z][a-z0-9-]+)"`)
	inSchema := regexp.MustCompile(`"(schema-[a-z-]+)[:"]|@msg\((schema-[a-z-]+),`)
	found := map[string]string{}
	root := "../../.."
	for _, dir := range []string{"compiler", "schema", "render", "lint", "deploy"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || strings.HasSuffix(path, "_test.go") || !(strings.HasSuffix(path, ".go") || strings.HasSuffix(path, ".cue")) {
				return err
			}
			if strings.Contains(path, "internal/gen") {
				return nil
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, re := range []*regexp.Regexp{decl, inSchema} {
				for _, m := range re.FindAllStringSubmatch(string(b), -1) {
					for _, id := range m[1:] {
						if id != "" {
							found[id] = path
						}
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(found) < 20 {
		t.Fatalf("found only %d ids: the scan is broken", len(found))
	}
	for id, where := range found {
		if !known[id] {
			t.Errorf("%s (declared in %s) is unknown to slurmspec explain", id, where)
		}
	}
}
