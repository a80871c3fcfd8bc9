package schema

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/slurmspec/slurmspec/compiler/load"
)

// asWritten converts a loaded document to plain JSON data with every key as
// written (no normalisation): what an editor validates.
func asWritten(t *testing.T, file string) any {
	t.Helper()
	doc, l := load.File(file, load.Options{Verbatim: func(load.Path) bool { return true }})
	if l.HasErrors() {
		t.Fatalf("%s: %v", file, l)
	}
	return plain(t, doc)
}

// asWrittenBytes is asWritten for data in memory.
func asWrittenBytes(t *testing.T, name string, data []byte) any {
	t.Helper()
	doc, l := load.Bytes(name, data, load.Options{Verbatim: func(load.Path) bool { return true }})
	if l.HasErrors() {
		t.Fatalf("%s: %v", name, l)
	}
	return plain(t, doc)
}

func plain(t *testing.T, doc *load.Document) any {
	var conv func(n *load.Node) any
	conv = func(n *load.Node) any {
		switch n.Kind {
		case load.Object:
			m := map[string]any{}
			for _, f := range n.Fields {
				m[f.Written] = conv(f.Value)
			}
			return m
		case load.Array:
			a := []any{}
			for _, it := range n.Items {
				a = append(a, conv(it))
			}
			return a
		case load.String:
			return n.Text
		case load.Number:
			v, err := jsonschema.UnmarshalJSON(strings.NewReader(n.Text))
			if err != nil {
				t.Fatalf("number %q: %v", n.Text, err)
			}
			return v
		case load.Bool:
			return n.True
		}
		return nil
	}
	return conv(doc.Root)
}

func compileJSONSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	b, err := JSONSchema()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(JSONSchemaID, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(JSONSchemaID)
	if err != nil {
		t.Fatalf("exported JSON Schema does not compile: %v", err)
	}
	return s
}

func TestExportedJSONSchemaAcceptsEveryExample(t *testing.T) {
	s := compileJSONSchema(t)
	files, _ := filepath.Glob("../examples/*.*")
	if len(files) < 2 {
		t.Fatalf("examples not found: %v", files)
	}
	for _, f := range files {
		if err := s.Validate(asWritten(t, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

func TestExportedJSONSchemaRejectsBrokenSpecs(t *testing.T) {
	s := compileJSONSchema(t)
	good := asWritten(t, "../examples/a4-training.yaml").(map[string]any)
	for name, breakIt := range map[string]func(m map[string]any){
		"unknown field":   func(m map[string]any) { m["nodePoolz"] = []any{} },
		"no node pools":   func(m map[string]any) { delete(m, "nodePools") },
		"bad enum":        func(m map[string]any) { pool(m)["provisioningModel"] = "SPOTT" },
		"wrong type":      func(m map[string]any) { pool(m)["scalingSpec"].(map[string]any)["maxNodeCount"] = "4" },
		"bad filestore":   func(m map[string]any) { slurm(m)["home_directory_storage"] = "projects/p/instances/x" },
		"slurm injection": func(m map[string]any) { slurm(m)["config"].(map[string]any)["MaxTime"] = "1\nDefault=YES" },
		"bad pool id":     func(m map[string]any) { pool(m)["id"] = "A4 pool" },
		// The provisioning-model rules are conditional on other fields; the
		// JSON Schema generator does not carry them (lint does).
	} {
		m := asWritten(t, "../examples/a4-training.yaml").(map[string]any)
		breakIt(m)
		if err := s.Validate(m); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if err := s.Validate(good); err != nil {
		t.Errorf("control: %v", err)
	}
	// A FLEX_START pool with its maximum duration is valid (the generated
	// schema refused flexStartMaxDuration everywhere).
	flex := asWritten(t, "../examples/a4-training.yaml").(map[string]any)
	p := pool(flex)
	delete(p["machineSpec"].(map[string]any), "reservationAffinity")
	delete(p["machineSpec"].(map[string]any), "reservation_affinity")
	p["provisioningModel"], p["flexStartMaxDuration"] = "FLEX_START", "604800s"
	delete(p, "provisioning_model")
	if err := s.Validate(flex); err != nil {
		t.Errorf("FLEX_START pool: %v", err)
	}
	p["flexStartMaxDuration"] = "7d"
	if err := s.Validate(flex); err == nil {
		t.Errorf("flexStartMaxDuration 7d: accepted")
	}
}

func pool(m map[string]any) map[string]any { return m["nodePools"].([]any)[0].(map[string]any) }

func slurm(m map[string]any) map[string]any {
	return m["orchestratorSpec"].(map[string]any)["slurmSpec"].(map[string]any)
}

func TestSnakeCase(t *testing.T) {
	for in, want := range map[string]string{"nodePoolIds": "node_pool_ids", "id": "id", "bootDiskSizeGb": "boot_disk_size_gb", "$schema": "$schema"} {
		if got := SnakeCase(in); got != want {
			t.Errorf("SnakeCase(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestMapKeysAreKeptVerbatim: keys of free-form maps (labels, slurm.conf
// config) are data and must not be renamed from snake_case.
func TestMapKeysAreKeptVerbatim(t *testing.T) {
	s, err := New()
	if err != nil {
		t.Fatal(err)
	}
	src := "labels: {cost_center: a}\nnodePools: [{id: x, labels: {team_name: b}}]\norchestratorSpec: {slurm_spec: {config: {Some_Key: c}, partitions: [{config: {K_v: d}}], node_sets: [{config: {N_k: e}}]}}\n"
	doc, l := load.Bytes("v.yaml", []byte(src), load.Options{Verbatim: s.Verbatim})
	if l.HasErrors() {
		t.Fatal(l)
	}
	slurmSpec := doc.Root.Get("orchestratorSpec").Get("slurmSpec")
	for name, n := range map[string]*load.Node{
		"cost_center": doc.Root.Get("labels"),
		"team_name":   doc.Root.Get("nodePools").Items[0].Get("labels"),
		"Some_Key":    slurmSpec.Get("config"),
		"K_v":         slurmSpec.Get("partitions").Items[0].Get("config"),
		"N_k":         slurmSpec.Get("nodeSets").Items[0].Get("config"),
	} {
		if n.Field(name) == nil {
			t.Errorf("key %q was renamed: %+v", name, n.Fields)
		}
	}
}
