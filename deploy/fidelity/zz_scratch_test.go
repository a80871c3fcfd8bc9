package fidelity

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/schema/catalog"
)

func TestZZSweep(t *testing.T) {
	rel := os.Getenv("ZZ_REL")
	v, _ := catalog.ParseVersion(rel)
	cases := Sweep(catalog.Default(), v, os.Getenv("ZZ_PLUGINS") != "")
	rep, err := Run(context.Background(), Options{Release: rel, Cases: cases, Log: os.Stderr})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		if r.Verdict != BothAccept && r.Verdict != BothRefuse {
			t.Logf("%s: %s\n lint %v\n warned %v\n slurm %v\n harness %v", r.Case, r.Verdict, r.Lint, r.Warned, r.Slurm, r.Harness)
		}
	}
}

func TestZZOne(t *testing.T) {
	rel := os.Getenv("ZZ_REL")
	var cases []Case
	for i, c := range strings.Split(os.Getenv("ZZ_CASES"), "|") {
		k := Case{Index: i}
		for _, kv := range strings.Split(c, ";") {
			sc, rest, _ := strings.Cut(kv, ":")
			key, val, _ := strings.Cut(rest, "=")
			scope := catalog.ScopeGlobal
			switch sc {
			case "partition":
				scope = catalog.ScopePartition
			case "node":
				scope = catalog.ScopeNode
			}
			k.Settings = append(k.Settings, Setting{Scope: scope, Key: key, Value: val})
		}
		cases = append(cases, k)
	}
	rep, err := Run(context.Background(), Options{Release: rel, Cases: cases})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		t.Logf("%s: %s\n lint %v\n warned %v\n slurm %v\n harness %v", r.Case, r.Verdict, r.Lint, r.Warned, r.Slurm, r.Harness)
	}
}
