package load_test

import (
	"testing"

	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/compiler/specgen"
	"github.com/slurmspec/slurmspec/schema"
)

// BenchmarkLoad measures parsing and normalising a spec (JSON with
// comments, YAML), with the schema's Verbatim and Strings as lint uses them.
func BenchmarkLoad(b *testing.B) {
	cases, err := specgen.Cases("../..")
	if err != nil {
		b.Fatal(err)
	}
	sch, err := schema.New()
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range cases {
		b.Run(c.Name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.Data)))
			for b.Loop() {
				doc, l := load.Bytes(c.File, c.Data, load.Options{Verbatim: sch.Verbatim, Strings: sch.Strings})
				if doc == nil || doc.Root == nil || l.HasErrors() {
					b.Fatal(l)
				}
			}
		})
	}
}
