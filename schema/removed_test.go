package schema_test

import (
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/schema"
)

// TestFieldsTheProviderLacks: fields that neither the API nor pulumi-gcp
// has (/work/shared/reference/pulumi-gcp-model-development-cluster.md) are
// unknown fields, reported at their position with the known fields.
func TestFieldsTheProviderLacks(t *testing.T) {
	const spec = `
nodePools:
- id: gpu
  machineSpec:
    machineType: a4-highgpu-8g
    reservationAffinity: {reservationAffinityType: SPECIFIC_RESERVATION, values: [r]}
  scalingSpec: {maxNodeCount: 1}
orchestratorSpec:
  slurmSpec:
    homeDirectoryStorage: projects/acme-ml/locations/us-central1-b/instances/home
    loginNodePoolId: gpu
    partitions: [{id: p, nodePoolIds: [gpu]}]
`
	sch, err := schema.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ name, old, new, path string }{
		{"description", "nodePools:", "description: x\nnodePools:", "description"},
		{"acceleratorType", "machineType: a4-highgpu-8g", "machineType: a4-highgpu-8g\n    acceleratorType: NVIDIA_B200", "nodePools[0].machineSpec.acceleratorType"},
		{"acceleratorCount", "machineType: a4-highgpu-8g", "machineType: a4-highgpu-8g\n    acceleratorCount: 8", "nodePools[0].machineSpec.acceleratorCount"},
		{"reservationAffinity.key", "values: [r]", "values: [r], key: k", "nodePools[0].machineSpec.reservationAffinity.key"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			src := strings.Replace(spec, tt.old, tt.new, 1)
			doc, l := load.Bytes("c.yaml", []byte(src), load.Options{Verbatim: sch.Verbatim})
			if l.HasErrors() {
				t.Fatal(l)
			}
			found := false
			for _, d := range sch.Check(doc) {
				if d.Rule == "schema-unknown-field" && d.Path == tt.path && d.Pos.Line > 0 && d.Hint != "" {
					found = true
				}
			}
			if !found {
				t.Errorf("no schema-unknown-field at %s: %v", tt.path, sch.Check(doc))
			}
		})
	}
	// The spec without them is valid.
	doc, _ := load.Bytes("c.yaml", []byte(spec), load.Options{Verbatim: sch.Verbatim})
	if l := sch.Check(doc); l.HasErrors() {
		t.Errorf("base spec: %v", l)
	}
}
