package slurmtest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// prereqErr stands in for localslurm.PrereqError: an error with a one-line
// Summary.
type prereqErr struct{}

func (prereqErr) Error() string {
	return "localslurm: slurmctld is not installed\nlocalslurm: root is required"
}
func (prereqErr) Summary() string { return "missing prerequisites: slurmctld, root" }

func TestDecide(t *testing.T) {
	missing := func() error { return fmt.Errorf("wrapped: %w", prereqErr{}) }
	plain := func() error { return errors.New("localslurm: unknown Slurm release") }
	met := func() error { return nil }
	called := func() error { t.Error("prerequisites checked when not asked for"); return nil }
	for _, tc := range []struct {
		name, value, ci string
		short           bool
		prereqs         func() error
		want            Decision
		why             string // a part of the reason
	}{
		{name: "unset", prereqs: called, want: Skip, why: Env + "=1"},
		{name: "zero", value: "0", prereqs: called, want: Skip, why: Env + "=0"},
		{name: "zero in CI", value: "0", ci: "true", prereqs: called, want: Skip, why: Env + "=0"},
		{name: "unset in CI", ci: "true", prereqs: called, want: Fail, why: "CI=true and " + Env + " is unset"},
		{name: "asked, met", value: "1", prereqs: met, want: Run},
		{name: "asked, no check", value: "1", want: Run},
		{name: "asked, missing", value: "1", prereqs: missing, want: Fail, why: Env + "=1 and missing prerequisites: slurmctld, root"},
		{name: "asked, other error", value: "1", prereqs: plain, want: Fail, why: "unknown Slurm release"},
		{name: "asked in CI, missing", value: "1", ci: "true", prereqs: missing, want: Fail, why: "missing prerequisites"},
		{name: "short wins", value: "1", short: true, prereqs: called, want: Skip, why: "-short"},
		{name: "short in CI", ci: "true", short: true, prereqs: called, want: Skip, why: "-short"},
		{name: "other value", value: "yes", prereqs: called, want: Fail, why: `"yes", want 1 (run) or 0 (skip)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, why := Decide(tc.value, tc.ci, tc.short, tc.prereqs)
			if got != tc.want || !strings.Contains(why, tc.why) {
				t.Errorf("Decide(%q, CI=%q, short %v) = %v, %q; want %v with %q", tc.value, tc.ci, tc.short, got, why, tc.want, tc.why)
			}
			if strings.Contains(why, "\n") {
				t.Errorf("reason %q is more than one line", why)
			}
		})
	}
}

// TestOneDecision checks that the tests of the real-Slurm packages leave
// the decision to Require: none reads CI or the variable itself, and every
// test file that checks the harness's prerequisites (PrereqsFor, Prereqs,
// resolveRoot) also calls Require.
func TestOneDecision(t *testing.T) {
	var files []string
	for _, dir := range []string{"..", "../realslurm", "../../sandbox", "../../fidelity"} {
		m, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 20 {
		t.Fatalf("found %d test files; want those of lab/localslurm, its realslurm, lab/sandbox and lab/fidelity", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src := string(data)
		for _, read := range []string{`Getenv("CI")`, `Getenv("` + Env + `")`, `LookupEnv("CI")`} {
			if strings.Contains(src, read) {
				t.Errorf("%s reads %s: whether a real-Slurm test runs is slurmtest.Require's decision", f, read)
			}
		}
		checks := strings.Contains(src, "PrereqsFor(") || strings.Contains(src, "Prereqs()") || strings.Contains(src, "Prereqs)") || strings.Contains(src, "resolveRoot(")
		if checks && !strings.Contains(src, "slurmtest.Require(") && !strings.Contains(src, "requirePrereqs") && !strings.Contains(src, "requireRoot(") {
			t.Errorf("%s checks the harness's prerequisites without slurmtest.Require", f)
		}
	}
}
