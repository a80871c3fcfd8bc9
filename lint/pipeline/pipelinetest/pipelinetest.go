// Package pipelinetest compiles specs for other packages' tests through
// lint/pipeline's compile-only path (load, schema, compile), as `slurmspec
// render` does before it renders, and holds a small spec that uses most of
// the format.
package pipelinetest

import (
	"testing"

	"github.com/slurmspec/slurmspec/compiler"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/schema"
)

// Compile loads, checks and compiles a spec as the cluster "c" (the
// identity of a spec without a name), failing the test on any error-level
// diagnostic.
func Compile(t testing.TB, name, src string) *ir.Cluster {
	t.Helper()
	return CompileAs(t, name, src, compiler.Identity{ClusterID: "c"})
}

// CompileAs is Compile with an explicit identity. The format comes from
// name's extension.
func CompileAs(t testing.TB, name, src string, id compiler.Identity) *ir.Cluster {
	t.Helper()
	sch, err := schema.New()
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := pipeline.Compile(sch, name, []byte(src), load.FormatAuto, id)
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, src)
	}
	return c
}

// Spec is a small valid spec with a GPU pool that scales, a CPU pool, a
// login pool, two partitions, node set config, scripts, and a config key
// in lower case.
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

// Pipeline returns a pipeline for the Slurm release series, as `slurmspec
// lint --slurm-version series` runs it, failing the test if it cannot be
// made. A test analyses a spec with its one entry point, Analyse.
func Pipeline(t testing.TB, series string) *pipeline.Pipeline {
	t.Helper()
	p, err := pipeline.New(pipeline.Options{SlurmVersion: series})
	if err != nil {
		t.Fatal(err)
	}
	return p
}
