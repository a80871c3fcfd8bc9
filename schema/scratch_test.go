package schema

import (
	"fmt"
	"os"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/load"
)

func TestScratch(t *testing.T) {
	s, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"../examples/seed.jsonc", "../testdata/specs/docs-excerpt.jsonc", os.Getenv("X")} {
		if f == "" {
			continue
		}
		doc, l := load.File(f, load.Options{Verbatim: s.Verbatim})
		if doc != nil {
			l = append(l, s.Check(doc)...)
		}
		for _, d := range l.Sort() {
			fmt.Println(d, "|", d.Path, "|", d.Hint)
		}
	}
}
