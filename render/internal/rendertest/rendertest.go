// Package rendertest compiles specs for the render packages' tests through
// the real pipeline (load, schema, compile).
package rendertest

import (
	"testing"

	"github.com/slurmspec/slurmspec/compiler"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/compiler/machines"
	"github.com/slurmspec/slurmspec/schema"
)

// Compile loads, checks and compiles a spec, failing the test on any
// error-level diagnostic.
func Compile(t testing.TB, name, src string) *ir.Cluster {
	t.Helper()
	sch, err := schema.New()
	if err != nil {
		t.Fatal(err)
	}
	doc, l := load.Bytes(name, []byte(src), load.Options{Verbatim: sch.Verbatim})
	if l.HasErrors() {
		t.Fatalf("load %s: %v", name, l)
	}
	if l := sch.Check(doc); l.HasErrors() {
		t.Fatalf("schema %s: %v", name, l)
	}
	c, l := compiler.Compile(doc, compiler.Identity{ClusterID: "c"}, machines.Default())
	if l.HasErrors() {
		t.Fatalf("compile %s: %v", name, l)
	}
	return c
}

// Spec is a small valid spec with a GPU pool that scales, a CPU pool, a
// login pool, two partitions, node set config and scripts.
const Spec = `
nodePools:
- id: gpu
  machineSpec: {machineType: a4-highgpu-8g}
  provisioningModel: SPOT
  scalingSpec: {minNodeCount: 1, maxNodeCount: 3}
- id: cpu
  machineSpec: {machineType: n2-standard-16}
  scalingSpec: {minNodeCount: 2, maxNodeCount: 2}
- id: login
  machineSpec: {machineType: n2-standard-8}
  scalingSpec: {maxNodeCount: 1}
orchestratorSpec:
  slurmSpec:
    loginNodePoolId: login
    homeDirectoryStorage: projects/acme-prod/locations/us-central1-a/instances/home
    defaultPartitionId: cpu
    partitions:
    - {id: gpu, nodePoolIds: [gpu], config: {PriorityTier: "5", MaxTime: "1-00:00:00"}}
    - {id: cpu, nodePoolIds: [cpu, gpu]}
    nodeSets:
    - {nodePoolId: gpu, config: {Features: b200, Weight: "10"}}
    config: {preempttype: preempt/partition_prio, PreemptMode: REQUEUE, SelectTypeParameters: CR_Core}
    prologBashScripts: ["#!/bin/bash\necho one", "#!/bin/bash\necho two"]
`
