package slurmconf_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/lint/pipeline/pipelinetest"
	"github.com/slurmspec/slurmspec/render/slurmconf"
)

func render(t *testing.T, c *ir.Cluster) *slurmconf.File {
	t.Helper()
	data, err := slurmconf.Write(c, slurmconf.Options{SlurmVersion: "26.05"})
	if err != nil {
		t.Fatal(err)
	}
	f, err := slurmconf.Parse(data)
	if err != nil {
		t.Fatalf("rendered slurm.conf does not parse back: %v\n%s", err, data)
	}
	return f
}

func TestRenderParsesBackToTheSpec(t *testing.T) {
	f := render(t, pipelinetest.Compile(t, "s.yaml", pipelinetest.Spec))

	for key, want := range map[string]string{
		"ClusterName": "c", "SlurmctldHost": "c-controller", "AccountingStorageType": "accounting_storage/slurmdbd",
		"preempttype": "preempt/partition_prio", "PreemptMode": "REQUEUE",
		"SelectTypeParameters": "CR_Core", // the user's value replaces the service default
		"GresTypes":            "gpu", "SlurmctldParameters": "cloud_dns", "Prolog": "/etc/slurm/prolog.d/*",
	} {
		if got, ok := f.GetGlobal(key); !ok || got != want {
			t.Errorf("%s = %q (present %v), want %q", key, got, ok, want)
		}
	}
	if _, ok := f.GetGlobal("Epilog"); ok {
		t.Error("Epilog written without epilog scripts")
	}
	count := 0
	for _, p := range f.Global {
		if strings.EqualFold(p.Key, "SelectTypeParameters") {
			count++
		}
	}
	if count != 1 {
		t.Errorf("SelectTypeParameters written %d times", count)
	}

	var nodes []string
	for _, l := range f.Nodes {
		nodes = append(nodes, pairs(l))
	}
	wantNodes := []string{
		"NodeName=c-gpu-0 CPUs=224 RealMemory=3943792 Gres=gpu:b200:8 Features=b200 Weight=10",
		"NodeName=c-gpu-[1-2] CPUs=224 RealMemory=3943792 Gres=gpu:b200:8 Features=b200 Weight=10 State=CLOUD",
		"NodeName=c-cpu-[0-1] CPUs=16 RealMemory=" + itoa(64*1024-(400+30*64)),
	}
	if d := cmp.Diff(wantNodes, nodes); d != "" {
		t.Errorf("node lines (-want +got):\n%s", d)
	}
	var sets, parts []string
	for _, l := range f.NodeSets {
		sets = append(sets, pairs(l))
	}
	for _, l := range f.Partitions {
		parts = append(parts, pairs(l))
	}
	if d := cmp.Diff([]string{"NodeSet=gpu Nodes=c-gpu-[0-2]", "NodeSet=cpu Nodes=c-cpu-[0-1]"}, sets); d != "" {
		t.Errorf("node sets (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"PartitionName=gpu Nodes=gpu MaxTime=1-00:00:00 PriorityTier=5", "PartitionName=cpu Nodes=cpu,gpu Default=YES"}, parts); d != "" {
		t.Errorf("partitions (-want +got):\n%s", d)
	}
}

func pairs(l slurmconf.Line) string {
	var s []string
	for _, p := range l.Pairs {
		s = append(s, p.Key+"="+p.Value)
	}
	return strings.Join(s, " ")
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestWriteRefusesInjection checks the renderer's own guard: whatever gets
// past the schema, no value can add a line, a key or an option.
func TestWriteRefusesInjection(t *testing.T) {
	for name, bad := range map[string]string{
		"newline": "1\nDefault=YES", "carriage return": "1\rX=1", "comment": "1#x", "space": "1 Default=YES",
		"tab": "1\tX=1", "nul": "1\x00", "quote": `"1"`, "backslash": `1\`, "empty": "",
		"unicode line separator": "1\u2028X=1", "next line": "1\u0085X=1",
	} {
		for _, where := range []string{"global value", "partition value", "node value", "global key"} {
			c := pipelinetest.Compile(t, "s.yaml", pipelinetest.Spec)
			switch where {
			case "global value":
				c.Slurm.Config[0].Value.Value = bad
			case "partition value":
				c.Slurm.Partitions[0].Config[0].Value.Value = bad
			case "node value":
				c.Slurm.NodeSets[0].Config[0].Value.Value = bad
			case "global key":
				if bad == "" {
					continue // "Key" + "" is a valid key
				}
				c.Slurm.Config[0].Key.Value = "Key" + bad
			}
			if out, err := slurmconf.Write(c, slurmconf.Options{}); err == nil {
				t.Errorf("%s in %s: rendered\n%s", name, where, out)
			}
		}
	}
}

func TestParse(t *testing.T) {
	f, err := slurmconf.Parse([]byte("# c\nA=1 # trailing\nB=\"x y\"\nNodeName=n[1-2] CPUs=2\n\nPartitionName=p Nodes=n[1-2] Default=YES\nC=a\\#b\n"))
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := f.GetGlobal("b"); v != "x y" {
		t.Errorf("B = %q", v)
	}
	if v, _ := f.GetGlobal("C"); v != "a#b" { // Slurm removes the escape
		t.Errorf("C = %q", v)
	}
	if len(f.Nodes) != 1 || len(f.Partitions) != 1 || f.Partitions[0].Name() != "p" {
		t.Errorf("lines: %+v", f)
	}
	for _, bad := range []string{"novalue", "A=\"x"} {
		if _, err := slurmconf.Parse([]byte(bad)); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}
