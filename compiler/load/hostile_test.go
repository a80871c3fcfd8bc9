package load

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/specgen"
)

// loadErr loads src and returns its first error, failing when there is none.
func loadErr(t *testing.T, name, src string) diag.Diagnostic {
	t.Helper()
	_, l := Bytes(name, []byte(src), Options{})
	for _, d := range l {
		if d.Severity == diag.Error {
			return d
		}
	}
	t.Fatalf("%s: no error for %q (diagnostics: %v)", name, src, l)
	return diag.Diagnostic{}
}

// bounded runs f and fails when it takes more than limit of time or
// allocates more than maxAlloc bytes.
func bounded(t *testing.T, limit time.Duration, maxAlloc uint64, f func()) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	f()
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	if took > limit {
		t.Errorf("took %v, limit %v", took, limit)
	}
	if a := after.TotalAlloc - before.TotalAlloc; a > maxAlloc {
		t.Errorf("allocated %d MiB, limit %d MiB", a>>20, maxAlloc>>20)
	}
}

// A 3 KB billion-laughs file (ten levels of nine aliases: 9^10 values)
// is refused at the value limit, quickly and within a few hundred MiB.
func TestYAMLAliasBombIsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString(`a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]` + "\n")
	for i := 1; i <= 10; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*a%d,", i-1), 9), ","))
	}
	var d diag.Diagnostic
	bounded(t, 5*time.Second, 400<<20, func() { d = loadErr(t, "bomb.yaml", b.String()) })
	if d.Rule != RuleLimit || !strings.Contains(d.Message, "values") {
		t.Errorf("got %v, want the value limit", d)
	}
	// Text multiplied by aliases counts too: 64 KiB × 8^5 (2 GiB as written
	// out).
	big := strings.Repeat("x", 64<<10)
	src := "t0: &t0 " + big + "\n"
	for i := 1; i <= 5; i++ {
		src += fmt.Sprintf("t%d: &t%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*t%d,", i-1), 8), ","))
	}
	bounded(t, 5*time.Second, 400<<20, func() { d = loadErr(t, "text.yaml", src) })
	if d.Rule != RuleLimit || !strings.Contains(d.Message, "MiB") {
		t.Errorf("got %v, want the text limit", d)
	}
}

// YAML numbers and booleans must mean what the same text means in JSON:
// spellings JSON refuses are refused, and a float spelling of an integer
// stays a float so that the schema says "integer expected" for both.
func TestYAMLScalarsAgreeWithJSON(t *testing.T) {
	for _, v := range []string{"010", "0x10", "0o10", "0b10", "1_000", "+4", ".5", "1.", ".inf", "-.Inf", ".nan", "True", "FALSE"} {
		d := loadErr(t, "a.yaml", "n: "+v+"\n")
		if d.Rule != RuleSyntax || d.Pos.String() != "a.yaml:1:4" || d.Hint == "" {
			t.Errorf("%s: got %v", v, d)
		}
	}
	for _, v := range []string{"16.0", "1e2", "-0.5", "12345678901234567890", "0", "-3"} {
		y := mustLoad(t, "a.yaml", "n: "+v+"\n").Root.Get("n")
		j := mustLoad(t, "a.json", `{"n": `+v+`}`).Root.Get("n")
		if y.Kind != Number || y.Text != j.Text {
			t.Errorf("%s: YAML gives %v %q, JSON %v %q", v, y.Kind, y.Text, j.Kind, j.Text)
		}
	}
	// Quoted, the same text is a string.
	if n := mustLoad(t, "a.yaml", "n: \"010\"\n").Root.Get("n"); n.Kind != String || n.Text != "010" {
		t.Errorf("quoted 010: %+v", n)
	}
}

func TestYAMLRefusals(t *testing.T) {
	for _, tc := range []struct{ name, src, pos, want string }{
		{"second document", "a: 1\n---\nb: 2\n", "a.yaml:2:1", "second YAML document"},
		{"third document after an empty one", "a: 1\n---\n---\nb: 2\n", "a.yaml:3:1", "second YAML document"},
		{"binary", "a: !!binary aGk=\n", "a.yaml:1:4", "!!binary"},
		{"control character", "a: 1\nb: \"x\x01\"\n", "a.yaml:2:6", "U+0001"},
		{"C1 control character", "a: 1\nb: x\u0080\n", "a.yaml:2:5", "U+0080"},
		{"unclosed flow sequence", "x: 1\n\ny: [1, 2\nz: 3\n", "a.yaml:3:1", "did not find expected ',' or ']'"},
		{"sequence item in a mapping", "x: 1\n- a\n", "a.yaml:2:1", "did not find expected key"},
		{"bad indentation", "a:\n  b: 1\n c: 2\n", "a.yaml:3:1", "did not find expected key"},
		{"scanner error", "x: 1\n y: 2\n", "a.yaml:2:1", "mapping values are not allowed"},
		{"unknown anchor", "x: 1\ny: *nope\n", "a.yaml:2:4", "unknown anchor 'nope'"},
		{"too deep for go-yaml, which gives no line", strings.Repeat("- ", 20000) + "1\n", "a.yaml:1:1", "exceeded max depth"},
	} {
		d := loadErr(t, "a.yaml", tc.src)
		if d.Pos.String() != tc.pos || !strings.Contains(d.Message, tc.want) {
			t.Errorf("%s: got %v, want %q at %s", tc.name, d, tc.want, tc.pos)
		}
	}
	// A trailing document marker is not a second document.
	mustLoad(t, "a.yaml", "a: 1\n---\n")
}

func TestJSONLoneSurrogates(t *testing.T) {
	for _, s := range []string{`"\ud800"`, `"a\udc00b"`, `"\ud800\u0041"`, `"\\\ud800"`} {
		d := loadErr(t, "a.json", `{"a": `+s+`}`)
		if d.Rule != RuleEncoding || d.Pos.String() != "a.json:1:7" {
			t.Errorf("%s: got %v", s, d)
		}
	}
	for s, want := range map[string]string{`"\ud83d\ude00"`: "😀", `"\\ud800"`: `\ud800`, `"\u00e9"`: "é"} {
		if got := mustLoad(t, "a.json", `{"a": `+s+`}`).Root.Get("a").Text; got != want {
			t.Errorf("%s = %q, want %q", s, got, want)
		}
	}
}

// Field names are normalised only from exact snake_case.
func TestInexactSnakeCaseIsNotAField(t *testing.T) {
	doc := mustLoad(t, "a.yaml", "_display_name_: x\nDisplay_Name: y\nnode__pool_ids: []\ndisplay_name: z\n")
	var names []string
	for _, f := range doc.Root.Fields {
		names = append(names, f.Name)
	}
	if got, want := strings.Join(names, " "), "_display_name_ Display_Name node__pool_ids displayName"; got != want {
		t.Errorf("names %q, want %q", got, want)
	}
}

// Columns count characters, the same for every format, and the line
// separators YAML counts as line breaks (U+2028, U+2029, U+0085) do not
// shift the lines after them.
func TestPositionsAreCharacters(t *testing.T) {
	for _, tc := range []struct{ file, src string }{
		{"a.json", "{\"é\": \"ü\", \"b\": 1,\n \"c\": \"x\u2028y\u2029z\u0085w\", \"d\": 2}"},
		{"a.yaml", "{\"é\": \"ü\", \"b\": 1,\n \"c\": \"x\u2028y\u2029z\u0085w\", \"d\": 2}"},
		{"a.cue", "{\"é\": \"ü\", \"b\": 1,\n \"c\": \"x\u2028y\u2029z\u0085w\", \"d\": 2}"},
	} {
		doc := mustLoad(t, tc.file, tc.src)
		if got := doc.Root.Field("b").KeyPos.String(); got != tc.file+":1:12" {
			t.Errorf("%s: b at %s, want column 12", tc.file, got)
		}
		if got := doc.Root.Field("d").KeyPos.String(); got != tc.file+":2:18" {
			t.Errorf("%s: d at %s, want 2:18", tc.file, got)
		}
	}
	// Block YAML: keys on the lines after a separator.
	doc := mustLoad(t, "b.yaml", "a: \"x\u2028y\"\nb: 1\nc: \"\u0085\"\nd: 2\n")
	if got := doc.Root.Field("d").KeyPos.String(); got != "b.yaml:4:1" {
		t.Errorf("d at %s, want b.yaml:4:1", got)
	}
	// A JSON syntax error after non-ASCII text.
	if d := loadErr(t, "a.json", "{\"é\": 1 \"b\": 2}"); d.Pos.String() != "a.json:1:9" {
		t.Errorf("syntax error at %s, want a.json:1:9", d.Pos)
	}
	if d := loadErr(t, "a.cue", "x: \"é\", a: 1 & 2\n"); d.Pos.String() != "a.cue:1:12" {
		t.Errorf("CUE conflict at %s, want a.cue:1:12", d.Pos)
	}
}

func TestUTF16IsNamed(t *testing.T) {
	for name, src := range map[string]string{
		"le bom": "\xff\xfe{\x00}\x00", "be bom": "\xfe\xff\x00{\x00}", "le": "{\x00}\x00", "be": "\x00{\x00}",
	} {
		d := loadErr(t, "a.json", src)
		if d.Rule != RuleEncoding || !strings.Contains(d.Message, "UTF-16") || d.Hint != "save it as UTF-8" {
			t.Errorf("%s: got %v", name, d)
		}
	}
}

// CUE errors without a position of their own (cycles, incomplete values)
// are placed at the field their path names.
func TestCUEErrorsHavePositions(t *testing.T) {
	for src, want := range map[string]string{
		"x: 1\na: {x: a}\n":             "a.cue:2:5", // the field x of the cycle
		"x: 1\na: b\nb: a\n":            "a.cue:2:4",
		"x: 1\nn: m: {k: n}\n":          "a.cue:2:8",
		"x: 1\nn: {\n  \"é\": int\n}\n": "a.cue:3:8", // characters, not bytes
	} {
		_, l := Bytes("a.cue", []byte(src), Options{})
		if len(l) == 0 {
			t.Errorf("%q: no error", src)
			continue
		}
		for _, d := range l {
			if !d.Pos.IsValid() {
				t.Errorf("%q: %v has no line", src, d)
			}
		}
		if l[0].Pos.String() != want {
			t.Errorf("%q: %v, want it at %s", src, l, want)
		}
	}
}

// A file within the size limit that holds millions of values is refused
// by counting before any parser builds them (16 MiB of "0," took 17 s and
// 3 GB); between the estimate and the limit, the loader's own count
// refuses it.
func TestManyValuesAreRefusedEarly(t *testing.T) {
	for name, src := range map[string]string{
		"a.json": `{"a": [` + strings.Repeat("0,", 4<<20) + `0]}`,
		"a.yaml": "a:\n" + strings.Repeat("- 0\n", 2<<20),
		"b.yaml": "a: [" + strings.Repeat("0,", 4<<20) + "0]\n",
		"a.cue":  "a: [" + strings.Repeat("0,", 4<<20) + "0]\n",
	} {
		var d diag.Diagnostic
		bounded(t, 2*time.Second, 64<<20, func() { d = loadErr(t, name, src) })
		if d.Rule != RuleLimit || d.Message != fmt.Sprintf("the spec holds more than %d values", MaxValues) {
			t.Errorf("%s: %v", name, d)
		}
	}
	src := `{"a": [` + strings.Repeat("0,", MaxValues+10) + `0]}`
	if d := loadErr(t, "c.json", src); d.Rule != RuleLimit || !strings.Contains(d.Message, "expands to more than") {
		t.Errorf("over the limit, under the estimate: %v", d)
	}
}

// Values CUE computes (list.Range, comprehensions) have a line: their own,
// or the nearest enclosing value's.
func TestCUEComputedValuesHavePositions(t *testing.T) {
	doc := mustLoad(t, "a.cue", "import \"list\"\nx: 1\nn: list.Range(0, 3, 1)\nm: [for i in n {i}]\n")
	var walk func(n *Node)
	walk = func(n *Node) {
		if !n.Pos.IsValid() || n.Pos.File != "a.cue" {
			t.Errorf("%+v has no position", n)
		}
		for _, f := range n.Fields {
			walk(f.Value)
		}
		for _, it := range n.Items {
			walk(it)
		}
	}
	walk(doc.Root)
}

// The estimate lets real specs through: the 2000-pool benchmark spec as
// CUE, and a spec that builds its pools with a comprehension.
func TestCUEGrowthAllowsSpecs(t *testing.T) {
	for name, src := range map[string]string{
		"gen-2000": string(specgen.JSON(2000)),
		"comprehension": `import "list"
_zones: ["us-central1-a", "us-central1-b"]
nodePools: [for i in list.Range(0, 100, 1) for z in _zones {id: "p\(i)-\(z)", zone: z, machineSpec: {machineType: "n2-standard-8"}}]
name: "projects/" + _project + "/locations/" + _region + "/modelDevelopmentClusters/c"
_project: "my-project"
_region: "us-central1"
`,
	} {
		// The size estimate and the heap bound are what is checked here;
		// the wall-clock limit is lifted, so that a loaded machine (or
		// -race) cannot fail the test: speed is the benchmarks' to check
		// (BenchmarkLoad).
		_, l := Bytes("a.cue", []byte(src), Options{CUE: NewCUEGate(10*time.Minute, 0)})
		for _, d := range l {
			if d.Rule == RuleLimit {
				t.Errorf("%s: %v", name, d)
			}
		}
	}
}
