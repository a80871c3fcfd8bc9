package accounting_test

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"

	"github.com/slurmspec/slurmspec/schema/accounting"
)

// TestJSONSchema: the exported JSON Schema accepts the example accounting
// file and refuses what the CUE schema refuses.
func TestJSONSchema(t *testing.T) {
	data, err := accounting.JSONSchema()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(accounting.JSONSchemaID, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(accounting.JSONSchemaID)
	if err != nil {
		t.Fatal(err)
	}
	asJSON := func(text []byte) any {
		var v any
		if err := yaml.Unmarshal(text, &v); err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		out, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	example, err := os.ReadFile("../../examples/accounting/a4-training.accounting.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(asJSON(example)); err != nil {
		t.Errorf("the example: %v", err)
	}
	for _, bad := range []string{
		"accounts: [{name: Research}]",
		"users: [{name: bob}]",
		"qos: [{name: a, limits: {MaxCPUs: 4}}]",
		"qos: [{name: a, preemptMode: gang}]",
		"teams: []",
		`accounts: [{name: a, description: "a\u202eb"}]`,
		`accounts: [{name: a, description: "a\rb"}]`,
	} {
		if err := s.Validate(asJSON([]byte(bad))); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
}

// TestJSONSchemaDescribesEveryField: an editor shows a description when
// the cursor is on any field of the file (the CUE schema's comments).
func TestJSONSchemaDescribesEveryField(t *testing.T) {
	data, err := accounting.JSONSchema()
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	var walk func(v any, path string)
	walk = func(v any, path string) {
		switch v := v.(type) {
		case map[string]any:
			if props, ok := v["properties"].(map[string]any); ok {
				for name, p := range props {
					if m, ok := p.(map[string]any); !ok || m["description"] == nil {
						t.Errorf("%s.%s has no description", path, name)
					}
				}
			}
			for k, sub := range v {
				walk(sub, path+"/"+k)
			}
		case []any:
			for _, sub := range v {
				walk(sub, path)
			}
		}
	}
	walk(doc, "")
}
