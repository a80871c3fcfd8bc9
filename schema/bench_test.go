package schema

import (
	"fmt"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/compiler/specgen"
)

// BenchmarkCheck measures schema validation alone (load excluded) on
// generated specs of n node pools and n partitions.
func BenchmarkCheck(b *testing.B) {
	s, err := New()
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{10, 100, 1000} {
		doc, l := load.Bytes("big.json", specgen.JSON(n), load.Options{Verbatim: s.Verbatim})
		if l.HasErrors() {
			b.Fatal(l)
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if l := s.Check(doc); l.HasErrors() {
					b.Fatal(l)
				}
			}
		})
	}
}

// BenchmarkNew measures compiling the embedded schema.
func BenchmarkNew(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := New(); err != nil {
			b.Fatal(err)
		}
	}
}
