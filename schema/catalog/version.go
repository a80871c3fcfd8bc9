package catalog

import (
	"fmt"
	"strings"
)

// Version is a Slurm release series ("22.05" … "26.05"). Each series stands
// for the last point release of that series that the reference data was read
// from (see data/README.md). The zero value is not a valid version.
//
// Versions are ordered: V2205 < V2302 < … < V2605.
type Version uint8

// The constants V2205 … and their labels (versionLabels) are generated
// into catalog_gen.go from data/releases.tsv, one row per series: a new
// release is a row there and `go generate ./schema/catalog`.

// oldest and newest are the first and last series of versionLabels,
// written once for every loop and bound below.
const (
	oldest = Version(1)
	newest = Version(len(versionLabels) - 1)
)

// Versions returns every known series, oldest first. The slice is a fresh
// copy that the caller may modify.
func Versions() []Version {
	out := make([]Version, 0, len(versionLabels)-1)
	for v := oldest; v <= newest; v++ {
		out = append(out, v)
	}
	return out
}

// Oldest returns the oldest series in the catalog.
func Oldest() Version { return oldest }

// Newest returns the newest series in the catalog.
func Newest() Version { return newest }

// Valid reports whether v is one of the known series.
func (v Version) Valid() bool { return v >= oldest && v <= newest }

// String returns the series label, e.g. "23.11", or "invalid" for an unknown
// value.
func (v Version) String() string {
	if !v.Valid() {
		return "invalid"
	}
	return versionLabels[v]
}

// Compare returns -1, 0 or +1 depending on whether v is older than, equal to
// or newer than w.
func (v Version) Compare(w Version) int {
	switch {
	case v < w:
		return -1
	case v > w:
		return 1
	}
	return 0
}

// Before reports whether v is older than w.
func (v Version) Before(w Version) bool { return v < w }

// ParseVersion parses a Slurm version (any form ParseSeries reads) and
// returns the catalog's Version of its series: a point release maps to its
// series, and a series the catalog does not cover is an error.
func ParseVersion(s string) (Version, error) {
	series, err := ParseSeries(s)
	if err != nil {
		return 0, err
	}
	if v, ok := series.Version(); ok {
		return v, nil
	}
	return 0, fmt.Errorf("parse slurm version %q: series %s is not in the catalog (known: %s)", s, series, strings.Join(versionLabels[1:], ", "))
}

// VersionSet is a set of Versions, stored as a bit mask (bit v-1 for v).
type VersionSet uint16

// AllVersions is the set of every known series.
const AllVersions VersionSet = 1<<uint(newest) - 1

// VersionSetOf returns the set holding the given versions.
func VersionSetOf(vs ...Version) VersionSet {
	var s VersionSet
	for _, v := range vs {
		if v.Valid() {
			s |= 1 << (v - 1)
		}
	}
	return s
}

// Has reports whether v is in the set.
func (s VersionSet) Has(v Version) bool { return v.Valid() && s&(1<<(v-1)) != 0 }

// Empty reports whether the set has no version.
func (s VersionSet) Empty() bool { return s&AllVersions == 0 }

// List returns the versions in the set, oldest first.
func (s VersionSet) List() []Version {
	var out []Version
	for v := oldest; v <= newest; v++ {
		if s.Has(v) {
			out = append(out, v)
		}
	}
	return out
}

// First returns the oldest version in the set, or 0 when it is empty.
func (s VersionSet) First() Version {
	for v := oldest; v <= newest; v++ {
		if s.Has(v) {
			return v
		}
	}
	return 0
}

// Last returns the newest version in the set, or 0 when it is empty.
func (s VersionSet) Last() Version {
	for v := newest; v >= oldest; v-- {
		if s.Has(v) {
			return v
		}
	}
	return 0
}

// String renders the set compactly, e.g. "22.05-23.02, 25.05+" or "none".
func (s VersionSet) String() string {
	if s.Empty() {
		return "none"
	}
	var parts []string
	for v := oldest; v <= newest; v++ {
		if !s.Has(v) {
			continue
		}
		end := v
		for end+1 <= newest && s.Has(end+1) {
			end++
		}
		switch {
		case end == newest && v != newest:
			parts = append(parts, v.String()+"+")
		case end == v:
			parts = append(parts, v.String())
		default:
			parts = append(parts, v.String()+"-"+end.String())
		}
		v = end
	}
	return strings.Join(parts, ", ")
}
