package render_test

import (
	"testing"

	"github.com/slurmspec/slurmspec/compiler"
	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/compiler/machines"
	"github.com/slurmspec/slurmspec/compiler/specgen"
	"github.com/slurmspec/slurmspec/render"
	"github.com/slurmspec/slurmspec/schema"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// BenchmarkRender measures rendering slurm.conf, the scripts and the API
// body from a compiled spec (load, schema and compile excluded). The
// examples' placeholders are given a real identity so that they render.
func BenchmarkRender(b *testing.B) {
	cases, err := specgen.Cases("..")
	if err != nil {
		b.Fatal(err)
	}
	sch, err := schema.New()
	if err != nil {
		b.Fatal(err)
	}
	opt := render.Options{SlurmVersion: catalog.Newest().String()}
	for _, c := range cases {
		doc, l := load.Bytes(c.File, c.Data, load.Options{Verbatim: sch.Verbatim})
		if l = append(l, sch.Check(doc)...); l.HasErrors() {
			b.Fatal(l)
		}
		cl, l := compiler.Compile(doc, compiler.Identity{}, machines.Default())
		if l.HasErrors() {
			b.Fatal(l)
		}
		if _, l := render.Render(cl, opt); len(l) > 0 {
			b.Logf("%s: %d render diagnostics (%s)", c.Name, len(l), l[0].Message)
		}
		b.Run(c.Name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				render.Render(cl, opt)
			}
		})
	}
}
