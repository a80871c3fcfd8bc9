package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestCamelJSON checks that the seed given to cue vet is plain JSON with
// the camelCase names slurmspec reads.
func TestCamelJSON(t *testing.T) {
	src, err := os.ReadFile("../../examples/seed.jsonc")
	if err != nil {
		t.Fatal(err)
	}
	out, err := camelJSON("seed.jsonc", src)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if strings.Contains(string(out), "node_pool_ids") || !strings.Contains(string(out), `"nodePoolIds"`) {
		t.Errorf("field names not camelCase:\n%s", out)
	}
}
