package load

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// FuzzLoad feeds arbitrary bytes to every format. Invariants: no panic; a
// load without errors yields a tree; every diagnostic has a position in the
// file; every range ends after it starts, within the file.
func FuzzLoad(f *testing.F) {
	for _, pattern := range []string{"../../examples/*", "../../testdata/specs/*"} {
		files, _ := filepath.Glob(pattern)
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil {
				f.Add(data, uint8(0))
				f.Add(data, uint8(1))
				f.Add(data, uint8(2))
			}
		}
	}
	f.Add([]byte(`{"a": [1, {"b_c": null}], "a": true}`), uint8(0))
	f.Add([]byte("a: &x [*x]\n"), uint8(1))
	names := []string{"f.jsonc", "f.yaml", "f.cue"}
	f.Fuzz(func(t *testing.T, data []byte, format uint8) {
		name := names[int(format)%len(names)]
		doc, l := Bytes(name, data, Options{Verbatim: func(p Path) bool { return len(p) > 0 && p[len(p)-1].Name == "config" }})
		if !l.HasErrors() && (doc == nil || doc.Root == nil) {
			t.Fatalf("no errors but no document")
		}
		for _, d := range l {
			if d.Pos.File != name {
				t.Errorf("diagnostic without the file name: %v", d)
			}
		}
		if doc != nil && doc.Root != nil {
			lines := 1 + bytes.Count(data, []byte("\n"))
			checkRanges(t, doc.Root, lines)
		}
	})
}

// checkRanges checks that every range under n ends after it starts and
// on a line of the file.
func checkRanges(t *testing.T, n *Node, lines int) {
	t.Helper()
	ok := func(p diag.Pos) bool {
		return !p.HasEnd() || p.EndLine <= lines && p.End().Compare(p.Start()) > 0
	}
	if !ok(n.Pos) {
		t.Errorf("bad range %#v", n.Pos)
	}
	for _, f := range n.Fields {
		if !ok(f.KeyPos) {
			t.Errorf("bad key range %#v", f.KeyPos)
		}
		checkRanges(t, f.Value, lines)
	}
	for _, it := range n.Items {
		checkRanges(t, it, lines)
	}
}
