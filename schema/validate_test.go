package schema

import (
	"testing"

	"github.com/slurmspec/slurmspec/compiler/load"
)

// TestValidateUnsound checks which paths a validation leaves unsound: every
// error's, everything below an unknown field, the field a misspelling
// meant, and a pool's provisioningModel when the constraint that ties it to
// other fields fails. A valid spec has none.
func TestValidateUnsound(t *testing.T) {
	s, err := New()
	if err != nil {
		t.Fatal(err)
	}
	validate := func(src string) Result {
		t.Helper()
		doc, l := load.Bytes("s.yaml", []byte(src), load.Options{Verbatim: s.Verbatim})
		if l.HasErrors() {
			t.Fatal(l)
		}
		return s.Validate(doc)
	}
	const valid = `name: projects/acme-prod/locations/us-central1/modelDevelopmentClusters/train
nodePools:
- {id: cpu, machineSpec: {machineType: n2-standard-8}, scalingSpec: {minNodeCount: 1, maxNodeCount: 1}}
orchestratorSpec:
  slurmSpec:
    partitions: [{id: debug, nodePoolIds: [cpu]}]
    loginNodePoolId: cpu
    homeDirectoryStorage: projects/acme-prod/locations/us-central1-a/instances/home
`
	if r := validate(valid); r.Unsound.Len() != 0 || r.Diags.HasErrors() {
		t.Fatalf("valid spec: %v, %d unsound paths", r.Diags, r.Unsound.Len())
	}
	r := validate(`name: projects/acme-prod/locations/us-central1/modelDevelopmentClusters/train
nodePools:
- {id: cpu, machineSpec: {machineType: TODO-choose}, scalingSpec: {maxNodeCount: 1}, provisioningModel: SPOT, flexStartMaxDuration: 3600s}
- {id: gpu, machineSpec: {machineType: a4-highgpu-8g}, scalingSpec: {maxNodeCount: 1}, extra: {deep: 1}}
orchestratorSpec:
  slurmSpec:
    partitions: [{id: debug, nodePoolIds: [cpu]}, {id: b, nodePoolIds: [gpu]}]
    loginNodePoolId: cpu
    homeDirectoryStorage: projects/acme-prod/locations/us-central1-a/instances/home
    defaultPartitonId: debug
`)
	for path, want := range map[string]bool{
		"nodePools[0].machineSpec.machineType":          true, // schema-pattern
		"nodePools[0].flexStartMaxDuration":             true, // schema-provisioning
		"nodePools[0].provisioningModel":                true, // ... which ties the model
		"nodePools[1].extra.deep":                       true, // below an unknown field
		"orchestratorSpec.slurmSpec.defaultPartitonId":  true,
		"orchestratorSpec.slurmSpec.defaultPartitionId": true, // what the misspelling meant
		"nodePools[1].machineSpec.machineType":          false,
		"orchestratorSpec.slurmSpec.partitions[0]":      false,
		"nodePools[0].scalingSpec.maxNodeCount":         false,
	} {
		if got := r.Unsound.Covers(path); got != want {
			t.Errorf("Covers(%s) = %v, want %v (diagnostics: %v)", path, got, want, r.Diags)
		}
	}
	if r := validate("[1, 2]"); !r.Unsound.Covers("") {
		t.Error("a spec that is not an object leaves the root sound")
	}
}
