package compiler

import (
	"testing"

	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/compiler/machines"
)

// TestCompilePartial decodes a spec with the unsound paths a schema would
// report: their values are Unknown, not absent or defaulted; defaults that
// depend on them are Unknown too; objects whose id is unsound are left out.
func TestCompilePartial(t *testing.T) {
	const src = `nodePools:
- {id: gpu, machineSpec: {machineType: TODO-choose-a4}, scalingSpec: {maxNodeCount: 2}}
- {id: cpu, machineSpec: {machineType: n2-standard-8}, scalingSpec: {minNodeCount: x, maxNodeCount: 3}}
- {id: Bad Id, machineSpec: {machineType: n2-standard-8}}
orchestratorSpec:
  slurmSpec:
    partitions: [{id: 7, nodePoolIds: [cpu]}, {id: b, nodePoolIds: cpu}]
    nodeSets: [{nodePoolId: nope, config: {Weight: "1"}}]
    config: {PreemptMode: "a b", Fine: "1"}
`
	doc, l := load.Bytes("s.yaml", []byte(src), load.Options{})
	if l.HasErrors() {
		t.Fatal(l)
	}
	u := &ir.Unsound{}
	for _, p := range []string{
		"nodePools[0].machineSpec.machineType",
		"nodePools[1].scalingSpec.minNodeCount",
		"nodePools[2].id",
		"orchestratorSpec.slurmSpec.partitions[0].id",
		"orchestratorSpec.slurmSpec.partitions[1].nodePoolIds",
		"orchestratorSpec.slurmSpec.nodeSets[0].nodePoolId",
		"orchestratorSpec.slurmSpec.config.PreemptMode",
	} {
		u.Add(p)
	}
	c, _ := CompilePartial(doc, Identity{}, machines.Default(), u)
	if len(c.NodePools) != 2 || !c.PoolsUnknown || !c.ComputePoolsUnknown() {
		t.Fatalf("pools %d, PoolsUnknown %v: the pool with a refused id is left out", len(c.NodePools), c.PoolsUnknown)
	}
	gpu, cpu := c.NodePools[0], c.NodePools[1]
	if !gpu.MachineType.Unknown || gpu.MachineType.Value != "" || gpu.Machine != nil {
		t.Errorf("machine type %+v, machine %v: want Unknown", gpu.MachineType, gpu.Machine)
	}
	if !gpu.ProvisioningModel.Unknown || !gpu.BootDiskType.Unknown || !c.Unknown(gpu.Path+".provisioningModel") || !c.Unknown(gpu.Path+".bootDisk.bootDiskType") {
		t.Errorf("defaults of a pool whose machine type is unknown: model %+v, boot disk %+v; want Unknown and unsound", gpu.ProvisioningModel, gpu.BootDiskType)
	}
	if !cpu.MinNodeCount.Unknown || cpu.MaxNodeCount.Unknown || cpu.MaxNodeCount.Value != 3 || cpu.ProvisioningModel.Value != "ON_DEMAND" {
		t.Errorf("cpu pool: min %+v max %+v model %+v", cpu.MinNodeCount, cpu.MaxNodeCount, cpu.ProvisioningModel)
	}
	s := c.Slurm
	if len(s.Partitions) != 1 || s.Partitions[0].ID.Value != "b" || !s.PartitionsUnknown || !c.PartitionsUnknown() {
		t.Errorf("partitions %d (PartitionsUnknown %v): want b alone", len(s.Partitions), s.PartitionsUnknown)
	}
	if !s.DefaultPartitionID.Unknown {
		t.Errorf("default partition %+v: the first partition is unknown, so is the default", s.DefaultPartitionID)
	}
	if len(s.NodeSets) != 0 || !c.Unknown("orchestratorSpec.slurmSpec.nodeSets[0].config.Weight") {
		t.Errorf("node set of an unknown pool kept (%d), or its config not unsound", len(s.NodeSets))
	}
	if len(s.Config) != 2 || s.Config[0].Key.Value != "Fine" || s.Config[0].Value.Unknown ||
		s.Config[1].Key.Value != "PreemptMode" || !s.Config[1].Value.Unknown || s.Config[1].Value.Value != "" {
		t.Errorf("config %+v: want Fine=1 and PreemptMode with an Unknown value", s.Config)
	}

	// With no unsound path it is Compile.
	c, _ = CompilePartial(doc, Identity{}, machines.Default(), &ir.Unsound{})
	if c.Unsound != nil || len(c.NodePools) != 3 || c.NodePools[0].MachineType.Value != "TODO-choose-a4" || c.PartitionsUnknown() {
		t.Errorf("empty unsound set: %+v", c)
	}
}
