package schema

import (
	"testing"

	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/compiler/specgen"
)

// BenchmarkCheck measures schema validation alone (load excluded) on the
// bundled examples and on generated specs of 10, 100 and 1000 node pools
// and partitions, in three variants measured side by side:
//
//	whole: the whole document unified with #Cluster (the former Check)
//	lean:  Check on a spec seen for the first time (lean.go)
//	again: Check on a spec whose lean document was seen before (resultCache)
func BenchmarkCheck(b *testing.B) {
	s, err := New()
	if err != nil {
		b.Fatal(err)
	}
	cases, err := specgen.Cases("..")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range cases {
		doc, l := load.Bytes(c.File, c.Data, load.Options{Verbatim: s.Verbatim})
		if l.HasErrors() {
			b.Fatal(l)
		}
		b.Run(c.Name+"/whole", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if l := s.check(doc, false); l.HasErrors() {
					b.Fatal(l)
				}
			}
		})
		b.Run(c.Name+"/lean", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s.results = resultCache{}
				if l := s.Check(doc); l.HasErrors() {
					b.Fatal(l)
				}
			}
		})
		b.Run(c.Name+"/again", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if l := s.Check(doc); l.HasErrors() {
					b.Fatal(l)
				}
			}
		})
	}
}

// BenchmarkNew measures making the schema (once per process, and once per
// lint worker) and waiting for its CUE, which New compiles in the
// background.
func BenchmarkNew(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		s, err := New()
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.cluster(); err != nil {
			b.Fatal(err)
		}
	}
}
