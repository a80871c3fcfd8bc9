package render

import (
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/slurmspec/slurmspec/render/pulumimodel"
)

// pulumiRoundTrip writes a model whose strings are s (a script, a config
// value, a label, an output and a map key) and checks that Pulumi.yaml
// reads back to exactly those values, escaped for Pulumi YAML's ${}.
func pulumiRoundTrip(t *testing.T, s string) {
	t.Helper()
	m := &pulumimodel.Model{Project: "slurmspec-c", Description: s, GCPProject: "p", Region: "r", ClusterID: "c", ProviderVersion: "10.5.0",
		Resources: []pulumimodel.Resource{{Name: "cluster", Type: "gcp:x:Y", Inputs: map[string]any{
			"script": s, "scripts": []any{s, s + "\n", "\t" + s}, "config": map[string]any{"k" + s: s}, "n": int64(1),
		}}},
		Outputs: []pulumimodel.Output{{Name: "o", Value: s}}}
	if _, err := yamlValue(m.Resources[0].Inputs); err != nil {
		return // a key Pulumi would read as a function: refused, not written wrongly
	}
	out, err := PulumiYAML(m)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	var back struct {
		Description string
		Resources   map[string]struct {
			Properties struct {
				Script  string
				Scripts []string
				Config  map[string]string
				N       int64
			}
		}
		Outputs map[string]string
	}
	if err := yaml.Unmarshal(out, &back); err != nil {
		t.Fatalf("%q: Pulumi.yaml does not read back: %v\n%s", s, err, out)
	}
	e := EscapePulumiYAML
	p := back.Resources["cluster"].Properties
	if back.Description != s || p.Script != e(s) || len(p.Scripts) != 3 || p.Scripts[0] != e(s) || p.Scripts[1] != e(s+"\n") ||
		p.Scripts[2] != e("\t"+s) || p.Config["k"+s] != e(s) || len(p.Config) != 1 || p.N != 1 || back.Outputs["o"] != e(s) {
		t.Errorf("%q does not read back:\n%s\n%+v", s, out, back)
	}
}

func TestPulumiYAMLReadsBack(t *testing.T) {
	for _, s := range []string{"\tx", "\techo hi\n", "#!/bin/bash\n\techo $HOME ${X}\n", " lead", "trail ", "off", "010", "a: b", "x\r\ny", "\u2028", "\u0085", ""} {
		pulumiRoundTrip(t, s)
	}
}

// FuzzPulumiYAML checks that every string the Pulumi.yaml writer writes
// reads back exactly.
func FuzzPulumiYAML(f *testing.F) {
	for _, s := range []string{"\tx", "#!/bin/bash\necho $x\n", "off", " a", "a\r\n", "${a}", "fn::x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return // values come from loaded specs: valid UTF-8
		}
		pulumiRoundTrip(t, s)
	})
}
