package compiler

import (
	"testing"

	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/compiler/machines"
)

func compile(t *testing.T, src string, id Identity) (*ir.Cluster, []string) {
	t.Helper()
	doc, l := load.Bytes("s.yaml", []byte(src), load.Options{})
	if l.HasErrors() {
		t.Fatal(l)
	}
	c, diags := Compile(doc, id, machines.Default())
	var rules []string
	for _, d := range diags {
		rules = append(rules, d.Rule+"@"+d.Pos.String())
	}
	return c, rules
}

const spec = `name: projects/acme-prod/locations/us-central1/modelDevelopmentClusters/train
nodePools:
- {id: gpu, machineSpec: {machineType: a4-highgpu-8g}, scalingSpec: {maxNodeCount: 2}}
- {id: res, machineSpec: {machineType: a4-highgpu-8g, reservationAffinity: {reservationAffinityType: ANY_RESERVATION}}, scalingSpec: {maxNodeCount: 2}}
- {id: cpu, machineSpec: {machineType: n2-standard-8}, scalingSpec: {minNodeCount: 1, maxNodeCount: 3}}
- {id: ultra, machineSpec: {machineType: a3-ultragpu-8g}, provisioningModel: SPOT, scalingSpec: {maxNodeCount: 1}}
orchestratorSpec:
  slurmSpec:
    partitions: [{id: b, nodePoolIds: [cpu]}, {id: a, nodePoolIds: [gpu]}]
    loginNodePoolId: cpu
`

func TestIdentityFromNameAndFlags(t *testing.T) {
	c, diags := compile(t, spec, Identity{})
	if len(diags) != 0 || c.Project.Value != "acme-prod" || c.Region.Value != "us-central1" || c.ID.Value != "train" {
		t.Errorf("identity %q %q %q, diags %v", c.Project.Value, c.Region.Value, c.ID.Value, diags)
	}
	if _, diags := compile(t, spec, Identity{ClusterID: "train"}); len(diags) != 0 {
		t.Errorf("an agreeing flag is reported: %v", diags)
	}
	_, diags = compile(t, spec, Identity{ClusterID: "other"})
	if len(diags) != 1 || diags[0] != RuleIdentity+"@s.yaml:1:7" {
		t.Errorf("a contradicting flag: %v", diags)
	}
	c, _ = compile(t, "nodePools: []\n", Identity{Project: "p", Region: "r", ClusterID: "x"})
	if c.ID.Value != "x" || c.ID.Path != "--cluster-id" || c.Project.Value != "p" {
		t.Errorf("flags without a name: %+v", c.ID)
	}
}

func TestAPIDefaults(t *testing.T) {
	c, _ := compile(t, spec, Identity{})
	if d := c.Slurm.DefaultPartitionID; d.Value != "b" || d.Set {
		t.Errorf("default partition = %+v, want the first partition, not set", d)
	}
	for id, want := range map[string]string{"gpu": "", "res": "RESERVATION", "cpu": "ON_DEMAND", "ultra": "SPOT"} {
		if got := c.Pool(id).ProvisioningModel.Value; got != want {
			t.Errorf("pool %s provisioning model %q, want %q", id, got, want)
		}
	}
	for id, want := range map[string]string{"gpu": "pd-ssd", "ultra": "hyperdisk-balanced"} {
		if got := c.Pool(id).BootDiskType.Value; got != want {
			t.Errorf("pool %s boot disk %q, want %q", id, got, want)
		}
	}
	if got := c.Pool("cpu").BootDiskSizeGb.Value; got != 100 {
		t.Errorf("boot disk size default %d", got)
	}
	var compute []string
	for _, p := range c.ComputePools() {
		compute = append(compute, p.ID.Value)
	}
	if len(compute) != 3 || compute[0] != "gpu" || compute[2] != "ultra" {
		t.Errorf("compute pools %v (the login pool must not be one)", compute)
	}
}

// TestCompileNeverPanics feeds shapes the schema would reject.
func TestCompileNeverPanics(t *testing.T) {
	for _, src := range []string{"[]", "nodePools: 3", "nodePools: [1, {id: 2}]", "orchestratorSpec: {slurmSpec: {partitions: [{nodePoolIds: 4}], config: [1]}}"} {
		doc, _ := load.Bytes("s.yaml", []byte(src), load.Options{})
		Compile(doc, Identity{}, machines.Default())
	}
}
