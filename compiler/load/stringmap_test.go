package load

import (
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// configStrings marks every object named "config" as a string map.
func configStrings(p Path) bool {
	return len(p) > 0 && !p[len(p)-1].IsIndex && p[len(p)-1].Name == "config"
}

func TestPlainDecimal(t *testing.T) {
	for lit, want := range map[string]string{
		"10":                             "10",
		"-3":                             "-3",
		"-0":                             "-0",
		"1.5":                            "1.5",
		"16.0":                           "16.0", // as written: an integer key reports it
		"0.25":                           "0.25",
		"1e6":                            "1000000",
		"1.0e6":                          "1000000",
		"1.5E3":                          "1500",
		"1.5e-3":                         "0.0015",
		"123456789012345678901234567890": "123456789012345678901234567890",
		"9007199254740993":               "9007199254740993", // not a float64
		"0x10":                           "16",               // CUE's own forms
		"1_000":                          "1000",
		"4Ki":                            "4096",
		"1e1000":                         "1" + strings.Repeat("0", 1000),
		"1e1023":                         "1" + strings.Repeat("0", 1023), // 1024 characters, the most
		"-1e1022":                        "-1" + strings.Repeat("0", 1022),
		"1e-1022":                        "0." + strings.Repeat("0", 1021) + "1",
		"0e5":                            "0",
	} {
		got, err := plainDecimal(lit)
		if err != nil || got != want {
			t.Errorf("plainDecimal(%s) = %q, %v; want %q", lit, got, err, want)
		}
	}
	for _, lit := range []string{"1e1024", "-1e1023", "1e-1023", "1e999999999", "abc"} {
		if got, err := plainDecimal(lit); err == nil {
			t.Errorf("plainDecimal(%s) = %q, want an error", lit, got)
		}
	}
}

// In YAML and CUE the numbers and booleans of a string map are read as
// strings at their own positions; elsewhere, and in JSON, they stay what
// they are.
func TestStringMaps(t *testing.T) {
	specs := map[string]string{
		"a.yaml": "n: 3\nconfig:\n  Tier: 10\n  Weight: 1.5\n  Big: 1e6\n  On: true\n  Off: false\n  Text: x\n",
		"a.cue":  "n: 3\nconfig: {\n\tTier: 0xA\n\tWeight: 1.5\n\tBig: 1.0e6\n\tOn: true\n\tOff: false\n\tText: \"x\"\n}\n",
	}
	want := map[string]string{"Tier": "10", "Weight": "1.5", "Big": "1000000", "On": "true", "Off": "false", "Text": "x"}
	for name, src := range specs {
		doc, l := Bytes(name, []byte(src), Options{Verbatim: verbatimConfig, Strings: configStrings})
		if len(l) > 0 || doc.Root == nil {
			t.Fatalf("%s: %v", name, l)
		}
		if n := doc.Root.Get("n"); n.Kind != Number {
			t.Errorf("%s: n outside the map is %v, want a number", name, n.Kind)
		}
		cfg := doc.Root.Get("config")
		for i, f := range cfg.Fields {
			if s, ok := f.Value.Str(); !ok || s != want[f.Name] {
				t.Errorf("%s: config.%s = %v %q, want the string %q", name, f.Name, f.Value.Kind, f.Value.Text, want[f.Name])
			}
			// The value keeps the position of the number as written (in
			// CUE, as for every value, that of its field).
			col := 2
			if name == "a.yaml" {
				col = len("  "+f.Name+": ") + 1
			}
			if got := f.Value.Pos.Start(); got != (diag.Pos{File: name, Line: 3 + i, Col: col}) {
				t.Errorf("%s: config.%s at %v, want %d:%d", name, f.Name, got, 3+i, col)
			}
		}
	}

	// JSON is the API's encoding: its numbers stay numbers.
	doc, l := Bytes("a.json", []byte(`{"config": {"Tier": 10, "On": true}}`), Options{Verbatim: verbatimConfig, Strings: configStrings})
	if len(l) > 0 {
		t.Fatal(l)
	}
	if k := doc.Root.Get("config").Get("Tier").Kind; k != Number {
		t.Errorf("JSON config.Tier is %v, want a number", k)
	}
	if k := doc.Root.Get("config").Get("On").Kind; k != Bool {
		t.Errorf("JSON config.On is %v, want a boolean", k)
	}
}

// A number too long to write out is one error at the number (in CUE, its
// field), with the value's path, and the value is left as its literal.
func TestStringMapNumberTooLong(t *testing.T) {
	doc, l := Bytes("a.cue", []byte("config: Tier: 1e5000\n"), Options{Verbatim: verbatimConfig, Strings: configStrings})
	if len(l) != 1 || l[0].Rule != RuleLimit || l[0].Path != "config.Tier" || l[0].Pos.Start().Line != 1 || l[0].Pos.Start().Col != 9 {
		t.Fatalf("diagnostics = %v, want one %s at 1:9 on config.Tier", l, RuleLimit)
	}
	if s, ok := doc.Root.Get("config").Get("Tier").Str(); !ok || s != "1e5000" {
		t.Errorf("value = %q, want the literal", s)
	}
}

// The YAML converter's findings on a scalar, which it reports before
// field names are normalised, carry the scalar's spec path, so that a
// later stage holds that value alone, not the whole spec, as unsound.
func TestScalarFindingsHavePaths(t *testing.T) {
	src := "node_pools:\n- id: a\n  n: 0x10\n  ok: True\nconfig:\n  On: TRUE\n"
	doc, l := Bytes("a.yaml", []byte(src), Options{Verbatim: verbatimConfig, Strings: configStrings})
	var paths []string
	for _, d := range l {
		paths = append(paths, d.Path)
	}
	if want := []string{"nodePools[0].n", "nodePools[0].ok", "config.On"}; strings.Join(paths, " ") != strings.Join(want, " ") {
		t.Errorf("paths = %q, want %q", paths, want)
	}
	// TRUE is reported, and still read as YAML reads it.
	if s, _ := doc.Root.Get("config").Get("On").Str(); s != "true" {
		t.Errorf("config.On = %q, want \"true\"", s)
	}
}
