package catalog

import (
	"strings"
	"testing"
)

func TestParseTarget(t *testing.T) {
	d, err := ParseTarget("", "")
	if err != nil || d != DefaultTarget() || d.Release != Newest() || d.Build != BuildService {
		t.Fatalf("default target: %v, %v", d, err)
	}
	got, err := ParseTarget("24.11", "Debian")
	if err != nil || got != (Target{Release: V2411, Build: BuildDebian}) {
		t.Fatalf("24.11/debian: %v, %v", got, err)
	}
	if s := got.String(); s != "Slurm 24.11 (Debian's packages)" {
		t.Errorf("String: %q", s)
	}
	if s := DefaultTarget().String(); s != "Slurm 26.05 (the service's build)" {
		t.Errorf("String: %q", s)
	}
	if _, err := ParseTarget("", "rpm"); err == nil || !strings.Contains(err.Error(), "service, debian") {
		t.Errorf("unknown build: %v", err)
	}
	if _, err := ParseTarget("21.08", ""); err == nil {
		t.Error("21.08 accepted")
	}
}
