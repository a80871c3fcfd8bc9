package rules_test

import (
	"math"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/lint/rules"
)

// TestAboveMachineBeyondInt64: a nodeSets RealMemory or CPUs above the
// machine type's is an error however large it is: a value between 2^63
// and 2^64 (which Slurm reads as a uint64) was read as no number and left
// only the duplicate's warning, and a K suffix wrapped around.
func TestAboveMachineBeyondInt64(t *testing.T) {
	for _, v := range []string{"9223372036854775807", "9223372036854775808", "18446744073709551614", "18446744073709551615"} {
		s := spec{NodeSets: `- {nodePoolId: cpu, config: {RealMemory: "` + v + `"}}`}
		c := compile(t, "s.yaml", s.YAML())
		severity := diag.Severity(-1)
		for _, d := range lint.Run(c, rules.All(), lint.Config{}) {
			if d.Rule == "rendered-key-override" {
				severity = d.Severity
			}
		}
		if severity != diag.Error {
			t.Errorf("RealMemory=%s: rendered-key-override severity %v, want an error (the nodes register with less)", v, severity)
		}
	}
}

// TestParseNumSaturates: a count with a K suffix beyond the int64 range
// is the largest int64, not the small or negative number it wrapped to
// (9007199254740993K was -9223372036854774784, below every limit).
func TestParseNumSaturates(t *testing.T) {
	if n, ok := rules.ParseNumForTest("9007199254740993K"); !ok || n != math.MaxInt64 {
		t.Errorf("parseNum(9007199254740993K) = %d, %v; want %d", n, ok, int64(math.MaxInt64))
	}
	if n, ok := rules.ParseNumForTest("-9007199254740993K"); !ok || n != math.MinInt64 {
		t.Errorf("parseNum(-9007199254740993K) = %d, %v; want %d", n, ok, int64(math.MinInt64))
	}
}
