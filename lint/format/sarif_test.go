package format

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/lint/pipeline"
)

const sarifModule = "github.com/owenrumney/go-sarif/v3"

// sarifSchema compiles the official SARIF 2.1.0 JSON schema that go-sarif
// embeds (as the unexported constant schema in schema.go), read from the
// module's directory so that the repository holds no copy of it.
func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(moduleDir(t, sarifModule), "pkg", "report", "v210", "sarif", "schema.go"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(src), "const schema = `")
	text, _, closed := strings.Cut(rest, "`")
	if !ok || !closed {
		t.Fatal("no `const schema = `...`` in go-sarif's schema.go")
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
	if err != nil {
		t.Fatalf("go-sarif's schema: %v", err)
	}
	if id, _ := doc.(map[string]any)["id"].(string); !strings.HasSuffix(id, "sarif-schema-2.1.0.json") {
		t.Fatalf("go-sarif's schema has id %q, not the SARIF 2.1.0 schema", id)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	const url = "sarif-schema-2.1.0.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// moduleDir returns the directory of a module in the build list.
func moduleDir(t *testing.T, mod string) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", mod).Output()
	if dir := strings.TrimSpace(string(out)); err == nil && dir != "" {
		return dir
	}
	// Without the go command: the module cache and the build info.
	bi, ok := debug.ReadBuildInfo()
	cache := os.Getenv("GOMODCACHE")
	if cache == "" {
		cache = filepath.Join(os.Getenv("HOME"), "go", "pkg", "mod")
	}
	if ok {
		for _, d := range bi.Deps {
			if d.Path == mod {
				return filepath.Join(cache, filepath.FromSlash(mod)+"@"+d.Version)
			}
		}
	}
	t.Fatalf("cannot locate module %s: %v", mod, err)
	return ""
}

func validateBytes(t *testing.T, sch *jsonschema.Schema, out []byte) error {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
	if err != nil {
		t.Fatalf("output is not JSON: %v", err)
	}
	return sch.Validate(inst)
}

func TestSARIFSchema(t *testing.T) {
	sch := sarifSchema(t)
	catalog := fixture()
	catalog.Rules = RuleInfos(pipeline.Catalog().Entries())
	catalog.ToolVersion = "v0.0.0-20260801120000-0123456789ab"
	for name, r := range map[string]Run{"fixture": fixture(), "catalog": catalog, "empty": {}} {
		t.Run(name, func(t *testing.T) {
			out := format(t, "sarif", Options{}, r)
			if err := validateBytes(t, sch, out); err != nil {
				t.Errorf("SARIF output does not match the 2.1.0 schema: %v", err)
			}
			if err := (SARIF{}).Report(r).Validate(); err != nil {
				t.Errorf("go-sarif Validate: %v", err)
			}
		})
	}
}

// TestSARIFSchemaCanFail proves that the schema check rejects broken SARIF.
func TestSARIFSchemaCanFail(t *testing.T) {
	sch := sarifSchema(t)
	out := format(t, "sarif", Options{}, fixture())
	for _, c := range []struct{ old, new string }{
		{`"level": "error"`, `"level": "fatal"`},
		{`"startLine": 4`, `"startLine": 0`},
		{`"version": "2.1.0"`, `"version": "2.0.0"`},
		{`"ruleId": "reserved-key"`, `"ruleId": 7`},
	} {
		if !bytes.Contains(out, []byte(c.old)) {
			t.Fatalf("output has no %s", c.old)
		}
		broken := bytes.Replace(out, []byte(c.old), []byte(c.new), 1)
		if err := validateBytes(t, sch, broken); err == nil {
			t.Errorf("schema accepted SARIF with %s", c.new)
		}
	}
}

// sarifLog is the part of a SARIF log the checks below read.
type sarifLog struct {
	Runs []struct {
		Tool struct {
			Driver struct {
				Name, Version, InformationURI string
				Rules                         []sarifRule
			}
		}
		Results []struct {
			RuleID    string
			RuleIndex int
			Level     string
			Message   struct{ Text string }
			Locations []struct {
				PhysicalLocation *struct {
					ArtifactLocation struct{ URI string }
					Region           *struct{ StartLine, StartColumn int }
				}
				LogicalLocations []struct{ FullyQualifiedName string }
			}
			Properties map[string]string
		}
	}
}

// sarifRule is a driver's rule, as the checks read it.
type sarifRule struct {
	ID                   string
	HelpURI              string
	ShortDescription     struct{ Text string }
	FullDescription      struct{ Text string }
	DefaultConfiguration struct{ Level string }
}

func TestSARIFContent(t *testing.T) {
	r := fixture()
	var log sarifLog
	if err := json.Unmarshal(format(t, "sarif", Options{}, r), &log); err != nil {
		t.Fatal(err)
	}
	if len(log.Runs) != 1 {
		t.Fatalf("%d runs, want 1", len(log.Runs))
	}
	run := log.Runs[0]
	drv := run.Tool.Driver
	if drv.Name != "slurmspec" || drv.Version != "v1.2.3" || drv.InformationURI != InformationURI {
		t.Errorf("driver %s %s %s", drv.Name, drv.Version, drv.InformationURI)
	}
	ids := map[string]string{}
	for _, rd := range drv.Rules {
		ids[rd.ID] = rd.HelpURI
	}
	if got := ids["reserved-key"]; got != "https://github.com/slurmspec/slurmspec/blob/v1.2.3/docs/rules.md#reserved-key" {
		t.Errorf("helpUri %q", got)
	}
	if got := ids["placeholder"]; got != "https://example.com/placeholder" {
		t.Errorf("HelpURI override ignored: %q", got)
	}
	if _, ok := ids["gpu-pool-provisioning"]; !ok {
		t.Error("a rule without results is missing from the driver")
	}

	var want []diag.Diagnostic
	for _, f := range sorted(r) {
		want = append(want, f.Diags...)
	}
	if len(run.Results) != len(want) {
		t.Fatalf("%d results, want %d", len(run.Results), len(want))
	}
	for i, res := range run.Results {
		d := want[i]
		if res.RuleIndex < 0 || res.RuleIndex >= len(drv.Rules) || drv.Rules[res.RuleIndex].ID != res.RuleID || res.RuleID != d.Rule {
			t.Errorf("result %d: ruleId %q index %d does not resolve", i, res.RuleID, res.RuleIndex)
		}
		if lv := map[diag.Severity]string{diag.Error: "error", diag.Warning: "warning", diag.Info: "note"}[d.Severity]; res.Level != lv {
			t.Errorf("result %d: level %q, want %q", i, res.Level, lv)
		}
		if len(res.Locations) != 1 || res.Locations[0].PhysicalLocation == nil {
			t.Errorf("result %d (%s): no physical location", i, d)
			continue
		}
		pl := res.Locations[0].PhysicalLocation
		switch {
		case !d.Pos.IsValid() && pl.Region != nil:
			t.Errorf("result %d (%s): made-up region %+v", i, d, *pl.Region)
		case d.Pos.IsValid() && (pl.Region == nil || pl.Region.StartLine != d.Pos.Line || pl.Region.StartColumn != d.Pos.Col):
			t.Errorf("result %d (%s): region %+v", i, d, pl.Region)
		}
		if d.Path != "" && (len(res.Locations[0].LogicalLocations) != 1 ||
			res.Locations[0].LogicalLocations[0].FullyQualifiedName != d.Path || res.Properties["path"] != d.Path) {
			t.Errorf("result %d (%s): spec path missing", i, d)
		}
	}
	if uri := run.Results[len(run.Results)-2].Locations[0].PhysicalLocation.ArtifactLocation.URI; uri != "./dir,%20with:odd/b.json" {
		t.Errorf("uri %q", uri)
	}
}

func TestSynthesizedRules(t *testing.T) {
	r := fixture()
	var log sarifLog
	if err := json.Unmarshal(format(t, "sarif", Options{}, r), &log); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, rd := range log.Runs[0].Tool.Driver.Rules {
		got[rd.ID] = rd.ShortDescription.Text + " / " + rd.DefaultConfiguration.Level
	}
	for id, want := range map[string]string{
		"schema-type":    "Schema check: type / error",
		"load-io":        "Loader check: io / error",
		"internal-error": "Check: internal error / error",
		"usage":          "Check: usage / error",
		"unused-pool":    "Node pools should be used by a partition / warning",
		"placeholder":    "Placeholders should be replaced / note",
	} {
		if got[id] != want {
			t.Errorf("rule %s: %q, want %q", id, got[id], want)
		}
	}
}

func TestDocsRef(t *testing.T) {
	for v, want := range map[string]string{
		"":                                   "main",
		"(devel)":                            "main",
		"v1.2.3":                             "v1.2.3",
		"v1.2.3+dirty":                       "v1.2.3",
		"v1.3.0-rc.1":                        "v1.3.0-rc.1",
		"v0.0.0-20260801120000-0123456789ab": "0123456789ab",
		"v1.2.4-0.20260801120000-0123456789ab+dirty": "0123456789ab",
		"v1.3.0-rc.1.0.20260801120000-0123456789ab":  "0123456789ab",
		"1.2.3":    "main",
		"v1.2":     "main",
		"vx.y.z":   "main",
		"v1.2.3-":  "main",
		"main/../": "main",
	} {
		if got := docsRef(v); got != want {
			t.Errorf("docsRef(%q) = %q, want %q", v, got, want)
		}
	}
}

// TestSARIFExecutionSuccessful: a run is successful only when every check
// ran on every file; an unreadable file and a check that could not run
// each give an error notification, and the document stays valid SARIF.
func TestSARIFExecutionSuccessful(t *testing.T) {
	sch := sarifSchema(t)
	clean := Run{Files: []File{{Name: "a.yaml", Diags: diag.List{{Rule: "r", Severity: diag.Error, Message: "bad"}}}}}
	unreadable := Run{Files: []File{{Name: "a.yaml"}, {Name: "gone.yaml", Error: true, Diags: diag.List{{Rule: "read", Severity: diag.Error, Message: "no such file"}}}}}
	offline := Run{Files: []File{{Name: "a.yaml"}}, Failures: []string{"--online: the Filestore API is unreachable"}}
	for _, c := range []struct {
		name string
		run  Run
		ok   bool
		msgs []string
	}{
		{"findings", clean, true, nil},
		{"unreadable", unreadable, false, []string{"gone.yaml could not be read: no such file"}},
		{"failure", offline, false, []string{"--online: the Filestore API is unreachable"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := format(t, "sarif", Options{}, c.run)
			if err := validateBytes(t, sch, out); err != nil {
				t.Errorf("not SARIF 2.1.0: %v", err)
			}
			var log struct {
				Runs []struct {
					Invocations []struct {
						ExecutionSuccessful        *bool `json:"executionSuccessful"`
						ToolExecutionNotifications []struct {
							Level   string `json:"level"`
							Message struct {
								Text string `json:"text"`
							} `json:"message"`
						} `json:"toolExecutionNotifications"`
					} `json:"invocations"`
				} `json:"runs"`
			}
			if err := json.Unmarshal(out, &log); err != nil {
				t.Fatal(err)
			}
			inv := log.Runs[0].Invocations
			if len(inv) != 1 || inv[0].ExecutionSuccessful == nil || *inv[0].ExecutionSuccessful != c.ok {
				t.Fatalf("invocations %s", out)
			}
			var got []string
			for _, n := range inv[0].ToolExecutionNotifications {
				if n.Level != "error" {
					t.Errorf("notification level %q", n.Level)
				}
				got = append(got, n.Message.Text)
			}
			if strings.Join(got, "|") != strings.Join(c.msgs, "|") {
				t.Errorf("notifications %q, want %q", got, c.msgs)
			}
		})
	}
}

// TestSARIFStageIDsFromCatalog: with the diagnostic catalog, the ids of
// the stages before lint (load, schema, internal, usage) are described
// from it, as every lint rule is: the catalog's summary and doc, and a
// help link to their section of docs/rules.md. Nothing is synthesized.
func TestSARIFStageIDsFromCatalog(t *testing.T) {
	r := fixture()
	cat := pipeline.Catalog()
	r.Rules = RuleInfos(cat.Entries())
	var log sarifLog
	if err := json.Unmarshal(format(t, "sarif", Options{}, r), &log); err != nil {
		t.Fatal(err)
	}
	got := map[string]sarifRule{}
	for _, rd := range log.Runs[0].Tool.Driver.Rules {
		got[rd.ID] = rd
	}
	for _, id := range []string{"schema-type", "load-io", "internal-error", "usage", "unused-pool"} {
		e, ok := cat.Lookup(id)
		if !ok {
			t.Fatalf("%s is not in the catalog", id)
		}
		rd := got[id]
		if rd.ShortDescription.Text != e.Summary || rd.FullDescription.Text != e.Doc {
			t.Errorf("rule %s: summary %q, want the catalog's %q (doc %q)", id, rd.ShortDescription.Text, e.Summary, rd.FullDescription.Text)
		}
		if want := "https://github.com/slurmspec/slurmspec/blob/v1.2.3/docs/rules.md#" + id; rd.HelpURI != want {
			t.Errorf("rule %s: helpUri %q, want %q", id, rd.HelpURI, want)
		}
	}
	if len(got) != len(cat.IDs()) {
		t.Errorf("%d rules in the driver, want the catalog's %d", len(got), len(cat.IDs()))
	}
}
