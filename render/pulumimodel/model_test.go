package pulumimodel_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/deploy/artifacts"
	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/render/pulumimodel"
	"github.com/slurmspec/slurmspec/schema"
)

func analyse(t *testing.T, file string, opt pipeline.Options) *pipeline.Result {
	t.Helper()
	p, err := pipeline.New(opt)
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.Analyse(pipeline.File(file, nil), pipeline.AnalyseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Cluster == nil {
		t.Fatalf("%s does not compile: %v", file, r.Diags)
	}
	return r
}

// TestArgsCoverSchema checks that the provider input types know every
// field of the spec schema, under the provider's name, and nothing else
// (besides the identity and client-side inputs),
// so a field added to the schema cannot be rejected or dropped on deploy.
func TestArgsCoverSchema(t *testing.T) {
	data, err := schema.JSONSchema()
	if err != nil {
		t.Fatal(err)
	}
	var root map[string]any
	if err := json.Unmarshal(data, &root); err != nil {
		t.Fatal(err)
	}
	defs, _ := root["$defs"].(map[string]any)
	fromSchema := map[string]bool{}
	walkSchema(root, "", defs, fromSchema, 0)
	outputOnly := []string{"name", "createTime", "updateTime", "startTime", "clusterStatus", "clusterEvents", "runtime", "state", "$schema"}
	for _, k := range outputOnly {
		delete(fromSchema, k)
	}
	if len(fromSchema) < 40 {
		t.Fatalf("found only %d fields in the JSON Schema: the walk is broken", len(fromSchema))
	}
	fromProvider := map[string]bool{}
	walkType(reflect.TypeOf(pulumimodel.ClusterArgs{}), "", fromProvider)
	// The identity and client-side inputs are not in the request body.
	for _, k := range []string{"project", "region", "modelDevelopmentClusterId", "deletionPolicy"} {
		delete(fromProvider, k)
	}
	fromArgs := map[string]bool{}
	for k := range fromProvider {
		fromArgs[pulumimodel.RESTPath(k)] = true
	}
	if got, want := keys(fromArgs), keys(fromSchema); !reflect.DeepEqual(got, want) {
		t.Errorf("ClusterArgs fields differ from the spec schema's:\nonly in ClusterArgs: %v\nonly in the schema:  %v", minus(fromArgs, fromSchema), minus(fromSchema, fromArgs))
	}
}

func walkSchema(s map[string]any, prefix string, defs map[string]any, out map[string]bool, depth int) {
	if depth > 20 {
		return
	}
	if ref, ok := s["$ref"].(string); ok {
		if d, ok := defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any); ok {
			walkSchema(d, prefix, defs, out, depth+1)
		}
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		list, _ := s[k].([]any)
		for _, e := range list {
			if m, ok := e.(map[string]any); ok {
				walkSchema(m, prefix, defs, out, depth+1)
			}
		}
	}
	if items, ok := s["items"].(map[string]any); ok {
		walkSchema(items, prefix+"[]", defs, out, depth+1)
	}
	props, _ := s["properties"].(map[string]any)
	for name, p := range props {
		if strings.Contains(name, "_") {
			continue // the snake_case spelling of the same field
		}
		path := join(prefix, name)
		out[path] = true
		if name == "config" {
			continue // a map of slurm.conf keys, whose keys the schema lists
		}
		if m, ok := p.(map[string]any); ok {
			walkSchema(m, path, defs, out, depth+1)
		}
	}
}

func walkType(t reflect.Type, prefix string, out map[string]bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Slice:
		walkType(t.Elem(), prefix+"[]", out)
		return
	case reflect.Struct:
	default:
		return
	}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name := strings.Split(f.Tag.Get("json"), ",")[0]
		path := join(prefix, name)
		out[path] = true
		walkType(f.Type, path, out)
	}
}

func join(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func minus(a, b map[string]bool) []string {
	var out []string
	for k := range a {
		if !b[k] {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// TestSpecFromInputsRoundTrip: the inputs a stack recorded turn back into
// a spec that compiles to the same request body.
func TestSpecFromInputsRoundTrip(t *testing.T) {
	for _, file := range []string{"../../examples/seed.jsonc", "../../examples/a4-training.yaml"} {
		r := analyse(t, file, pipeline.Options{})
		m, err := artifacts.Model(r.Cluster, pulumimodel.Options{})
		if err != nil {
			t.Fatal(err)
		}
		inputs := m.Resource(pulumimodel.ClusterResource).Inputs
		// The state holds JSON: numbers come back as float64.
		data, _ := json.Marshal(inputs)
		var recorded map[string]any
		if err := json.Unmarshal(data, &recorded); err != nil {
			t.Fatal(err)
		}
		set, name, err := artifacts.RenderDeployed(recorded, r.Settings.SlurmVersion())
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if name != m.ClusterName() {
			t.Errorf("%s: name %q, want %q", file, name, m.ClusterName())
		}
		want, err := artifacts.Rendered(r.Cluster, r.Settings.SlurmVersion())
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(set, want) {
			t.Errorf("%s: the deployed inputs render differently from the spec", file)
		}
	}
}

func TestNewErrors(t *testing.T) {
	a4 := analyse(t, "../../examples/a4-training.yaml", pipeline.Options{})
	seed := analyse(t, "../../examples/seed.jsonc", pipeline.Options{})
	for _, tt := range []struct {
		name string
		r    *pipeline.Result
		opt  pulumimodel.Options
		want string
	}{
		{"placeholder location", seed, pulumimodel.Options{CreateHomeFilestore: true}, `lives in a zone, but homeDirectoryStorage "projects/PROJECT_ID/locations/REGION-ZONE/instances/FILESTORE_INSTANCE_ID" names location "REGION-ZONE"`},
		{"bad tier", a4, pulumimodel.Options{CreateHomeFilestore: true, FilestoreTier: "GOLD"}, `--filestore-tier "GOLD": want one of BASIC_HDD, BASIC_SSD, ENTERPRISE, HIGH_SCALE_SSD, REGIONAL, ZONAL`},
		{"too small", a4, pulumimodel.Options{CreateHomeFilestore: true, FilestoreCapacityGb: 1024}, "--filestore-capacity-gb 1024: the BASIC_SSD tier needs at least 2560 GiB"},
		{"regional tier in a zone", a4, pulumimodel.Options{CreateHomeFilestore: true, FilestoreTier: "REGIONAL"}, "a REGIONAL instance lives in a region"},
		{"bad share", a4, pulumimodel.Options{CreateHomeFilestore: true, FilestoreShare: "Home"}, `--filestore-share "Home"`},
		{"options without create", a4, pulumimodel.Options{FilestoreTier: "ZONAL"}, "need --create-home-filestore"},
		{"network without subnetwork", seed, pulumimodel.Options{CreateNetwork: true}, "--create-network: the spec needs network.subnetwork"},
		{"bad range", a4, pulumimodel.Options{CreateNetwork: true, SubnetCIDR: "10.0.0.1/16"}, "--subnet-cidr \"10.0.0.1/16\": want an IPv4 range"},
		{"range without network", a4, pulumimodel.Options{SubnetCIDR: "10.1.0.0/16"}, "--subnet-cidr needs --create-network"},
		{"no service account", a4, pulumimodel.Options{CreateServiceAccount: true}, "--create-service-account: the spec needs runtimeSpec.serviceAccount"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := artifacts.Model(tt.r.Cluster, tt.opt)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want it to contain %q", err, tt.want)
			}
		})
	}

	// A pool in another zone than the instance.
	other := analyse(t, "../../examples/a4-training.yaml", pipeline.Options{})
	other.Cluster.NodePools[1].Zone.Value = "us-central1-c"
	if _, err := artifacts.Model(other.Cluster, pulumimodel.Options{CreateHomeFilestore: true}); err == nil || !strings.Contains(err.Error(), `node pool "login" is in zone us-central1-c`) {
		t.Errorf("zone mismatch: error %v", err)
	}

	// No identity.
	noID := analyse(t, "../../examples/a4-training.yaml", pipeline.Options{})
	noID.Cluster.Project.Value = ""
	if _, err := artifacts.Model(noID.Cluster, pulumimodel.Options{}); !errors.Is(err, pulumimodel.ErrIdentity) {
		t.Errorf("no project: error %v, want ErrIdentity", err)
	}
}

// TestDeletionPolicyAlwaysSent: the cluster gets deletionPolicy DELETE
// without --protect and PREVENT with it. Left out, the input would keep
// what the state holds, so PREVENT would stay after --protect is dropped.
func TestDeletionPolicyAlwaysSent(t *testing.T) {
	r := analyse(t, "../../examples/a4-training.yaml", pipeline.Options{})
	for _, tt := range []struct {
		protect bool
		want    string
	}{{false, pulumimodel.DeletionPolicyDelete}, {true, pulumimodel.DeletionPolicyPrevent}} {
		m, err := artifacts.Model(r.Cluster, pulumimodel.Options{Protect: tt.protect})
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Resource(pulumimodel.ClusterResource).Inputs["deletionPolicy"]; got != tt.want {
			t.Errorf("protect %v: deletionPolicy %v, want %s", tt.protect, got, tt.want)
		}
	}
}
