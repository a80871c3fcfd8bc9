package catalog

import (
	"math"
	"testing"
)

// TestParseNumber checks the number Slurm stores for integer keys: base 0,
// the k suffix of the 32- and 64-bit handlers, UNLIMITED as the kind's
// INFINITE, and nothing for what CheckValue reports as an error.
func TestParseNumber(t *testing.T) {
	u16, _ := Default().Lookup(ScopeGlobal, "TreeWidth")
	u32, _ := Default().Lookup(ScopeGlobal, "MaxNodeCount")
	u64, _ := Default().Lookup(ScopeNode, "RealMemory")
	str, _ := Default().Lookup(ScopeGlobal, "ClusterName")
	for _, c := range []struct {
		p     *Param
		value string
		n     uint64
		ok    bool
	}{
		{u16, "0", 0, true},
		{u16, "0x10", 16, true},
		{u16, "010", 8, true},
		{u16, "UNLIMITED", math.MaxUint16, true},
		{u16, "65536", 0, false},
		{u16, "1k", 0, false},
		{u32, "64k", 65536, true},
		{u32, "infinite", math.MaxUint32, true},
		{u32, "-1", 0, false},
		{u32, "12abc", 0, false},
		{u32, "4294967296", 0, false},
		{u64, "UNLIMITED", math.MaxUint64, true},
		{u64, "2k", 2048, true},
		{str, "1", 0, false},
		{nil, "1", 0, false},
	} {
		n, ok := ParseNumber(c.p, c.value)
		if n != c.n || ok != c.ok {
			name := "<nil>"
			if c.p != nil {
				name = c.p.Name
			}
			t.Errorf("ParseNumber(%s, %q) = %d, %v; want %d, %v", name, c.value, n, ok, c.n, c.ok)
		}
		if ok && c.p != nil {
			for _, pr := range CheckValue(c.p, Newest(), c.value) {
				if pr.Severity == SeverityError {
					t.Errorf("ParseNumber(%s, %q) is ok, but CheckValue says %v", c.p.Name, c.value, pr)
				}
			}
		}
	}
}

// TestFiniteNumber: a count or a size as ParseNumber reads it, but not
// UNLIMITED, nor a number an int64 cannot hold.
func TestFiniteNumber(t *testing.T) {
	u16, _ := Default().Lookup(ScopeNode, "CPUs")
	u32, _ := Default().Lookup(ScopeGlobal, "MaxNodeCount")
	u64, _ := Default().Lookup(ScopeNode, "RealMemory")
	for _, c := range []struct {
		p     *Param
		value string
		n     int64
		ok    bool
	}{
		{u16, "16", 16, true},
		{u16, "0x10", 16, true},
		{u16, "UNLIMITED", 0, false},
		{u16, "65534", 65534, true},
		{u32, "64k", 65536, true},
		{u32, "infinite", 0, false},
		{u64, "0x7d00", 32000, true},
		{u64, "UNLIMITED", 0, false},
		{u64, "9223372036854775807", math.MaxInt64, true},
		{u64, "9223372036854775808", 0, false},
		{u64, "-1", 0, false},
		{nil, "1", 0, false},
	} {
		if n, ok := FiniteNumber(c.p, c.value); n != c.n || ok != c.ok {
			t.Errorf("FiniteNumber(%v, %q) = %d, %v; want %d, %v", c.p != nil, c.value, n, ok, c.n, c.ok)
		}
	}
}
