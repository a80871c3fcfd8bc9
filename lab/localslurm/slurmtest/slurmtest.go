// Package slurmtest decides whether a test that starts a real Slurm
// (slurmctld, slurmd, slurmdbd, MariaDB: lab/localslurm and the packages
// built on it) runs. Every such test calls Require before it starts a
// daemon, so that `go test ./...` starts no cluster unless asked:
//
//   - SLURMSPEC_REAL_SLURM=1 asks for them. A host that cannot run the
//     cluster (no root, a Slurm package or root file system missing) then
//     fails the test with the prerequisite message: a run that asked for
//     real Slurm never passes without it.
//   - Unset, or SLURMSPEC_REAL_SLURM=0, they skip with one line naming the
//     variable. Under CI=true an unset variable fails instead: a CI run
//     must say which it wants (make test sets 1, make test-fast 0), so that
//     a CI job never passes with the real-Slurm suite silently skipped.
//   - go test -short skips them whatever the variable says.
//
// It imports nothing of the harness (the harness's own tests use it), so
// the prerequisite check is passed in.
package slurmtest

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
)

// Env is the environment variable that asks for the real-Slurm tests.
const Env = "SLURMSPEC_REAL_SLURM"

// Decision is what Require does with a test.
type Decision int

// The decisions.
const (
	// Run: asked for, and the prerequisites are met.
	Run Decision = iota
	// Skip: not asked for (or -short).
	Skip
	// Fail: asked for without the prerequisites, or CI=true without the
	// variable, or the variable set to something other than 0 or 1.
	Fail
)

// Decide returns what Require does, and the one-line reason, given the
// variable's value, CI's, whether -short is on, and the prerequisite check
// (called only when the tests are asked for; nil means none).
func Decide(value, ci string, short bool, prereqs func() error) (Decision, string) {
	if short {
		return Skip, "real Slurm: skipped under -short"
	}
	switch value {
	case "1":
	case "0":
		return Skip, "real Slurm: not asked for (" + Env + "=0)"
	case "":
		if ci == "true" {
			return Fail, "real Slurm: CI=true and " + Env + " is unset: set " + Env + "=1 to run the real-Slurm tests (make test does) or " + Env + "=0 to skip them (make test-fast does)"
		}
		return Skip, "real Slurm: not asked for; set " + Env + "=1 to run (make test does)"
	default:
		return Fail, fmt.Sprintf("real Slurm: %s=%q, want 1 (run) or 0 (skip)", Env, value)
	}
	if prereqs == nil {
		return Run, ""
	}
	if err := prereqs(); err != nil {
		return Fail, "real Slurm: " + Env + "=1 and " + summary(err)
	}
	return Run, ""
}

// Require skips or fails t as Decide says, reading the environment and
// testing.Short; it returns when the test is to run. prereqs is the
// harness's check for what the test starts, such as
// func() error { return localslurm.PrereqsFor(o) }.
func Require(t testing.TB, prereqs func() error) {
	t.Helper()
	switch d, why := Decide(os.Getenv(Env), os.Getenv("CI"), testing.Short(), prereqs); d {
	case Skip:
		t.Skip(why)
	case Fail:
		t.Fatal(why)
	}
}

// summary is the one-line form of a prerequisite error: its Summary() when
// it has one (localslurm.PrereqError), else its text.
func summary(err error) string {
	var s interface{ Summary() string }
	if errors.As(err, &s) {
		return s.Summary()
	}
	return err.Error()
}

// Log returns the writer a real-Slurm test gives the harness as its Log
// (localslurm.Options.Log): each write is one t.Log line, its trailing
// newline dropped, so the daemons' output shows with the test's.
func Log(t testing.TB) io.Writer { return testLog{t} }

type testLog struct{ t testing.TB }

func (w testLog) Write(p []byte) (int, error) {
	w.t.Helper()
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}
