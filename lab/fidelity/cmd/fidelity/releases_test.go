package main

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
)

// TestEachRelease: every release is called once with its own index, in
// turn or side by side, and every error comes back, joined.
func TestEachRelease(t *testing.T) {
	rels := []string{"22.05", "24.11", "26.05"}
	for _, parallel := range []bool{false, true} {
		var mu sync.Mutex
		var got []string
		err := eachRelease(rels, parallel, func(i int, rel string) error {
			mu.Lock()
			got = append(got, fmt.Sprintf("%d %s", i, rel))
			mu.Unlock()
			if rel != "24.11" {
				return fmt.Errorf("release %s failed", rel)
			}
			return nil
		})
		slices.Sort(got)
		if want := []string{"0 22.05", "1 24.11", "2 26.05"}; !slices.Equal(got, want) {
			t.Errorf("parallel=%v: calls %q, want %q", parallel, got, want)
		}
		if err == nil || err.Error() != "release 22.05 failed\nrelease 26.05 failed" {
			t.Errorf("parallel=%v: error %v, want both releases' failures", parallel, err)
		}
		var joined interface{ Unwrap() []error }
		if !errors.As(err, &joined) || len(joined.Unwrap()) != 2 {
			t.Errorf("parallel=%v: error %v is not the two failures joined", parallel, err)
		}
	}
}
