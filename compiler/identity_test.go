package compiler_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler"
)

// TestIdentityPatternsMatchSchema keeps the identity formats the flags are
// checked with equal to the ones schema/cluster.cue checks a spec's name
// with (less the spec's capitalised placeholders).
func TestIdentityPatternsMatchSchema(t *testing.T) {
	data, err := os.ReadFile("../schema/cluster.cue")
	if err != nil {
		t.Fatal(err)
	}
	src := string(data)
	def := func(name string) string {
		m := regexp.MustCompile(`(?m)^#` + name + `:\s+"(.*)"$`).FindStringSubmatch(src)
		if m == nil {
			t.Fatalf("cluster.cue has no #%s", name)
		}
		return strings.ReplaceAll(m[1], `\\`, `\`)
	}
	for _, tc := range []struct{ def, got string }{
		{"ProjectRe", compiler.ProjectPattern},
		{"RegionRe", compiler.RegionPattern},
		{"ZoneRe", compiler.ZonePattern},
	} {
		if want := "(" + tc.got + `|\(#Placeholder))`; def(tc.def) != want {
			t.Errorf("#%s is %s; the flags check %s", tc.def, def(tc.def), want)
		}
	}
	if !strings.Contains(src, "/modelDevelopmentClusters/"+compiler.ClusterIDPattern+`$"`) {
		t.Errorf("#ClusterName does not end in the cluster id pattern %s", compiler.ClusterIDPattern)
	}
}

func TestNameRegexps(t *testing.T) {
	if m := compiler.ZoneRegexp().FindStringSubmatch("us-central1-a"); m == nil || m[1] != "us-central1" {
		t.Errorf("ZoneRegexp on us-central1-a: %q", m)
	}
	for s, want := range map[string][3]bool{
		"us-central1":   {true, false, false},
		"us-central1-a": {false, true, false},
		"train":         {false, false, true},
		"us-central1x":  {false, false, false},
	} {
		got := [3]bool{compiler.RegionRegexp().MatchString(s), compiler.ZoneRegexp().MatchString(s), compiler.ClusterIDRegexp().MatchString(s)}
		if got != want {
			t.Errorf("%q: region, zone, cluster id = %v, want %v", s, got, want)
		}
	}
}

func TestIdentityCheck(t *testing.T) {
	ok := []compiler.Identity{{}, {Project: "acme-ml-prod", Region: "us-central1", ClusterID: "train"}, {Project: "123456"}, {Project: "example.com:acme-ml"}}
	for _, id := range ok {
		if err := id.Check(); err != nil {
			t.Errorf("%+v: %v", id, err)
		}
	}
	bad := map[compiler.Identity]string{
		{Project: "acme"}:                  `--project "acme"`,
		{Region: "us-central1-a"}:          `--region "us-central1-a"`,
		{ClusterID: "1abc"}:                `--cluster-id "1abc"`,
		{ClusterID: "train\nx"}:            `--cluster-id "train\nx"`,
		{Project: "P", ClusterID: "TRAIN"}: `--project "P": want a project id: 6-30 lowercase letters, digits or hyphens starting with a letter (or a project number); --cluster-id "TRAIN"`,
	}
	for id, want := range bad {
		if err := id.Check(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%+v: %v, want %q", id, err, want)
		}
	}
}
