package pulumimodel

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestStateReadBack: inputs as a bridged provider's Check records them in
// state ("__defaults" at every level, pluralised list names) read back as
// the request body, and the body goes out under the provider's names.
func TestStateReadBack(t *testing.T) {
	body := map[string]any{
		"displayName": "x",
		"lustreExportConfig": map[string]any{
			"destinationBucket": "b",
			"daysOfWeek":        []any{"MONDAY"},
		},
		"nodePools": []any{map[string]any{"id": "a", "machineSpec": map[string]any{"machineType": "n2-standard-8"}}},
	}
	sent := ToPulumi(body)
	lec := sent["lustreExportConfig"].(map[string]any)
	if _, ok := lec["daysOfWeeks"]; !ok || lec["daysOfWeek"] != nil {
		t.Errorf("sent lustreExportConfig = %v, want daysOfWeeks", lec)
	}
	if _, ok := body["lustreExportConfig"].(map[string]any)["daysOfWeek"]; !ok {
		t.Error("ToPulumi changed its argument")
	}

	recorded := map[string]any{
		"__defaults":                []any{},
		"project":                   "acme-ml",
		"region":                    "us-central1",
		"modelDevelopmentClusterId": "c",
		"deletionPolicy":            "PREVENT",
		"displayName":               "x",
		"lustreExportConfig": map[string]any{
			"__defaults":        []any{"startTime"},
			"destinationBucket": "b",
			"daysOfWeeks":       []any{"MONDAY"},
		},
		"nodePools": []any{map[string]any{"__defaults": []any{}, "id": "a", "machineSpec": map[string]any{"__defaults": []any{}, "machineType": "n2-standard-8"}}},
	}
	spec, err := SpecFromInputs(recorded)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(spec), "__") || strings.Contains(string(spec), "daysOfWeeks") || strings.Contains(string(spec), "deletionPolicy") {
		t.Errorf("spec keeps provider-only keys:\n%s", spec)
	}
	var got map[string]any
	if err := json.Unmarshal(spec, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"name": "projects/acme-ml/locations/us-central1/modelDevelopmentClusters/c"}
	for k, v := range body {
		want[k] = v
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read back\n%v\nwant\n%v", got, want)
	}
}

func TestPaths(t *testing.T) {
	if got := PulumiPath("lustreExportConfig.daysOfWeek"); got != "lustreExportConfig.daysOfWeeks" {
		t.Errorf("PulumiPath = %s", got)
	}
	for _, p := range []string{"lustreExportConfig.daysOfWeek", "nodePools[].id", "labels"} {
		if got := RESTPath(PulumiPath(p)); got != p {
			t.Errorf("RESTPath(PulumiPath(%s)) = %s", p, got)
		}
	}
}
