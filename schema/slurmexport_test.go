package schema

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"cuelang.org/go/cue"

	"github.com/slurmspec/slurmspec/compiler/cuectx"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// cueVet validates a spec file against the exported CUE schema with the
// cue command when it is installed (make bench-tools), else with the same
// evaluator through CUE's Go API, and returns the error text.
func cueVet(t *testing.T, v catalog.Version, spec string) string {
	t.Helper()
	src, err := CUESourceFor(v)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	schemaFile := filepath.Join(dir, "cluster.cue")
	if err := os.WriteFile(schemaFile, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if bin, err := exec.LookPath("cue"); err == nil {
		out, err := exec.Command(bin, "vet", "-d", "#Cluster", schemaFile, spec).CombinedOutput()
		if err == nil {
			return ""
		}
		return string(out)
	}
	t.Logf("cue not on PATH: validating with CUE's Go API")
	ctx := cuectx.New()
	root := ctx.CompileBytes(src)
	data, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	doc := cueNumbers(asWrittenBytes(t, spec, data))
	if err := root.LookupPath(cue.ParsePath("#Cluster")).Unify(ctx.Encode(doc)).Validate(cue.Concrete(true)); err != nil {
		return err.Error()
	}
	return ""
}

// TestExportedCUEVetsTheExamples: the README's recipe (cue vet -d
// '#Cluster') accepts both examples, snake_case fields included, and
// refuses a misspelt slurm.conf key, a bad enum value, a reserved key and
// broken references, each at its path.
func TestExportedCUEVetsTheExamples(t *testing.T) {
	for _, f := range []string{"../examples/a4-training.yaml", "../examples/seed.jsonc"} {
		spec := asJSONFile(t, f)
		if out := cueVet(t, catalog.Newest(), spec); out != "" {
			t.Errorf("%s: cue vet refuses it:\n%s", f, out)
		}
	}
	for name, c := range map[string]struct{ from, to, want string }{
		"misspelt key":      {"PreemptExemptTime: \"00:10:00\"", "PreemptExemptTiem: \"00:10:00\"", "config.PreemptExemptTiem: undefined field"},
		"bad plugin":        {"PreemptType: preempt/partition_prio", "PreemptType: preempt/bogus", `config.PreemptType: invalid value "preempt/bogus"`},
		"bad list item":     {"PreemptMode: REQUEUE", "PreemptMode: REQUEUE,BOGUS", `config.PreemptMode: invalid value "REQUEUE,BOGUS"`},
		"reserved key":      {"PreemptMode: REQUEUE", "ClusterName: x", "config.ClusterName: conflicting values \"reserved-key: ClusterName is reserved"},
		"partition scope":   {"PreemptType: preempt/partition_prio", "PriorityTier: \"1\"", "config.PriorityTier: undefined field"},
		"default partition": {"default_partition_id: train", "default_partition_id: nope", `schema-reference: defaultPartitionId "nope" is not declared in partitions`},
		"pool reference":    {"login_node_pool_id: login", "login_node_pool_id: logon", `schema-reference: loginNodePoolId "logon" is not declared in nodePools`},
	} {
		src, err := os.ReadFile("../examples/a4-training.yaml")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(src), c.from) {
			t.Fatalf("%s: the example no longer has %q", name, c.from)
		}
		spec := filepath.Join(t.TempDir(), "spec.yaml")
		if err := os.WriteFile(spec, []byte(strings.Replace(string(src), c.from, c.to, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		if out := cueVet(t, catalog.Newest(), spec); !strings.Contains(out, c.want) {
			t.Errorf("%s: cue vet does not say %q:\n%s", name, c.want, out)
		}
	}
}

// asJSONFile writes a spec as plain JSON (cue vet reads no comments).
func asJSONFile(t *testing.T, file string) string {
	t.Helper()
	b, err := json.Marshal(asWritten(t, file))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), filepath.Base(file)+".json")
	if err := os.WriteFile(out, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestJSONSchemaForEditors: every property has a description and a
// markdownDescription, every enum its enumDescriptions; completion lists
// each field once (no snake_case property names); every regular
// expression stays within the syntax all validators read.
func TestJSONSchemaForEditors(t *testing.T) {
	b, err := JSONSchema()
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	nonPortable := []string{`\p`, `\P`, "(?", `\d`, `\w`, `\z`, `\A`, "[[:"}
	checkRe := func(where, re string) {
		for _, bad := range nonPortable {
			if strings.Contains(re, bad) {
				t.Errorf("%s: %q uses %s, which not every JSON Schema validator reads", where, re, bad)
			}
		}
		if _, err := regexp.Compile(re); err != nil {
			t.Errorf("%s: %v", where, err)
		}
	}
	props := 0
	var walk func(v any, where string)
	walk = func(v any, where string) {
		switch n := v.(type) {
		case []any:
			for i, e := range n {
				walk(e, fmt.Sprintf("%s/%d", where, i))
			}
		case map[string]any:
			if re, ok := n["pattern"].(string); ok {
				checkRe(where, re)
			}
			if pp, ok := n["patternProperties"].(map[string]any); ok {
				for re := range pp {
					checkRe(where+"/patternProperties", re)
				}
			}
			if ps, ok := n["properties"].(map[string]any); ok {
				for name, p := range ps {
					props++
					if strings.Contains(name, "_") {
						t.Errorf("%s: property %q is a snake_case spelling: editors would offer the field twice", where, name)
					}
					m, _ := p.(map[string]any)
					if m["description"] == nil || m["markdownDescription"] == nil {
						t.Errorf("%s/properties/%s has no description", where, name)
					}
					if e := enumOf(m); len(e) > 0 && m["enumDescriptions"] == nil && m["items"].(map[string]any)["enumDescriptions"] == nil {
						t.Errorf("%s/properties/%s: enum without enumDescriptions", where, name)
					}
				}
			}
			for k, e := range n {
				walk(e, where+"/"+k)
			}
		}
	}
	walk(doc, "#")
	if props < 300 {
		t.Errorf("only %d properties: the walk is broken", props)
	}
}

func TestCompletionOffersThePreemptionPlugins(t *testing.T) {
	b, err := JSONSchema()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Defs map[string]struct {
			Properties map[string]json.RawMessage `json:"properties"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	var key struct{ Examples []string }
	if err := json.Unmarshal(doc.Defs["GlobalConfig"].Properties["PreemptType"], &key); err != nil {
		t.Fatal(err)
	}
	got := key.Examples
	want := []string{"preempt/none", "preempt/partition_prio", "preempt/qos"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("PreemptType offers %v, want %v", got, want)
	}
}

// cueNumbers turns the json.Number values of a decoded document into Go
// numbers: CUE's Encode writes a json.Number as a string, so without this
// the fallback (no cue command on PATH, as on a fresh CI machine) refused
// every integer field ("200" and int).
func cueNumbers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = cueNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = cueNumbers(e)
		}
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		if f, err := x.Float64(); err == nil {
			return f
		}
	}
	return v
}
