package catalog

import (
	"os"
	"strings"
	"testing"
)

// TestVersionsAreTheReleaseRows: the Version constants are the rows of
// data/releases.tsv, in order, and newest is the last of them.
func TestVersionsAreTheReleaseRows(t *testing.T) {
	data, err := os.ReadFile("data/releases.tsv")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n")[1:] {
		series, _, _ := strings.Cut(line, "\t")
		want = append(want, series)
	}
	var got []string
	for _, v := range Versions() {
		got = append(got, v.String())
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("Versions() = %v, releases.tsv lists %v", got, want)
	}
	if Newest().String() != want[len(want)-1] || !newest.Valid() || (newest + 1).Valid() || Oldest().String() != want[0] {
		t.Errorf("oldest %v, newest %v (%d); releases.tsv runs from %s to %s", Oldest(), newest, newest, want[0], want[len(want)-1])
	}
}
