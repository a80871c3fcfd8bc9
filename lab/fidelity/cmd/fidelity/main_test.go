package main

import (
	"slices"
	"testing"

	"github.com/slurmspec/slurmspec/schema/catalog"
)

// TestPickKeepsIndexes: -cases reruns the named cases of the full run,
// each with the settings and index it had there, in both modes.
func TestPickKeepsIndexes(t *testing.T) {
	for _, mode := range []string{"random", "mode"} {
		all := cases(catalog.V2411, 5, 40, mode)
		only, err := parseIndexes("3, 17,39")
		if err != nil {
			t.Fatal(err)
		}
		got := pick(all, only)
		var idx []int
		for _, c := range got {
			idx = append(idx, c.Index)
			if c.String() != all[c.Index].String() {
				t.Errorf("mode %s: case %d changed: %s, want %s", mode, c.Index, c, all[c.Index])
			}
		}
		if !slices.Equal(idx, []int{3, 17, 39}) {
			t.Errorf("mode %s: picked %v", mode, idx)
		}
		if len(pick(all, map[int]bool{})) != 40 {
			t.Errorf("mode %s: an empty -cases does not run all", mode)
		}
		if len(pick(all, map[int]bool{40: true})) != 0 {
			t.Errorf("mode %s: index 40 of 40 picked a case", mode)
		}
	}
	for _, bad := range []string{"x", "1,,2", "-1"} {
		if _, err := parseIndexes(bad); err == nil {
			t.Errorf("parseIndexes(%q): no error", bad)
		}
	}
}
