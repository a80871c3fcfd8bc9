package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/lab/fidelity"
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

// TestEachModeWritesItsOwnBlock: a run with -doc rewrites the block of
// its own mode and leaves the others' results alone (a doubled sweep once
// overwrote the random run's table), and docs/fidelity.md has a block for
// every mode, so that -doc is never refused there.
func TestEachModeWritesItsOwnBlock(t *testing.T) {
	var doc strings.Builder
	doc.WriteString("# Fidelity\n")
	for _, m := range fidelity.Modes {
		begin, end, ok := fidelity.DocBlock(m)
		if !ok {
			t.Fatalf("mode %s has no block", m)
		}
		fmt.Fprintf(&doc, "\n%s\nold %s\n%s\n", begin, m, end)
	}
	for _, mode := range []string{"random", "related", "doubled"} {
		path := filepath.Join(t.TempDir(), "fidelity.md")
		if err := os.WriteFile(path, []byte(doc.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := fidelity.CheckDoc(path, mode); err != nil {
			t.Fatal(err)
		}
		if err := publish(io.Discard, nil, path, mode); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if want := mode == "random"; strings.Contains(string(data), "\n## Findings of this run") != want {
			t.Errorf("-mode %s: a level-2 heading: %v, want %v (only the random block is a section of its own)", mode, !want, want)
		}
		for _, m := range fidelity.Modes {
			if kept := strings.Contains(string(data), "old "+m+"\n"); kept == (m == mode) {
				t.Errorf("-mode %s: block of %s rewritten: %v, want %v:\n%s", mode, m, !kept, m == mode, data)
			}
		}
	}
	// A doc without the mode's block is refused before the run.
	path := filepath.Join(t.TempDir(), "fidelity.md")
	random, _, _ := fidelity.DocBlock("random")
	if err := os.WriteFile(path, []byte(random+"\n<!-- fidelity:end -->\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := fidelity.CheckDoc(path, "doubled"); err == nil || !strings.Contains(err.Error(), "no block for -mode doubled") {
		t.Errorf("CheckDoc of a doc without the doubled block: %v", err)
	}
	for _, m := range fidelity.Modes {
		if err := fidelity.CheckDoc(filepath.Join("..", "..", "..", "..", "docs", "fidelity.md"), m); err != nil {
			t.Error(err)
		}
	}
}
