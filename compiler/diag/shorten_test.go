package diag

import (
	"strings"
	"testing"
)

func TestShorten(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"short", "short"},
		{strings.Repeat("a", 64), strings.Repeat("a", 64)},
		{strings.Repeat("a", 65), strings.Repeat("a", 64) + "…(65 bytes)"},
		// A cut never splits a character: "é" is 2 bytes, at 63-64.
		{strings.Repeat("a", 63) + "é" + strings.Repeat("b", 10), strings.Repeat("a", 63) + "…(75 bytes)"},
	} {
		if got := Shorten(c.in); got != c.want {
			t.Errorf("Shorten(%.80q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestSuggestSkipsLongNames: a name longer than 64 bytes is no typo, even
// when a candidate is within the edit limit (which grows with the name).
func TestSuggestSkipsLongNames(t *testing.T) {
	long := strings.Repeat("nodepools", 8) // 72 bytes
	if got := Suggest(long, []string{long[:70]}); got != "" {
		t.Errorf("Suggest(72 bytes) = %q, want none", got)
	}
	if got := Suggest("nodePool", []string{"nodePools"}); got != "nodePools" {
		t.Errorf("Suggest(nodePool) = %q", got)
	}
}
