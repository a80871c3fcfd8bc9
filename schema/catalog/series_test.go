package catalog

import (
	"slices"
	"testing"
)

func TestParseSeries(t *testing.T) {
	good := map[string]Series{
		"22.05": {22, 5}, "22.05.8": {22, 5}, "22.05.8-1": {22, 5}, "slurm-22-05-8-1": {22, 5},
		"v24.11.5": {24, 11}, " 27.05 ": {27, 5}, "SLURM-25-05-0-1": {25, 5}, "9.05": {9, 5},
		"17.11.2": {17, 11}, "100.02": {100, 2},
	}
	for in, want := range good {
		if got, err := ParseSeries(in); err != nil || got != want {
			t.Errorf("ParseSeries(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "foo", "22.5", "22.5.1", "22.05x", "2205", "22-05.8", ".05", "slurm 22.05"} {
		if got, err := ParseSeries(in); err == nil {
			t.Errorf("ParseSeries(%q) = %v, want an error", in, got)
		}
	}
}

// TestSeriesOrderIsNumeric: series order as numbers, not as strings
// ("9.05" > "22.05" and "100.02" < "26.05" as strings).
func TestSeriesOrderIsNumeric(t *testing.T) {
	labels := []string{"100.02", "26.05", "9.05", "24.11", "22.05", "23.02"}
	var got []Series
	for _, l := range labels {
		s, err := ParseSeries(l)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, s)
	}
	slices.SortFunc(got, Series.Compare)
	var order []string
	for _, s := range got {
		order = append(order, s.String())
	}
	if want := []string{"9.05", "22.05", "23.02", "24.11", "26.05", "100.02"}; !slices.Equal(order, want) {
		t.Errorf("sorted: %v, want %v", order, want)
	}
	if !(Series{9, 5}).Before(Series{22, 5}) || (Series{26, 5}).Before(Series{24, 11}) {
		t.Error("Before disagrees with Compare")
	}
}

// TestSeriesAndVersionAgree: every catalog version is the Version of its
// own Series, and a series outside the catalog has none.
func TestSeriesAndVersionAgree(t *testing.T) {
	for _, v := range Versions() {
		s := v.Series()
		if s.String() != v.String() {
			t.Errorf("%v.Series() = %v", v, s)
		}
		if got, ok := s.Version(); !ok || got != v {
			t.Errorf("%v.Version() = %v, %v", s, got, ok)
		}
		if v > oldest && !(v - 1).Series().Before(s) {
			t.Errorf("%v is not before %v as a series", v-1, v)
		}
	}
	if v, ok := (Series{27, 5}).Version(); ok {
		t.Errorf("27.05 has version %v", v)
	}
	if !Version(0).Series().IsZero() {
		t.Error("the invalid version has a series")
	}
}
