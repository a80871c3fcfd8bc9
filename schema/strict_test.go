package schema

import (
	"encoding/json"
	"strings"
	"testing"
)

// StrictJSON drops the editors' keywords wherever they are keywords, and
// nothing named like them that is not a keyword: a property, a $defs entry,
// an enum value.
func TestStrictJSONDropsOnlyKeywords(t *testing.T) {
	in := `{"$defs": {"markdownDescription": {"type": "string", "markdownDescription": "x"}},
		"properties": {"markdownDescription": {"$ref": "#/$defs/markdownDescription", "enumDescriptions": ["y"]},
			"e": {"enum": [{"patternErrorMessage": 1}], "patternErrorMessage": "z"}},
		"items": {"anyOf": [{"markdownEnumDescriptions": ["w"], "type": "integer"}]}}`
	out, err := StrictJSON([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	var got, want any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	_ = json.Unmarshal([]byte(`{"$defs": {"markdownDescription": {"type": "string"}},
		"properties": {"markdownDescription": {"$ref": "#/$defs/markdownDescription"}, "e": {"enum": [{"patternErrorMessage": 1}]}},
		"items": {"anyOf": [{"type": "integer"}]}}`), &want)
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		t.Errorf("StrictJSON:\n got %s\nwant %s", g, w)
	}
}

// A property that a pattern of its object also matches moves to $defs,
// and every $ref into it follows; in the exported schema each slurm.conf
// key is such a property (its pattern matches it in every case), and none
// is left in the config maps.
func TestStrictJSONMovesOverlaps(t *testing.T) {
	in := `{"$defs": {"C": {"properties": {"Key": {"type": "string", "properties": {"In": {"type": "integer"}}}},
			"patternProperties": {"^[Kk][Ee][Yy]$": {"$ref": "#/$defs/C/properties/Key"}}}},
		"properties": {"x": {"$ref": "#/$defs/C/properties/Key/properties/In"}}}`
	out, err := StrictJSON([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{`"C.Key": {`, `"$ref": "#/$defs/C.Key"`, `"$ref": "#/$defs/C.Key/properties/In"`} {
		if !strings.Contains(string(out), w) {
			t.Errorf("StrictJSON output lacks %s:\n%s", w, out)
		}
	}
	if strings.Contains(string(out), "properties/Key") {
		t.Errorf("a $ref still names the moved property:\n%s", out)
	}

	// A property matched by a pattern naming another schema is an error:
	// the overlap cannot be removed without changing what validates.
	bad := `{"properties": {"Key": {"type": "string"}}, "patternProperties": {"^K": {"type": "integer"}}}`
	if _, err := StrictJSON([]byte(bad)); err == nil {
		t.Error("StrictJSON accepted a property whose pattern names another schema")
	}

	b, err := JSONSchema()
	if err != nil {
		t.Fatal(err)
	}
	strict, err := StrictJSON(b)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(strict, &doc); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"GlobalConfig", "PartitionConfig", "NodeConfig"} {
		def, _ := doc["$defs"].(map[string]any)[name].(map[string]any)
		if props, _ := def["properties"].(map[string]any); len(props) != 0 {
			t.Errorf("$defs/%s keeps %d properties its patterns match", name, len(props))
		}
	}
	for _, k := range EditorKeywords {
		if strings.Contains(string(strict), `"`+k+`"`) {
			t.Errorf("the strict schema holds %s", k)
		}
	}
}
