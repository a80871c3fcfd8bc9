package main

import (
	"strings"
	"testing"
)

func TestBenchTable(t *testing.T) {
	out := `goos: linux
pkg: github.com/slurmspec/slurmspec/schema
BenchmarkCheck/gen-1000/lean-2   	      70	  15850718 ns/op	 5642815 B/op	   78866 allocs/op
BenchmarkLoad/seed-2         	   20	     68240 ns/op	  30.69 MB/s	   75273 B/op	     273 allocs/op
PASS
`
	got, err := benchTableFrom(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| schema | Check/gen-1000/lean", "15.85 ms | 5.6 MB | 78866 |", "68.2 µs | 75.3 kB | 273 |"} {
		if !strings.Contains(got, want) {
			t.Errorf("table lacks %q:\n%s", want, got)
		}
	}
}
