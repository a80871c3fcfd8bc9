package hostlist_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/hostlist"
)

func TestExpand(t *testing.T) {
	for in, want := range map[string]string{
		"c-gpu-0":            "c-gpu-0",
		"c-gpu-[0-3,5]":      "c-gpu-0 c-gpu-1 c-gpu-2 c-gpu-3 c-gpu-5",
		"n[08-11]":           "n08 n09 n10 n11",
		"n[1-2]-ib":          "n1-ib n2-ib",
		"r[1-2]n[1-2]":       "r1n1 r1n2 r2n1 r2n2",
		"a[1-2],b,c[7]":      "a1 a2 b c7",
		"a,,b":               "a b",
		"/dev/nvidia[0-1]":   "/dev/nvidia0 /dev/nvidia1",
		"x[0-2,1]":           "x0 x1 x2 x1",
		"":                   "",
		"gpu[001-003,010]":   "gpu001 gpu002 gpu003 gpu010",
		"c-[0-1],d-[3],e-9x": "c-0 c-1 d-3 e-9x",
		"n[9-11]":            "n9 n10 n11",
	} {
		got, err := hostlist.Expand(in, nil)
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		if strings.Join(got, " ") != want {
			t.Errorf("Expand(%q) = %q, want %q", in, strings.Join(got, " "), want)
		}
	}
	for _, bad := range []string{"n[1-", "n]1[", "n[[1]]", "n[a-b]", "n[3-1]", "n[1-2-3]", "n[-1]", "n[]", "n[0-99999999]", "a[0-9999]b[0-9999]", "a]", "a[1]]"} {
		if got, err := hostlist.Expand(bad, nil); err == nil {
			t.Errorf("Expand(%q) = %d names, want an error", bad, len(got))
		}
	}
}

// TestBudgetIsShared: the budget bounds the names of all lists together,
// not each list.
func TestBudgetIsShared(t *testing.T) {
	b := hostlist.NewBudget(10)
	if _, err := hostlist.Expand("a[1-6]", b); err != nil {
		t.Fatal(err)
	}
	_, err := hostlist.Expand("b[1-6]", b)
	var tooMany *hostlist.TooManyError
	if !errors.As(err, &tooMany) || tooMany.Limit != 10 {
		t.Errorf("second list: %v", err)
	}
}

func TestCompressAndFirst(t *testing.T) {
	for in, want := range map[string]string{
		"c-a4-3 c-a4-0 c-a4-1 c-a4-2 c-a4-8 login": "c-a4-[0-3,8],login",
		"n01 n02 n03 n10":                          "n[01-03,10]",
		"x":                                        "x",
	} {
		if got := hostlist.Compress(strings.Fields(in)); got != want {
			t.Errorf("Compress(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"c-a4-[2-5],x": "c-a4-2", "x,y": "x", "n[07,9]-ib": "n07-ib", "r[1-2]n[3-4]": "r1n3", "bad[": "bad["} {
		if got := hostlist.First(in); got != want {
			t.Errorf("First(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzExpand(f *testing.F) {
	for _, s := range []string{"c-gpu-[0-3,5]", "r[1-2]n[01-02],x", "a[1-2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b := hostlist.NewBudget(1000)
		names, err := hostlist.Expand(s, b)
		if err == nil && len(names) > 1000 {
			t.Fatalf("%q: %d names", s, len(names))
		}
		if err == nil && len(names) > 0 && hostlist.First(s) != names[0] {
			t.Fatalf("%q: FirstHost %q, first name %q", s, hostlist.First(s), names[0])
		}
	})
}

func TestRange(t *testing.T) {
	for _, tc := range []struct {
		from, to int64
		want     string
	}{{0, 1, "p-0"}, {0, 2, "p-[0-1]"}, {3, 8, "p-[3-7]"}, {7, 8, "p-7"}} {
		if got := hostlist.Range("p-", tc.from, tc.to); got != tc.want {
			t.Errorf("Range(%d,%d) = %q, want %q", tc.from, tc.to, got, tc.want)
		}
	}
}
