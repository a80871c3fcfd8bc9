package cli

import (
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/schema"
)

// TestCheckFailures: an internal error of a rule or of the schema is a
// check that could not run; other errors are findings.
func TestCheckFailures(t *testing.T) {
	r := &pipeline.Result{File: "a.yaml", Diags: diag.List{
		{Rule: "reserved-key", Severity: diag.Error, Message: "a finding"},
		{Rule: schema.RuleInternal, Severity: diag.Error, Message: "rule unused-pool panicked: boom"},
	}}
	got := checkFailures(r)
	if len(got) != 1 || got[0] != "a.yaml: rule unused-pool panicked: boom" {
		t.Errorf("checkFailures = %q", got)
	}
}
