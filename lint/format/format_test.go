package format

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// update rewrites the golden files instead of comparing with them.
func update() bool { return os.Getenv("SLURMSPEC_UPDATE") == "1" }

const srcA = "cluster:\n" +
	"  name: démo\n" +
	"  slurm:\n" +
	"    config: {ClusterName: x}\n" +
	"    partitions: [{name: debug, nodePoolIds: [gpu, cpu]}]\n"

// fixture is a fixed run: unsorted diagnostics with a duplicate, all three
// severities, unknown positions, related positions, characters that need
// escaping, rule ids outside the catalog and an unreadable file.
func fixture() Run {
	schemaType := diag.Diagnostic{Rule: "schema-type", Severity: diag.Error,
		Pos: diag.Pos{File: "a.yaml", Line: 2, Col: 9, EndLine: 2, EndCol: 13}, Path: "cluster.name",
		Message: `conflicting values 50% and "démo"`, Hint: `use a string such as "a,b"`}
	return Run{
		ToolVersion: "v1.2.3",
		Rules: []RuleInfo{
			{ID: "unused-pool", Severity: diag.Warning, Summary: "Node pools should be used by a partition",
				Doc: "A pool no partition uses costs money.\n\nBad:\n\n```yaml\npartitions: []\n```\n\nGood:\n\n```yaml\npartitions: [{nodePoolIds: [cpu]}]\n```\n"},
			{ID: "reserved-key", Severity: diag.Error, Summary: "Config must not set keys slurmspec manages",
				Doc: "slurmspec writes these keys itself.\n\nBad:\n\n```yaml\nconfig: {ClusterName: x}\n```\n\nGood:\n\n```yaml\nconfig: {}\n```\n"},
			{ID: "placeholder", Severity: diag.Info, Summary: "Placeholders should be replaced", HelpURI: "https://example.com/placeholder"},
			{ID: "gpu-pool-provisioning", Severity: diag.Warning, Summary: "GPU pools need a provisioning model",
				Doc: "Bad:\n\n```yaml\n{}\n```\n\nGood:\n\n```yaml\n{}\n```\n"},
		},
		Files: []File{
			{Name: "a.yaml", Source: []byte(srcA), Diags: diag.List{
				{Rule: "unused-pool", Severity: diag.Warning, Pos: diag.Pos{File: "a.yaml", Line: 5, Col: 51},
					Path: "orchestratorSpec.slurmSpec.partitions[0].nodePoolIds[1]", Message: `pool "cpu" is not used`, Hint: "remove it"},
				schemaType,
				{Rule: "reserved-key", Severity: diag.Error, Pos: diag.Pos{File: "a.yaml", Line: 4, Col: 14, EndLine: 4, EndCol: 28},
					Path:    "orchestratorSpec.slurmSpec.config.ClusterName",
					Message: "key ClusterName is managed: slurmspec sets it\r\nfrom the cluster id",
					Hint:    "drop it & let <slurmspec> set it",
					Related: []diag.Related{{Pos: diag.Pos{File: "a.yaml", Line: 2, Col: 3, EndLine: 2, EndCol: 7}, Path: "cluster.name", Message: "the cluster name comes from here"}}},
				schemaType,
				{Rule: "placeholder", Severity: diag.Info, Pos: diag.Pos{File: "a.yaml", Line: 3}, Message: "placeholder value"},
				{Rule: "internal-error", Severity: diag.Error, Pos: diag.Pos{File: "a.yaml"},
					Message: "internal error: rule x panicked: boom", Hint: "please report this"},
			}},
			{Name: "dir, with:odd/b.json", Error: true, Diags: diag.List{
				{Rule: "load-io", Severity: diag.Error, Pos: diag.Pos{File: "dir, with:odd/b.json"},
					Message: "open dir, with:odd/b.json: no such file or directory"},
			}},
			{Name: "c.cue", Diags: diag.List{
				{Rule: "usage", Severity: diag.Error, Message: `unknown input format "toml"`},
			}},
		},
	}
}

var goldens = []struct {
	file string
	name string
	opt  Options
}{
	{"golden.txt", "text", Options{}},
	{"golden_color_summary.txt", "text", Options{Color: true, FileSummary: true}},
	{"golden.json", "json", Options{}},
	{"golden.sarif", "sarif", Options{}},
	{"golden.github", "github", Options{}},
}

func format(t *testing.T, name string, opt Options, r Run) []byte {
	t.Helper()
	f, err := New(name, opt)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := f.Format(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestGolden(t *testing.T) {
	for _, g := range goldens {
		t.Run(g.file, func(t *testing.T) {
			got := format(t, g.name, g.opt, fixture())
			file := filepath.Join("testdata", g.file)
			if update() {
				if err := os.WriteFile(file, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run with SLURMSPEC_UPDATE=1 to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s output differs from %s (SLURMSPEC_UPDATE=1 rewrites it):\n--- got\n%s\n--- want\n%s", g.name, file, got, want)
			}
		})
	}
}

// TestDeterministic checks that the same run gives the same bytes, whatever
// the order of each file's diagnostics and of the rule catalog.
func TestDeterministic(t *testing.T) {
	for _, name := range Formats().Names() {
		t.Run(name, func(t *testing.T) {
			want := format(t, name, Options{}, fixture())
			if again := format(t, name, Options{}, fixture()); !bytes.Equal(again, want) {
				t.Fatal("two runs on the same input differ")
			}
			r := fixture()
			for _, f := range r.Files {
				slices.Reverse(f.Diags)
			}
			slices.Reverse(r.Rules)
			if got := format(t, name, Options{}, r); !bytes.Equal(got, want) {
				t.Fatalf("output depends on input order:\n%s\n---\n%s", got, want)
			}
		})
	}
}

func TestEmptyRun(t *testing.T) {
	got := format(t, "json", Options{}, Run{})
	want := "{\n  \"version\": 2,\n  \"files\": [],\n  \"summary\": {\n    \"errors\": 0,\n    \"warnings\": 0,\n    \"notes\": 0\n  },\n  \"failures\": []\n}\n"
	if string(got) != want {
		t.Errorf("empty run:\n%s\nwant\n%s", got, want)
	}
	for _, name := range []string{"text", "github"} {
		if got := format(t, name, Options{}, Run{}); len(got) != 0 {
			t.Errorf("%s: empty run printed %q", name, got)
		}
	}
}

func TestNew(t *testing.T) {
	for _, name := range Formats().Names() {
		if _, err := New(name, Options{}); err != nil {
			t.Errorf("New(%q): %v", name, err)
		}
	}
	_, err := New("sarf", Options{})
	if err == nil || !strings.Contains(err.Error(), `did you mean "sarif"?`) {
		t.Errorf("New(sarf) = %v, want a did-you-mean", err)
	}
	_, err = New("xml", Options{})
	if err == nil || !strings.Contains(err.Error(), "want text, json, sarif or github") {
		t.Errorf("New(xml) = %v, want the list of formats", err)
	}
}

// TestJSONRoundTrip checks that JSONReport describes the whole output: it
// decodes with unknown fields disallowed and encodes back to the same bytes.
func TestJSONRoundTrip(t *testing.T) {
	out := format(t, "json", Options{}, fixture())
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.DisallowUnknownFields()
	var rep JSONReport
	if err := dec.Decode(&rep); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := writeJSON(&b, rep); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), out) {
		t.Errorf("round trip differs:\n%s\n---\n%s", b.Bytes(), out)
	}
	if rep.Version != JSONVersion || rep.Summary != (JSONSummary{Errors: 5, Warnings: 1, Notes: 1}) {
		t.Errorf("version %d, summary %+v", rep.Version, rep.Summary)
	}
	if d := rep.Files[2].Diagnostics[0]; d.File != "c.cue" || d.Line != 0 || d.Related == nil {
		t.Errorf("diagnostic without position: %+v", d)
	}
	if !rep.Files[1].Unreadable {
		t.Error("unreadable file not marked")
	}
}

func TestTextExcerpt(t *testing.T) {
	got := string(format(t, "text", Options{}, fixture()))
	// The caret sits under column 14 of line 4 (byte-based, one rune per
	// byte here) and line 2's caret counts runes, not bytes.
	for _, want := range []string{
		"    4 |     config: {ClusterName: x}\n      |              ^\n",
		"    2 |   name: démo\n      |         ^\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing excerpt %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "\x1b[") {
		t.Error("colour without Options.Color")
	}
}

func TestGitHubEscaping(t *testing.T) {
	for _, c := range []struct{ in, data, prop string }{
		{"plain", "plain", "plain"},
		{"50%", "50%25", "50%25"},
		{"a\r\nb", "a%0D%0Ab", "a%0D%0Ab"},
		{"k: v, w", "k: v, w", "k%3A v%2C w"},
		{"%0A", "%250A", "%250A"},
		{"::error::x", "::error::x", "%3A%3Aerror%3A%3Ax"},
	} {
		if got := escapeData(c.in); got != c.data {
			t.Errorf("escapeData(%q) = %q, want %q", c.in, got, c.data)
		}
		if got := escapeProperty(c.in); got != c.prop {
			t.Errorf("escapeProperty(%q) = %q, want %q", c.in, got, c.prop)
		}
	}
	out := string(format(t, "github", Options{}, fixture()))
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 7 { // the duplicate is dropped
		t.Fatalf("want one line per distinct diagnostic, got %d:\n%s", len(lines), out)
	}
	for _, want := range []string{
		"::error file=a.yaml,line=4,col=14,title=reserved-key::key ClusterName is managed: slurmspec sets it%0D%0Afrom the cluster id%0Apath: orchestratorSpec.slurmSpec.config.ClusterName%0Asee: a.yaml:2:3: the cluster name comes from here%0Ahint: drop it & let <slurmspec> set it",
		"::notice file=a.yaml,line=3,title=placeholder::placeholder value",
		"::error file=a.yaml,title=internal-error::internal error: rule x panicked: boom%0Ahint: please report this",
		"::error file=dir%2C with%3Aodd/b.json,title=load-io::open dir, with:odd/b.json: no such file or directory",
		"::warning file=a.yaml,line=5,col=51,title=unused-pool::",
		"::error file=c.cue,title=usage::",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
}

func TestBaseDir(t *testing.T) {
	base := t.TempDir()
	r := Run{Files: []File{{Name: filepath.Join(base, "sub", "x.yaml"), Diags: diag.List{
		{Rule: "r", Severity: diag.Warning, Pos: diag.Pos{File: filepath.Join(base, "sub", "x.yaml"), Line: 3, Col: 2}, Message: "m"},
	}}}}
	if got := string(format(t, "github", Options{BaseDir: base}, r)); !strings.HasPrefix(got, "::warning file=sub/x.yaml,line=3,col=2,") {
		t.Errorf("github with BaseDir: %q", got)
	}
	if got := string(format(t, "sarif", Options{BaseDir: base}, r)); !strings.Contains(got, `"uri": "sub/x.yaml"`) {
		t.Errorf("sarif with BaseDir: no relative uri in\n%s", got)
	}
	if got := string(format(t, "sarif", Options{}, r)); !strings.Contains(got, `"uri": "file://`+filepath.ToSlash(base)+`/sub/x.yaml"`) {
		t.Errorf("sarif without BaseDir: no file URI in\n%s", got)
	}
}

// TestTextEscaping checks that control characters from the spec cannot
// forge lines or reach the terminal, and that the caret stays aligned
// (columns count characters: U+0085 is one).
func TestTextEscaping(t *testing.T) {
	src := "k:\n  \tv: \"\x1b[2J\u0085x\" # tail\n"
	r := Run{Files: []File{{Name: "e.yaml", Source: []byte(src), Diags: diag.List{
		{Rule: "r", Severity: diag.Error, Pos: diag.Pos{File: "e.yaml", Line: 2, Col: 14}, Path: "k.v\n",
			Message: "bad \"\x1b[2J\"\nok: forged line", Hint: "a\rb",
			Related: []diag.Related{{Pos: diag.Pos{File: "e.yaml", Line: 1, Col: 1}, Message: "x\ty\x00"}}},
	}}}}
	got := string(format(t, "text", Options{}, r))
	want := `e.yaml:2:14: error: bad "\x1b[2J"\nok: forged line [r]
    2 |    v: "?[2J?x" # tail
      |              ^
    path: k.v\n
    see: e.yaml:1:1: x\ty\x00
    hint: a\rb
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestDocExamples checks the examples in docs/output-formats.md: the JSON
// example decodes into JSONReport and is exactly what the json format
// prints for it, and the github example is what the github format prints.
func TestDocExamples(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "output-formats.md"))
	if err != nil {
		t.Fatal(err)
	}
	block := func(after, fence string) string {
		_, rest, ok := strings.Cut(string(doc), after)
		_, rest, ok2 := strings.Cut(rest, fence+"\n")
		body, _, ok3 := strings.Cut(rest, "```\n")
		if !ok || !ok2 || !ok3 {
			t.Fatalf("no %s block after %q", fence, after)
		}
		return body
	}
	jsonDoc := block("## json", "```json")
	dec := json.NewDecoder(strings.NewReader(jsonDoc))
	dec.DisallowUnknownFields()
	var rep JSONReport
	if err := dec.Decode(&rep); err != nil {
		t.Fatal(err)
	}
	var r Run
	for _, jf := range rep.Files {
		f := File{Name: jf.File, Error: jf.Unreadable}
		for _, jd := range jf.Diagnostics {
			sev, err := diag.ParseSeverity(jd.Severity)
			if err != nil {
				t.Fatal(err)
			}
			d := diag.Diagnostic{Rule: jd.Rule, Severity: sev, Pos: diag.Pos{File: jd.File, Line: jd.Line, Col: jd.Column, EndLine: jd.EndLine, EndCol: jd.EndColumn},
				Path: jd.Path, Message: jd.Message, Hint: jd.Hint}
			for _, jr := range jd.Related {
				d.Related = append(d.Related, diag.Related{Pos: diag.Pos{File: jr.File, Line: jr.Line, Col: jr.Column, EndLine: jr.EndLine, EndCol: jr.EndColumn}, Path: jr.Path, Message: jr.Message})
			}
			f.Diags = append(f.Diags, d)
		}
		r.Files = append(r.Files, f)
	}
	if got := string(format(t, "json", Options{}, r)); got != jsonDoc {
		t.Errorf("docs' JSON example is not what the json format prints:\n%s", got)
	}
	if got, want := string(format(t, "github", Options{}, r)), block("## github", "```"); got != want {
		t.Errorf("docs' github example is not what the github format prints:\n%s", got)
	}
}

// TestTextFileNameCannotStartCommand checks that a spec whose name starts
// with "::" cannot start a GitHub workflow command in the text format,
// whose lines start with the file name.
func TestTextFileNameCannotStartCommand(t *testing.T) {
	name := "::error file=x::forged.yaml"
	r := Run{Files: []File{{Name: name, Diags: diag.List{
		{Rule: "r", Severity: diag.Error, Pos: diag.Pos{File: name, Line: 1, Col: 1}, Message: "m"},
	}}}}
	got := string(format(t, "text", Options{FileSummary: true}, r))
	for _, line := range strings.Split(got, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "::") {
			t.Errorf("line starts a workflow command: %q", line)
		}
	}
	if !strings.Contains(got, `\x3a:error file=x::forged.yaml:1:1: error: m [r]`) {
		t.Errorf("file name not escaped as escape.Text does:\n%s", got)
	}
}

// TestNoLegacyWorkflowCommands: "##[", which GitHub's runner reads as a
// workflow command anywhere in a line, appears in no format's output, and
// the JSON formats still decode to the text the spec holds.
func TestNoLegacyWorkflowCommands(t *testing.T) {
	name := "a ##[error]name.yaml"
	src := "k: \"##[error]forged\"\n"
	r := Run{Files: []File{{Name: name, Source: []byte(src), Diags: diag.List{
		{Rule: "r", Severity: diag.Error, Pos: diag.Pos{File: name, Line: 1, Col: 4}, Path: "k", Message: "bad ##[error]forged", Hint: "h ##[warning]x"},
	}}}}
	for _, f := range []string{"text", "json", "sarif"} {
		got := string(format(t, f, Options{FileSummary: true}, r))
		if strings.Contains(got, "##[") {
			t.Errorf("%s output holds ##[:\n%s", f, got)
		}
	}
	var rep JSONReport
	if err := json.Unmarshal(format(t, "json", Options{}, r), &rep); err != nil {
		t.Fatal(err)
	}
	if d := rep.Files[0].Diagnostics[0]; d.Message != "bad ##[error]forged" || rep.Files[0].File != name {
		t.Errorf("json decodes to %q in %q", d.Message, rep.Files[0].File)
	}
}
