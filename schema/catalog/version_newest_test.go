package catalog

import "testing"

// TestNewestIsLastConstant: the labels and the constants agree on the
// newest series.
func TestNewestIsLastConstant(t *testing.T) {
	if newest != V2605 || Newest().String() != "26.05" || !newest.Valid() || (newest + 1).Valid() {
		t.Errorf("newest = %v (%d); the last constant is V2605", newest, newest)
	}
	if got := len(Versions()); got != int(newest) {
		t.Errorf("Versions has %d series, want %d", got, newest)
	}
}
