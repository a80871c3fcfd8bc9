package catalog

// Severity ranks a Problem.
type Severity uint8

// Severities, most serious first.
const (
	// SeverityError means Slurm rejects the value, fails on it, or the
	// catalog is sure the value does not exist in that series.
	SeverityError Severity = iota
	// SeverityWarning means Slurm probably accepts the value but it is
	// suspicious: deprecated, only loosely matched, or the catalog is not
	// sure (values known only from the manual, open value sets).
	SeverityWarning
)

// String returns "error" or "warning".
func (s Severity) String() string {
	if s == SeverityWarning {
		return "warning"
	}
	return "error"
}

// Problem is one finding of CheckValue.
type Problem struct {
	// Severity ranks the problem.
	Severity Severity
	// Message says what is wrong, naming the key and the value.
	Message string
	// Hint, when not empty, says how to fix it.
	Hint string
}

// String renders the problem as "error: message (hint)".
func (p Problem) String() string {
	s := p.Severity.String() + ": " + p.Message
	if p.Hint != "" {
		s += " (" + p.Hint + ")"
	}
	return s
}
