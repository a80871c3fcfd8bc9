package importconf

import (
	"strings"
	"testing"
)

func TestExpandHostlist(t *testing.T) {
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
	} {
		got, err := ExpandHostlist(in)
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		if strings.Join(got, " ") != want {
			t.Errorf("ExpandHostlist(%q) = %q, want %q", in, strings.Join(got, " "), want)
		}
	}
	for _, bad := range []string{"n[1-", "n]1[", "n[[1]]", "n[a-b]", "n[3-1]", "n[1-2-3]", "n[-1]", "n[]", "n[0-99999999]", "a[0-9999]b[0-9999]"} {
		if got, err := ExpandHostlist(bad); err == nil {
			t.Errorf("ExpandHostlist(%q) = %d names, want an error", bad, len(got))
		}
	}
}

func FuzzExpandHostlist(f *testing.F) {
	for _, s := range []string{"c-gpu-[0-3,5]", "r[1-2]n[01-02],x", "a[1-2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		names, err := ExpandHostlist(s)
		if err == nil && len(names) > maxHosts {
			t.Fatalf("%q: %d names", s, len(names))
		}
	})
}
