package load

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// verbatimConfig keeps the keys of any object named "config" or "labels".
func verbatimConfig(p Path) bool {
	return len(p) > 0 && !p[len(p)-1].IsIndex && (p[len(p)-1].Name == "config" || p[len(p)-1].Name == "labels")
}

func mustLoad(t *testing.T, name, src string) *Document {
	t.Helper()
	doc, l := Bytes(name, []byte(src), Options{Verbatim: verbatimConfig})
	if len(l) > 0 || doc == nil || doc.Root == nil {
		t.Fatalf("Bytes(%s): %v", name, l)
	}
	return doc
}

func TestJSONWithCommentsKeepsPositions(t *testing.T) {
	src := "{\n  // a comment\n  \"a_b\": [1, /* inline */ \"x\"],\n  \"config\": {\"Some_Key\": \"v\"},\n}\n"
	doc := mustLoad(t, "s.jsonc", src)
	f := doc.Root.Field("aB")
	if f == nil {
		t.Fatalf("a_b not normalised to aB: %+v", doc.Root.Fields)
	}
	if f.Written != "a_b" || f.KeyPos.Start() != (diag.Pos{File: "s.jsonc", Line: 3, Col: 3}) {
		t.Errorf("field = %q at %v", f.Written, f.KeyPos)
	}
	if got := f.Value.Items[1].Pos.Start(); got != (diag.Pos{File: "s.jsonc", Line: 3, Col: 27}) {
		t.Errorf("second item at %v", got)
	}
	if doc.Root.Get("config").Field("Some_Key") == nil {
		t.Errorf("config keys must be kept verbatim: %+v", doc.Root.Get("config").Fields)
	}
}

func TestFormatsAgree(t *testing.T) {
	jsonDoc := mustLoad(t, "a.json", `{"node_pools": [{"id": "a", "n": 3, "ok": true, "x": null, "f": 1.5, "neg": -2}]}`)
	yamlDoc := mustLoad(t, "a.yaml", "nodePools:\n- id: a\n  n: 3\n  ok: true\n  x: null\n  f: 1.5\n  neg: -2\n")
	cueDoc := mustLoad(t, "a.cue", "_n: 3\nnodePools: [{id: \"a\", n: _n, ok: true, x: null, f: 1.5, neg: -2}]\n")
	strip := cmp.FilterPath(func(p cmp.Path) bool {
		switch p.Last().String() {
		case ".Pos", ".KeyPos", ".Written":
			return true
		}
		return false
	}, cmp.Ignore())
	if d := cmp.Diff(jsonDoc.Root, yamlDoc.Root, strip); d != "" {
		t.Errorf("JSON and YAML differ (-json +yaml):\n%s", d)
	}
	if d := cmp.Diff(jsonDoc.Root, cueDoc.Root, strip); d != "" {
		t.Errorf("JSON and CUE differ (-json +cue):\n%s", d)
	}
}

func TestProblems(t *testing.T) {
	big := strings.Repeat(" ", MaxFileSize+1)
	deep := strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1)
	for _, tc := range []struct {
		name, file, src string
		rule            string
		pos             string
	}{
		{"json syntax", "a.json", "{\n  \"a\": 1\n  \"b\": 2\n}", RuleSyntax, "a.json:3:3"},
		{"truncated json", "a.json", "{\"a\": [1, 2", RuleSyntax, "a.json:1:12"},
		{"yaml syntax", "a.yaml", "a: [1, 2\n", RuleSyntax, "a.yaml:2:1"}, // the end of the file, where "]" was expected
		{"yaml tab", "a.yaml", "a:\n\t- 1\n", RuleSyntax, "a.yaml:2:1"},
		{"cue syntax", "a.cue", "a: {\n", RuleSyntax, "a.cue:2:1"}, // the end of the file
		{"cue not concrete", "a.cue", "a: int\n", RuleSyntax, "a.cue:1:4"},
		{"cue conflict", "a.cue", "a: 1\na: 2\n", RuleSyntax, "a.cue:1:4"},
		{"nul", "a.json", "{\"a\": \"x\x00\"}", RuleEncoding, "a.json:1:9"},
		{"invalid utf8", "a.yaml", "a: b\nc: \xff\n", RuleEncoding, "a.yaml:2:4"},
		{"too deep", "a.json", deep, RuleLimit, "a.json:1:65"},
		{"too big", "a.json", big, RuleLimit, "a.json:1:1"},
		{"duplicate key", "a.json", "{\"a\": 1,\n \"a\": 2}", RuleDuplicateKey, "a.json:2:2"},
		{"duplicate yaml key", "a.yaml", "a: 1\nb: 2\na: 3\n", RuleDuplicateKey, "a.yaml:3:1"},
		{"both spellings", "a.yaml", "nodePoolIds: []\nnode_pool_ids: []\n", RuleBothSpelling, "a.yaml:2:1"},
		{"empty yaml", "a.yaml", "", RuleSyntax, "a.yaml:1:1"},
		{"unknown extension", "a.toml", "a = 1", RuleIO, "a.toml"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, l := Bytes(tc.file, []byte(tc.src), Options{})
			if len(l) == 0 {
				t.Fatalf("no diagnostic")
			}
			if l[0].Rule != tc.rule || l[0].Pos.String() != tc.pos || l[0].Severity != diag.Error {
				t.Errorf("got %v, want rule %s at %s", l[0], tc.rule, tc.pos)
			}
		})
	}
}

func TestBOMIsDropped(t *testing.T) {
	doc := mustLoad(t, "a.json", "\xef\xbb\xbf{\"a\": 1}")
	if doc.Root.Get("a") == nil {
		t.Fatal("field lost")
	}
}

func TestYAMLAliasesExpandWithinLimits(t *testing.T) {
	doc := mustLoad(t, "a.yaml", "base: &b {x: 1}\ncopy: *b\n")
	if v, _ := doc.Root.Get("copy").Get("x").Int(); v != 1 {
		t.Errorf("alias not expanded: %+v", doc.Root.Get("copy"))
	}
	// A billion-laughs style alias bomb is bounded by the depth limit.
	var b strings.Builder
	b.WriteString("a0: &a0 [x, x]\n")
	for i := 1; i <= MaxDepth+2; i++ {
		b.WriteString("a" + itoa(i) + ": &a" + itoa(i) + " [*a" + itoa(i-1) + "]\n")
	}
	_, l := Bytes("bomb.yaml", []byte(b.String()), Options{})
	if !l.HasErrors() || l[0].Rule != RuleLimit {
		t.Errorf("alias chain not refused: %v", l)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestFileErrors(t *testing.T) {
	dir := t.TempDir()
	for name, path := range map[string]string{"missing": filepath.Join(dir, "nope.json"), "directory": dir + "/d.json"} {
		if name == "directory" {
			if err := os.Mkdir(path, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		_, l := File(path, Options{})
		if len(l) != 1 || l[0].Rule != RuleIO {
			t.Errorf("%s: %v", name, l)
		}
	}
	doc, l := File("-", Options{Stdin: strings.NewReader(`{"a": 1}`)})
	if len(l) != 0 || doc.File != "<stdin>" || doc.Root.Get("a") == nil {
		t.Errorf("stdin: %v %+v", l, doc)
	}
}

func TestCamelCase(t *testing.T) {
	for in, want := range map[string]string{
		"node_pool_ids": "nodePoolIds", "nodePoolIds": "nodePoolIds", "boot_disk_size_gb": "bootDiskSizeGb",
		"id": "id", "_x": "_x", "a__b": "a__b", "_display_name_": "_display_name_", "display_name_": "display_name_",
		"Display_Name": "Display_Name", "display_Name": "display_Name", "node_pool_2": "nodePool2",
	} {
		if got := CamelCase(in); got != want {
			t.Errorf("CamelCase(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPathRoundTrip(t *testing.T) {
	for _, s := range []string{"a.b[0].c", `config["Foo.Bar"]`, "nodePools[12].id", `x["a]b"].y`} {
		p, err := ParsePath(s)
		if err != nil {
			t.Fatalf("ParsePath(%q): %v", s, err)
		}
		if got := p.String(); got != s {
			t.Errorf("round trip %q -> %q", s, got)
		}
	}
	if _, err := ParsePath("a[x]"); err == nil {
		t.Error("bad index accepted")
	}
}

// A CUE spec may write defaults; the value is the default, as `cue export`
// gives it (it used to read as null for a disjunction, and as the text
// "*1 | int" for a number).
func TestCUEDefaultsAreTheirValue(t *testing.T) {
	jsonDoc := mustLoad(t, "a.json", `{"a": {"n": 1, "s": "x", "f": 2.5, "b": true, "o": {"k": "v"}}}`)
	cueDoc := mustLoad(t, "a.cue", "#D: {k: *\"v\" | string}\na: {n: *1 | int, s: *\"x\" | \"y\", f: *2.5 | float, b: *true | bool, o: #D}\n")
	strip := cmp.FilterPath(func(p cmp.Path) bool {
		switch p.Last().String() {
		case ".Pos", ".KeyPos", ".Written":
			return true
		}
		return false
	}, cmp.Ignore())
	if d := cmp.Diff(jsonDoc.Root, cueDoc.Root, strip); d != "" {
		t.Errorf("JSON and CUE with defaults differ (-json +cue):\n%s", d)
	}
}
