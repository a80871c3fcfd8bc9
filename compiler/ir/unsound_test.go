package ir

import (
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

func TestUnsoundCovers(t *testing.T) {
	var u Unsound
	if u.Covers("nodePools[0]") || (*Unsound)(nil).Covers("x") || (*Unsound)(nil).Len() != 0 {
		t.Fatal("an empty set covers a path")
	}
	u.Add("nodePools[1].machineSpec")
	u.Add(`orchestratorSpec.slurmSpec.config["Bad.Key"]`)
	for path, want := range map[string]bool{
		"nodePools[1].machineSpec":                              true,
		"nodePools[1].machineSpec.machineType":                  true,
		"nodePools[1].machineSpecs":                             false, // a sibling, not a child
		"nodePools[1]":                                          false, // an ancestor
		"nodePools[10].machineSpec":                             false,
		`orchestratorSpec.slurmSpec.config["Bad.Key"]`:          true,
		`orchestratorSpec.slurmSpec.config["Bad.Key"].x`:        true,
		`orchestratorSpec.slurmSpec.config["Bad"]`:              false,
		"orchestratorSpec.slurmSpec.config.Bad":                 false,
		`orchestratorSpec.slurmSpec.config["Bad.Key[0]"]`:       false,
		"orchestratorSpec.slurmSpec.config":                     false,
		`orchestratorSpec.slurmSpec.config["a\"b"].Bad.Key`:     false,
		`orchestratorSpec.slurmSpec.config["Bad.Key"][0].items`: true,
	} {
		if got := u.Covers(path); got != want {
			t.Errorf("Covers(%s) = %v, want %v", path, got, want)
		}
	}
	u.Add("")
	if !u.Covers("anything.at[0].all") {
		t.Error("the root does not cover every path")
	}
}

func TestUnsoundValueOnly(t *testing.T) {
	var u Unsound
	key := diag.Pos{File: "s.yaml", Line: 3, Col: 5}
	value := diag.Pos{File: "s.yaml", Line: 3, Col: 12}
	u.AddValue("config.MaxTime", key)
	u.AddValue("config.Bad", key)
	u.Add("config.Bad") // its key was refused too
	u.Add("config.Worse")
	u.AddValue("config.Worse", key)
	for _, tc := range []struct {
		path string
		pos  diag.Pos
		want bool
	}{
		{"config.MaxTime", key, false}, // about the sound key
		{"config.MaxTime", value, true},
		{"config.Other", value, false},
		{"config.Bad", key, true},
		{"config.Worse", key, true},
	} {
		if got := u.Drops(diag.Diagnostic{Path: tc.path, Pos: tc.pos}); got != tc.want {
			t.Errorf("Drops(%s at %v) = %v, want %v", tc.path, tc.pos, got, tc.want)
		}
	}
	if !u.Covers("config.MaxTime") || !u.ValueOnly("config.MaxTime") {
		t.Error("a pair whose value alone is unsound is not covered, or not value-only")
	}
	u.Add("config")
	if u.ValueOnly("config.MaxTime") || !u.Drops(diag.Diagnostic{Path: "config.MaxTime", Pos: key}) {
		t.Error("a pair below an unsound map keeps a sound key")
	}
}
