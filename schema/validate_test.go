package schema

import (
	"strings"
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
    config: {MaxJobCount: "1 0", "Bad-Key": "1 0"}
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
	// A slurm.conf value refused, its key sound; a key refused, the pair.
	if p := "orchestratorSpec.slurmSpec.config.MaxJobCount"; !r.Unsound.Covers(p) || !r.Unsound.ValueOnly(p) {
		t.Errorf("%s: want its value alone unsound", p)
	}
	if p := `orchestratorSpec.slurmSpec.config["Bad-Key"]`; !r.Unsound.Covers(p) || r.Unsound.ValueOnly(p) {
		t.Errorf("%s: want the pair unsound", p)
	}
	if r := validate("[1, 2]"); !r.Unsound.Covers("") {
		t.Error("a spec that is not an object leaves the root sound")
	}
}

// TestMisspeltRequiredFieldReportedOnce: a misspelt required field is one
// mistake, reported as the unknown field with its did-you-mean, not also as
// the required field missing.
func TestMisspeltRequiredFieldReportedOnce(t *testing.T) {
	s, err := New()
	if err != nil {
		t.Fatal(err)
	}
	doc, l := load.Bytes("s.yaml", []byte(`name: projects/acme-prod/locations/us-central1/modelDevelopmentClusters/train
nodePools:
- {id: cpu, machinSpec: {machineType: n2-standard-8}, scalingSpec: {maxNodeCount: 1}}
- {id: gpu, scalingSpec: {maxNodeCount: 1}}
orchestratorSpec:
  slurmSpec:
    partitions: [{id: debug, nodePoolIds: [cpu, gpu]}]
    loginNodePoolId: cpu
    homeDirectoryStorage: projects/acme-prod/locations/us-central1-a/instances/home
`), load.Options{Verbatim: s.Verbatim})
	if l.HasErrors() {
		t.Fatal(l)
	}
	r := s.Validate(doc)
	var got []string
	for _, d := range r.Diags.Sort() {
		got = append(got, d.Rule+" "+d.Path+" "+d.Hint)
	}
	want := []string{
		`schema-unknown-field nodePools[0].machinSpec did you mean "machineSpec"?`,
		`schema-required nodePools[1].machineSpec add "machineSpec" to nodePools[1]`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	if !r.Unsound.Covers("nodePools[0].machineSpec.machineType") {
		t.Error("the misspelt machineSpec is not unsound")
	}
}

// TestMalformedReferenceReportedOnce: a reference of the wrong form is
// reported as such, not also as undeclared.
func TestMalformedReferenceReportedOnce(t *testing.T) {
	s, err := New()
	if err != nil {
		t.Fatal(err)
	}
	doc, l := load.Bytes("s.yaml", []byte(`name: projects/acme-prod/locations/us-central1/modelDevelopmentClusters/train
nodePools:
- {id: cpu, machineSpec: {machineType: n2-standard-8}, scalingSpec: {maxNodeCount: 1}}
orchestratorSpec:
  slurmSpec:
    partitions: [{id: debug, nodePoolIds: [cpu, "Bad Pool", gpu]}]
    loginNodePoolId: cpu
    homeDirectoryStorage: projects/acme-prod/locations/us-central1-a/instances/home
`), load.Options{Verbatim: s.Verbatim})
	if l.HasErrors() {
		t.Fatal(l)
	}
	var got []string
	for _, d := range s.Check(doc).Sort() {
		got = append(got, d.Rule+" "+d.Path)
	}
	want := "schema-id orchestratorSpec.slurmSpec.partitions[0].nodePoolIds[1]\n" +
		"schema-reference orchestratorSpec.slurmSpec.partitions[0].nodePoolIds[2]"
	if strings.Join(got, "\n") != want {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), want)
	}
}
