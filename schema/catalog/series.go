package catalog

import (
	"fmt"
	"strconv"
	"strings"
)

// Series is a Slurm release series, whether the catalog knows it or not:
// 22.05, 27.05, or the 17.11 of an old host. Series order by year, then
// month, as numbers (9.05 is before 22.05). The zero value is no series.
//
// ParseSeries is the one reader of a Slurm version in slurmspec: the
// catalog's ParseVersion, the semantic diff's release rules and the local
// Slurm lab's `slurmctld -V` all go through it.
type Series struct {
	// Year and Month are the two numbers of the series label YY.MM.
	Year, Month int
}

// ParseSeries parses a Slurm version: a series label ("22.05"), a full
// release ("22.05.8", "22.05.8-1"), a git tag ("slurm-22-05-8-1") and the
// same forms with a "v" prefix, case and surrounding space aside. The
// month is two digits, as in every series since 14.03; the year any
// number of them.
func ParseSeries(s string) (Series, error) {
	orig := s
	s = strings.TrimSpace(strings.ToLower(s))
	s = strings.TrimPrefix(s, "slurm-")
	s = strings.TrimPrefix(s, "slurm")
	s = strings.TrimPrefix(s, "v")
	year := len(s) - len(strings.TrimLeft(s, "0123456789"))
	if year == 0 || year+3 > len(s) || s[year] != '.' && s[year] != '-' {
		return Series{}, fmt.Errorf("parse slurm version %q: want a series such as 22.05, 22.05.8 or slurm-22-05-8-1", orig)
	}
	sep, month, rest := s[year], s[year+1:year+3], s[year+3:]
	switch {
	case strings.Trim(month, "0123456789") != "":
		return Series{}, fmt.Errorf("parse slurm version %q: bad month %q", orig, month)
	case rest != "" && rest[0] != '-' && (sep != '.' || rest[0] != '.'):
		return Series{}, fmt.Errorf("parse slurm version %q: unexpected %q after the series", orig, rest)
	}
	y, err := strconv.Atoi(s[:year])
	if err != nil {
		return Series{}, fmt.Errorf("parse slurm version %q: bad year: %w", orig, err)
	}
	m, _ := strconv.Atoi(month)
	return Series{Year: y, Month: m}, nil
}

// String returns the series label, "22.05"; "" for the zero value.
func (s Series) String() string {
	if s.IsZero() {
		return ""
	}
	return fmt.Sprintf("%d.%02d", s.Year, s.Month)
}

// IsZero reports whether s is no series.
func (s Series) IsZero() bool { return s == Series{} }

// Compare returns -1, 0 or +1 depending on whether s is older than, the
// same as or newer than t.
func (s Series) Compare(t Series) int {
	switch {
	case s.Year != t.Year:
		return cmpInt(s.Year, t.Year)
	default:
		return cmpInt(s.Month, t.Month)
	}
}

// Before reports whether s is older than t.
func (s Series) Before(t Series) bool { return s.Compare(t) < 0 }

// Version returns the catalog's Version of the series, and false when the
// catalog does not cover it.
func (s Series) Version() (Version, bool) {
	label := s.String()
	for v := oldest; v <= newest; v++ {
		if versionLabels[v] == label {
			return v, true
		}
	}
	return 0, false
}

// Series returns the series of a known version; the zero Series for an
// invalid one.
func (v Version) Series() Series {
	if !v.Valid() {
		return Series{}
	}
	s, err := ParseSeries(versionLabels[v])
	if err != nil {
		return Series{}
	}
	return s
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
