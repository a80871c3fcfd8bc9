package ir

import "testing"

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
