package catalog

import (
	_ "embed"
	"regexp"
	"strings"
)

// constraintsMD is data/constraints.md, the constraints between keys as read
// from Slurm's source.
//
//go:embed data/constraints.md
var constraintsMD string

// ConstraintRow is one row of a table of data/constraints.md: a rule that
// ties keys (or the tokens of one key) together.
type ConstraintRow struct {
	// ID is the row's id, such as "P3".
	ID string
	// Keys is the row's keys column as written ("PreemptType, PreemptMode").
	Keys string
	// Rule is the row's rule column.
	Rule string
}

var constraintRowID = regexp.MustCompile(`^[A-Z][0-9]+$`)

// ConstraintRows returns the rows of data/constraints.md in file order.
func ConstraintRows() []ConstraintRow {
	var out []ConstraintRow
	for _, line := range strings.Split(constraintsMD, "\n") {
		if !strings.HasPrefix(line, "| ") {
			continue
		}
		cols := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		if len(cols) < 3 {
			continue
		}
		id := strings.TrimSpace(cols[0])
		if !constraintRowID.MatchString(id) {
			continue
		}
		out = append(out, ConstraintRow{ID: id, Keys: strings.TrimSpace(cols[1]), Rule: strings.TrimSpace(cols[2])})
	}
	return out
}
