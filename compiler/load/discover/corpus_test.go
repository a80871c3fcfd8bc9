package discover

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/slurmspec/slurmspec/compiler/load"
)

// TestLooksLikeSpecAgreesWithTheParsers checks the content test against
// the real parsers: for every JSON, YAML and CUE file of the repository
// (examples, goldens, fixtures, workflows, hook definitions) and every such
// file inside the testscript archives, the content test (LooksLikeSpec,
// then the loader for what it misses) says "spec" exactly when the loaded
// document's top level has a nodePools or orchestratorSpec key, and
// LooksLikeSpec alone never says "spec" when it has not. Files the loader
// cannot parse have no oracle and are left out.
func TestLooksLikeSpecAgreesWithTheParsers(t *testing.T) {
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	type file struct {
		name string
		data []byte
	}
	var files []file
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		switch {
		case load.IsSpecFile(p):
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			files = append(files, file{rel, data})
		case strings.HasSuffix(p, ".txtar"):
			a, err := txtar.ParseFile(p)
			if err != nil {
				return err
			}
			for _, f := range a.Files {
				if load.IsSpecFile(f.Name) {
					files = append(files, file{rel + ":" + f.Name, f.Data})
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var specs, others, unparsed int
	for _, f := range files {
		if len(f.data) > load.MaxFileSize {
			continue
		}
		doc, _ := load.Bytes(f.name, f.data, load.Options{})
		if doc == nil || doc.Root == nil {
			unparsed++
			continue
		}
		want := false
		if doc.Root.Kind == load.Object {
			for _, fl := range doc.Root.Fields {
				want = want || isMarker([]byte(fl.Written))
			}
		}
		if want {
			specs++
		} else {
			others++
		}
		if got := specContent(f.name, f.data); got != want {
			t.Errorf("%s: specContent = %v, the parsed document says %v", f.name, got, want)
		}
		if LooksLikeSpec(f.data[:min(len(f.data), PrefixSize)]) && !want {
			t.Errorf("%s: LooksLikeSpec = true, the parsed document says false", f.name)
		}
	}
	t.Logf("%d specs and %d other documents agree; %d files do not parse", specs, others, unparsed)
	if specs < 20 || others < 10 {
		t.Errorf("only %d specs and %d other documents: the corpus is not where it should be", specs, others)
	}
}
