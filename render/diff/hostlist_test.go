package diff

import (
	"strings"
	"testing"
)

func TestHostlist(t *testing.T) {
	for _, tc := range []struct {
		in, expanded, compressed string
	}{
		{"c-a4-3", "c-a4-3", "c-a4-3"},
		{"c-a4-[0-3]", "c-a4-0 c-a4-1 c-a4-2 c-a4-3", "c-a4-[0-3]"},
		{"c-a4-[0-1,5],login", "c-a4-0 c-a4-1 c-a4-5 login", "c-a4-[0-1,5],login"},
		{"n[08-10]", "n08 n09 n10", "n[08-10]"},
		{"r[1-2]-n[1-2]", "r1-n1 r1-n2 r2-n1 r2-n2", "r1-n[1-2],r2-n[1-2]"},
		{"c-cpu-3,c-cpu-[0-2]", "c-cpu-3 c-cpu-0 c-cpu-1 c-cpu-2", "c-cpu-[0-3]"},
	} {
		budget := maxHosts
		got, err := expandHostlist(tc.in, &budget)
		if err != nil {
			t.Errorf("expand %q: %v", tc.in, err)
			continue
		}
		if s := strings.Join(got, " "); s != tc.expanded {
			t.Errorf("expand %q = %q, want %q", tc.in, s, tc.expanded)
		}
		if s := compressHostlist(got); s != tc.compressed {
			t.Errorf("compress %q = %q, want %q", got, s, tc.compressed)
		}
	}
	for in, want := range map[string]string{"c-a4-[2-5],x": "c-a4-2", "c-a4-[07,9]": "c-a4-07", "login": "login", "r[1-2]-n[3-4]": "r1"} {
		if got := firstHost(in); got != want {
			t.Errorf("firstHost(%q) = %q, want %q", in, got, want)
		}
	}
	for _, bad := range []string{"n[1-", "n]1", "n[3-1]", "n[a-b]", "n[0-99999999999]"} {
		budget := maxHosts
		if _, err := expandHostlist(bad, &budget); err == nil {
			t.Errorf("expand %q: no error", bad)
		}
	}
}
