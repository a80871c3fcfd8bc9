package slurmapi

import (
	"testing"

	"github.com/slurmspec/slurmspec/render/sacctmgr"
)

// TestSetLimitDoesNotWrap: a TRES size beyond what slurmrestd's count
// holds is refused, not sent wrapped around: cpu=18014398509481985 was
// sent as a count of 1.
func TestSetLimitDoesNotWrap(t *testing.T) {
	obj := map[string]any{}
	err := setLimit(obj, sacctmgr.FieldChange{Field: "GrpTRES", New: "cpu=18014398509481985"}, []string{"max", "tres", "total"})
	if err == nil {
		t.Errorf("GrpTRES cpu=18014398509481985 set as %v, want an error", obj)
	}
}
