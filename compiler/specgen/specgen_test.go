package specgen

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestJSONIsValidAndDeterministic(t *testing.T) {
	for _, n := range []int{1, 10, 100} {
		a, b := JSON(n), JSON(n)
		if !bytes.Equal(a, b) {
			t.Fatalf("n=%d: not deterministic", n)
		}
		var v map[string]any
		if err := json.Unmarshal(a, &v); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if got := len(v["nodePools"].([]any)); got != n+1 {
			t.Errorf("n=%d: %d pools", n, got)
		}
	}
}
