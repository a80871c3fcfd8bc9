package compiler_test

import (
	"testing"

	"github.com/slurmspec/slurmspec/compiler"
	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/compiler/machines"
	"github.com/slurmspec/slurmspec/compiler/specgen"
	"github.com/slurmspec/slurmspec/schema"
)

// BenchmarkCompile measures decoding a checked document into the IR.
func BenchmarkCompile(b *testing.B) {
	cases, err := specgen.Cases("..")
	if err != nil {
		b.Fatal(err)
	}
	sch, err := schema.New()
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range cases {
		doc, l := load.Bytes(c.File, c.Data, load.Options{Verbatim: sch.Verbatim})
		if l = append(l, sch.Check(doc)...); l.HasErrors() {
			b.Fatal(l)
		}
		b.Run(c.Name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if cl, l := compiler.Compile(doc, compiler.Identity{}, machines.Default()); cl == nil || l.HasErrors() {
					b.Fatal(l)
				}
			}
		})
	}
}
