package catalog

// The severity policy (docs/fidelity.md, "The severity policy"): one table
// from how Slurm treats a setting to the severity lint gives it. Every
// status of a key and every kind of value the catalog records maps to one
// Treatment; PolicySeverity decides. TestSeverityPolicy checks the catalog
// against it, and lint/rules TestKeyStatusFollowsPolicy checks lint.

// Treatment is what Slurm does with a setting.
type Treatment uint8

// The treatments, in the policy table's order.
const (
	// TreatRefused: slurmctld or slurmd refuses the file, exits, or
	// cannot load what the setting names.
	TreatRefused Treatment = iota + 1
	// TreatReplaced: Slurm starts but runs with another value than the
	// one written (reset, clamped, or a setting that still has a meaning
	// ignored), usually with an error line.
	TreatReplaced
	// TreatAsWritten: Slurm runs with the value as written, renamed keys
	// included, and at most complains.
	TreatAsWritten
	// TreatDropped: Slurm accepts the key or value and ignores it because
	// its meaning is gone: defunct or never read, obsolete, or what a
	// later release made the default. The cluster behaves as the same
	// spec without it, whatever Slurm logs.
	TreatDropped
)

var treatmentNames = [...]string{"", "refused", "replaced", "as written", "dropped"}

// String returns the treatment's name in the policy table.
func (t Treatment) String() string {
	if int(t) < len(treatmentNames) && t != 0 {
		return treatmentNames[t]
	}
	return "invalid"
}

// PolicySeverity is the policy: an error when the cluster would not run
// the setting as written (refused, replaced), a warning when it does or
// when there is nothing left to run (as written, dropped).
func PolicySeverity(t Treatment) Severity {
	switch t {
	case TreatRefused, TreatReplaced:
		return SeverityError
	}
	return SeverityWarning
}

// Treatment returns how Slurm treats a key of this status.
func (s Status) Treatment() Treatment {
	switch s {
	case StatusRemoved, StatusNotAdded, StatusRemovedFatal:
		return TreatRefused
	case StatusDefunct, StatusUnused:
		return TreatDropped
	}
	return TreatAsWritten
}

// ValueTreatment returns how Slurm of series v treats the token ev of key
// p, written alone.
func (p *Param) ValueTreatment(ev *EnumValue, v Version) Treatment {
	switch {
	case ev.Reject != "" && (ev.RejectIn.Empty() || ev.RejectIn.Has(v)):
		return TreatRefused
	case !ev.PresentIn.Has(v) && ev.Ignored != "" && v > ev.PresentIn.Last():
		return TreatDropped
	case !ev.PresentIn.Has(v) && (p.Unknown == UnknownError && ev.Source.Certain()):
		return TreatRefused
	}
	return TreatAsWritten
}
