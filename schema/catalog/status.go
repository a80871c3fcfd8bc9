package catalog

import "fmt"

// KeyStatus is the status of a key in one series, as returned by
// Param.StatusIn.
type KeyStatus struct {
	// Name is the key.
	Name string
	// Scope is the key's scope.
	Scope Scope
	// Version is the series asked about.
	Version Version
	// Status is the key's status in Version.
	Status Status
	// Since is the first series with Status. For StatusNotAdded it is the
	// series that adds the key. A value equal to Oldest() means "in every
	// series of the catalog".
	Since Version
	// Replacement is the replacement key (or key=value), if any.
	Replacement string
}

// Known reports whether Slurm of that series has the key in its option
// table (it is not rejected as an unknown key).
func (k KeyStatus) Known() bool { return k.Status.Known() }

// Problem reports whether a linter should flag any use of the key in that
// series: anything but active and line keys.
func (k KeyStatus) Problem() bool { return k.Status != StatusActive && k.Status != StatusLine }

// Severity returns how serious using the key is, by the severity policy
// (PolicySeverity): an error for keys Slurm rejects or that make it fail
// (removed, not yet added, accepted-but-fatal), a warning otherwise
// (deprecated, alias, defunct, unused).
func (k KeyStatus) Severity() Severity {
	return PolicySeverity(k.Status.Treatment())
}

// String returns a short message such as "defunct since 23.11",
// "deprecated: use NamespaceType" or "unknown in 22.05 (added in 23.02)".
func (k KeyStatus) String() string {
	since := ""
	if k.Since.Valid() && k.Since != Oldest() {
		since = " since " + k.Since.String()
	}
	use := ""
	if k.Replacement != "" {
		use = ": use " + k.Replacement
	}
	switch k.Status {
	case StatusActive:
		return "active"
	case StatusLine:
		return "line key"
	case StatusDeprecated:
		return "deprecated" + since + use
	case StatusAlias:
		return "alias of " + k.Replacement
	case StatusDefunct:
		return "defunct" + since + " (accepted, logged as an error and ignored)" + use
	case StatusRemovedFatal:
		return "accepted but fatal" + since + use
	case StatusUnused:
		return "accepted but never read" + since
	case StatusRemoved:
		return fmt.Sprintf("unknown in %s (removed in %s)", k.Version, k.Since)
	case StatusNotAdded:
		return fmt.Sprintf("unknown in %s (added in %s)", k.Version, k.Since)
	}
	return "invalid status"
}

// StatusIn returns the key's status in series v. An invalid v means the
// newest series.
func (p *Param) StatusIn(v Version) KeyStatus {
	if !v.Valid() {
		v = Newest()
	}
	ks := KeyStatus{Name: p.Name, Scope: p.Scope, Version: v}
	if !p.PresentIn.Has(v) {
		if v < p.FirstSeen || (p.PresentIn.First().Valid() && v < p.PresentIn.First()) {
			ks.Status = StatusNotAdded
			ks.Since = p.PresentIn.First()
			return ks
		}
		ks.Status = StatusRemoved
		ks.Since = p.RemovedIn
		if !ks.Since.Valid() {
			// A gap in PresentIn: the first missing series at or before v.
			ks.Since = v
			for w := v; w > V2205 && !p.PresentIn.Has(w-1); w-- {
				ks.Since = w - 1
			}
		}
		return ks
	}
	if len(p.History) == 0 {
		ks.Status = p.Status
		if ks.Status == StatusRemoved {
			// Only the removal is recorded: the key was live before it.
			ks.Status = StatusActive
		}
		ks.Since = p.PresentIn.First()
		ks.Replacement = p.Replacement
		return ks
	}
	for _, span := range p.History {
		if span.From > v {
			break
		}
		ks.Status, ks.Since, ks.Replacement = span.Status, span.From, span.Replacement
	}
	return ks
}
