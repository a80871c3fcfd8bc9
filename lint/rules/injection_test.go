package rules_test

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/render/slurmconf"
)

// No string of a spec can inject a slurm.conf line or option. The schema
// rejects the characters below in config keys, values and ids, and the
// renderer refuses them again; these tests pin both, per character class
// and per place the string lands in slurm.conf.

// injectionClasses are the characters that would end a Key=Value pair, a
// line or the file's syntax.
var injectionClasses = []struct {
	name string
	char string
}{
	{"newline", "\n"},
	{"carriage return", "\r"},
	{"comment", "#"},
	{"NUL", "\x00"},
	{"space", " "},
	{"tab", "\t"},
	{"double quote", `"`},
	{"single quote", "'"},
	{"backslash", `\`},
	{"vertical tab", "\v"},
	{"next line", "\u0085"},
	{"line separator", "\u2028"},
	{"paragraph separator", "\u2029"},
	{"no-break space", "\u00a0"},
}

// cleanCluster is a minimal IR that the renderer accepts.
func cleanCluster() *ir.Cluster {
	kv := func(k, v string) ir.KV {
		return ir.KV{Key: ir.Str{Value: k, Set: true, Path: "k"}, Value: ir.Str{Value: v, Set: true, Path: "k"}}
	}
	return &ir.Cluster{
		ID: ir.Str{Value: "c", Set: true},
		NodePools: []*ir.NodePool{{ID: ir.Str{Value: "cpu"}, Path: "nodePools[0]", MachineType: ir.Str{Value: "n2-standard-8"},
			MinNodeCount: ir.Int{Value: 1}, MaxNodeCount: ir.Int{Value: 2}}},
		Slurm: ir.Slurm{
			Path:               "orchestratorSpec.slurmSpec",
			Config:             []ir.KV{kv("PreemptType", "preempt/partition_prio"), kv("PreemptMode", "REQUEUE")},
			Partitions:         []*ir.Partition{{ID: ir.Str{Value: "debug"}, Path: "p", NodePoolIDs: []ir.Str{{Value: "cpu"}}, Config: []ir.KV{kv("MaxTime", "60")}}},
			DefaultPartitionID: ir.Str{Value: "debug"},
			NodeSets:           []*ir.NodeSet{{NodePoolID: ir.Str{Value: "cpu"}, Path: "n", Config: []ir.KV{kv("Features", "fast")}}},
		},
	}
}

// injectionPlaces are the places a spec string lands in slurm.conf.
var injectionPlaces = []struct {
	name string
	set  func(c *ir.Cluster, s string)
}{
	{"global key", func(c *ir.Cluster, s string) { c.Slurm.Config[0].Key.Value = "Preempt" + s + "Type" }},
	{"global value", func(c *ir.Cluster, s string) { c.Slurm.Config[1].Value.Value = "REQUEUE" + s + "Include=/etc/passwd" }},
	{"partition key", func(c *ir.Cluster, s string) { c.Slurm.Partitions[0].Config[0].Key.Value = "Max" + s + "Time" }},
	{"partition value", func(c *ir.Cluster, s string) {
		c.Slurm.Partitions[0].Config[0].Value.Value = "60" + s + "AllowGroups=x"
	}},
	{"node key", func(c *ir.Cluster, s string) { c.Slurm.NodeSets[0].Config[0].Key.Value = s + "Features" }},
	{"node value", func(c *ir.Cluster, s string) { c.Slurm.NodeSets[0].Config[0].Value.Value = "fast" + s }},
	{"partition id", func(c *ir.Cluster, s string) {
		c.Slurm.Partitions[0].ID.Value = "debug" + s + "Nodes=ALL"
		c.Slurm.DefaultPartitionID.Value = c.Slurm.Partitions[0].ID.Value
	}},
	{"pool id", func(c *ir.Cluster, s string) {
		id := "cpu" + s + "x"
		c.NodePools[0].ID.Value = id
		c.Slurm.Partitions[0].NodePoolIDs[0].Value = id
		c.Slurm.NodeSets[0].NodePoolID.Value = id
	}},
	{"cluster id", func(c *ir.Cluster, s string) { c.ID.Value = "c" + s }},
}

func TestRendererRefusesInjection(t *testing.T) {
	if _, err := slurmconf.Write(cleanCluster(), slurmconf.Options{SlurmVersion: "26.05"}); err != nil {
		t.Fatalf("the clean cluster does not render: %v", err)
	}
	for _, class := range injectionClasses {
		for _, place := range injectionPlaces {
			t.Run(class.name+"/"+place.name, func(t *testing.T) {
				c := cleanCluster()
				place.set(c, class.char)
				out, err := slurmconf.Write(c, slurmconf.Options{SlurmVersion: "26.05"})
				var unsafe *slurmconf.UnsafeError
				if !errors.As(err, &unsafe) {
					t.Fatalf("Write did not refuse it (err %v); output:\n%s", err, out)
				}
			})
		}
	}
	// In keys, anything but letters and digits would split Key=Value.
	for _, ch := range []string{"=", "-", ".", "/", ":", ","} {
		c := cleanCluster()
		c.Slurm.Config[0].Key.Value = "Preempt" + ch + "Type"
		if _, err := slurmconf.Write(c, slurmconf.Options{}); err == nil {
			t.Errorf("key with %q rendered", ch)
		}
	}
}

// yamlQuote writes s as a YAML double-quoted scalar, escaping everything
// that is not printable ASCII.
func yamlQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteString(`\` + string(r))
		case r >= ' ' && r < 0x7f:
			b.WriteRune(r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// TestSpecRejectsInjection checks the first line of defence: the same
// characters in a spec's config keys and values and in its ids never get
// past the schema, or for the Unicode separators in values, past lint.
// Commas in ids, which the renderer would accept but which would split
// node lists, are included.
func TestSpecRejectsInjection(t *testing.T) {
	classes := append(injectionClasses[:len(injectionClasses):len(injectionClasses)], struct{ name, char string }{"comma", ","})
	for _, class := range classes {
		for _, place := range []struct {
			name string
			spec func(s string) spec
		}{
			{"global key", func(s string) spec { return spec{Config: yamlQuote("Max"+s+"Time") + `: "60"`} }},
			{"global value", func(s string) spec { return spec{Config: "PreemptMode: " + yamlQuote("REQUEUE"+s+"Include=/x")} }},
			{"partition value", func(s string) spec {
				return spec{Partitions: "- {id: debug, nodePoolIds: [cpu], config: {MaxTime: " + yamlQuote("60"+s) + "}}"}
			}},
			{"node key", func(s string) spec {
				return spec{NodeSets: "- {nodePoolId: cpu, config: {" + yamlQuote("Feat"+s) + ": fast}}"}
			}},
			{"partition id", func(s string) spec {
				return spec{Partitions: "- {id: " + yamlQuote("debug"+s+"x") + ", nodePoolIds: [cpu]}"}
			}},
			{"pool id", func(s string) spec {
				id := yamlQuote("cpu" + s + "x")
				return spec{Pools: "- id: " + id + "\n  machineSpec: {machineType: n2-standard-8}\n  scalingSpec: {maxNodeCount: 1}",
					Partitions: "- {id: debug, nodePoolIds: [" + id + "]}"}
			}},
		} {
			if class.char == "," && strings.Contains(place.name, "value") {
				continue // commas separate list items inside one value
			}
			t.Run(class.name+"/"+place.name, func(t *testing.T) {
				text := place.spec(class.char).YAML()
				if schemaRejects(t, "spec.yaml", text) {
					return
				}
				// The schema's \s is ASCII only: the Unicode separators
				// reach lint, which must reject them before render does.
				l := lintText(t, "spec.yaml", text, "")
				if len(positions(l, "unsafe-config-value")) == 0 {
					t.Errorf("neither the schema nor unsafe-config-value rejects %s in a %s:\n%s", strconv.Quote(class.char), place.name, numbered(text))
				}
			})
		}
	}
}
