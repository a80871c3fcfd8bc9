package lint_test

import (
	"testing"

	"github.com/slurmspec/slurmspec/compiler"
	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/compiler/machines"
	"github.com/slurmspec/slurmspec/compiler/specgen"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/lint/rules"
	"github.com/slurmspec/slurmspec/schema"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// BenchmarkRun measures every lint rule over a compiled spec (load, schema
// and compile excluded).
func BenchmarkRun(b *testing.B) {
	cases, err := specgen.Cases("..")
	if err != nil {
		b.Fatal(err)
	}
	sch, err := schema.New()
	if err != nil {
		b.Fatal(err)
	}
	all := rules.All()
	cfg := lint.Config{Options: lint.Options{SlurmVersion: catalog.Newest().String()}}
	for _, c := range cases {
		doc, l := load.Bytes(c.File, c.Data, load.Options{Verbatim: sch.Verbatim})
		if l = append(l, sch.Check(doc)...); l.HasErrors() {
			b.Fatal(l)
		}
		cl, l := compiler.Compile(doc, compiler.Identity{}, machines.Default())
		if l.HasErrors() {
			b.Fatal(l)
		}
		b.Run(c.Name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				lint.Run(cl, all, cfg)
			}
		})
	}
}
