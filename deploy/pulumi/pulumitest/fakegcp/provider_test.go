package fakegcp

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/slurmspec/slurmspec/render/diff"
	"github.com/slurmspec/slurmspec/render/pulumimodel"
)

// argsFields describes a Go input type as name → Field, for comparison
// with the provider description.
func argsFields(t reflect.Type) map[string]*Field {
	out := map[string]*Field{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name := strings.Split(f.Tag.Get("json"), ",")[0]
		fd := goField(f.Type)
		fd.Required = f.Tag.Get("schema") == "required"
		out[name] = fd
	}
	return out
}

func goField(t reflect.Type) *Field {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return &Field{Type: "string"}
	case reflect.Bool:
		return &Field{Type: "boolean"}
	case reflect.Int, reflect.Int64:
		return &Field{Type: "integer"}
	case reflect.Slice:
		return &Field{Type: "array", Items: goField(t.Elem())}
	case reflect.Map:
		return &Field{Type: "map"}
	case reflect.Struct:
		return &Field{Type: "object", Properties: argsFields(t)}
	}
	return &Field{Type: t.String()}
}

// compareFields lists the disagreements of our input type with the
// provider's: a field the provider lacks, another type, another
// required flag, and a required provider input we do not have.
func compareFields(path string, ours, theirs map[string]*Field, out *[]string) {
	for name, o := range ours {
		p := join(path, name)
		th := theirs[name]
		if th == nil {
			*out = append(*out, fmt.Sprintf("%s: our input type has it, the provider has no such input%s", p, suggest(name, theirs)))
			continue
		}
		if o.Type != th.Type {
			*out = append(*out, fmt.Sprintf("%s: our type %s, the provider's %s", p, o.Type, th.Type))
			continue
		}
		if o.Required != th.Required {
			*out = append(*out, fmt.Sprintf("%s: required is %v in our type, %v in the provider", p, o.Required, th.Required))
		}
		switch o.Type {
		case "object":
			compareFields(p, o.Properties, th.Properties, out)
		case "array":
			if o.Items.Type != th.Items.Type {
				*out = append(*out, fmt.Sprintf("%s[]: our element type %s, the provider's %s", p, o.Items.Type, th.Items.Type))
			} else if o.Items.Type == "object" {
				compareFields(p+"[]", o.Items.Properties, th.Items.Properties, out)
			}
		}
	}
	for name, th := range theirs {
		if _, ok := ours[name]; !ok && th.Required {
			*out = append(*out, fmt.Sprintf("%s: the provider requires it, our input type lacks it", join(path, name)))
		}
	}
}

// conformance lists every disagreement between slurmspec's model and the
// provider description: input names, types and required flags of the
// cluster and the Filestore instance, the names renamed by the bridge,
// and the replacement rule the update impact uses (diff.ClusterReplaced).
func conformance(ref *Reference) []string {
	var out []string
	cluster := ref.Resources[pulumimodel.ClusterType]
	fs := ref.Resources[pulumimodel.FilestoreType]
	if cluster == nil || fs == nil {
		return []string{"the description lacks the cluster or the Filestore instance"}
	}
	compareFields("", argsFields(reflect.TypeOf(pulumimodel.ClusterArgs{})), cluster.Inputs, &out)
	compareFields("filestore", argsFields(reflect.TypeOf(pulumimodel.FilestoreArgs{})), fs.Inputs, &out)

	// Replacement: every field of the cluster, in cluster.json's names.
	for _, l := range cluster.Leaves() {
		if l.Path == "deletionPolicy" || strings.HasSuffix(l.Path, "]") && l.Field.Type != "object" {
			continue // client-side; elements of scalar lists are their list
		}
		want := l.Replaces
		if l.Field.Type == "object" && strings.HasSuffix(l.Path, "[]") {
			// Adding, removing or reordering elements whose fields
			// are ForceNew replaces the resource.
			want = want || l.Field.hasForceNew()
		}
		rest := pulumimodel.RESTPath(l.Path)
		if got := diff.ClusterReplaced(rest); got != want {
			out = append(out, fmt.Sprintf("replacement of %s (%s): the provider replaces the cluster: %v; slurmspec's impact says: %v", l.Path, rest, want, got))
		}
	}
	for _, rest := range pulumimodel.Renamed() {
		pp := pulumimodel.PulumiPath(rest)
		found := map[string]bool{}
		for _, l := range cluster.Leaves() {
			found[l.Path] = true
		}
		if !found[pp] || found[rest] {
			out = append(out, fmt.Sprintf("name: slurmspec sends %s as %s, the provider has %s: %v, %s: %v", rest, pp, pp, found[pp], rest, found[rest]))
		}
	}
	sort.Strings(out)
	return out
}

// TestModelConformsToProvider: slurmspec's model agrees with the
// hand-written description of the real provider on every name, type,
// required input and replacement rule.
func TestModelConformsToProvider(t *testing.T) {
	ref, err := LoadReference()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(ref.Resources[pulumimodel.ClusterType].Leaves()); n < 50 {
		t.Fatalf("the cluster has only %d fields: the description or its walk is broken", n)
	}
	for _, d := range conformance(ref) {
		t.Error(d)
	}
}

// TestConformanceCanFail changes the description the way a wrong model
// would disagree with it, and expects the conformance check to say so.
func TestConformanceCanFail(t *testing.T) {
	for _, tt := range []struct {
		name   string
		change func(r *Reference)
		want   string
	}{
		{"scaling forces replacement", func(r *Reference) {
			pool(r).Properties["scalingSpec"].Properties["maxNodeCount"].ForceNew = true
		}, "replacement of nodePools[].scalingSpec.maxNodeCount"},
		{"machine type updates in place", func(r *Reference) {
			pool(r).ForceNew = false
			pool(r).Properties["machineSpec"].ForceNew = false
			pool(r).Properties["machineSpec"].Properties["machineType"].ForceNew = false
		}, "replacement of nodePools[].machineSpec.machineType"},
		{"labels force replacement", func(r *Reference) {
			r.Resources[pulumimodel.ClusterType].Inputs["labels"].ForceNew = true
		}, "replacement of labels"},
		{"singular list name", func(r *Reference) {
			lec := r.Resources[pulumimodel.ClusterType].Inputs["lustreExportConfig"]
			lec.Properties["daysOfWeek"] = lec.Properties["daysOfWeeks"]
			delete(lec.Properties, "daysOfWeeks")
		}, "lustreExportConfig.daysOfWeeks: our input type has it, the provider has no such input (the provider's input is \"daysOfWeek\")"},
		{"another type", func(r *Reference) {
			pool(r).Properties["bootDisk"].Properties["bootDiskSizeGb"].Type = "string"
		}, "nodePools[].bootDisk.bootDiskSizeGb: our type integer, the provider's string"},
		{"a field we send that the provider lacks", func(r *Reference) {
			delete(pool(r).Properties, "startupScript")
		}, "nodePools[].startupScript: our input type has it, the provider has no such input"},
		{"a new required input", func(r *Reference) {
			r.Resources[pulumimodel.ClusterType].Inputs["billingAccount"] = &Field{Type: "string", Required: true}
		}, "billingAccount: the provider requires it"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ref, err := ParseReference(referenceJSON)
			if err != nil {
				t.Fatal(err)
			}
			tt.change(ref)
			got := conformance(ref)
			found := false
			for _, d := range got {
				if strings.Contains(d, tt.want) {
					found = true
				}
			}
			if !found {
				t.Errorf("conformance did not report %q; it reported %q", tt.want, got)
			}
		})
	}
}

func pool(r *Reference) *Field {
	return r.Resources[pulumimodel.ClusterType].Inputs["nodePools"].Items
}

func clusterSpec(t *testing.T) *ResourceSpec {
	t.Helper()
	ref, err := LoadReference()
	if err != nil {
		t.Fatal(err)
	}
	return ref.Resources[pulumimodel.ClusterType]
}

// inputs is a cluster's inputs as the engine hands them over (JSON).
func inputs(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

const baseInputs = `{
  "project": "acme", "region": "us-central1", "modelDevelopmentClusterId": "c",
  "labels": {"team": "a"},
  "nodePools": [
    {"id": "a4", "machineSpec": {"machineType": "a4-highgpu-8g"}, "provisioningModel": "SPOT", "scalingSpec": {"maxNodeCount": 2}},
    {"id": "login", "machineSpec": {"machineType": "n2-standard-8"}, "scalingSpec": {"maxNodeCount": 1}}
  ],
  "orchestratorSpec": {"slurmSpec": {"homeDirectoryStorage": "h", "loginNodePoolId": "login",
    "partitions": [{"id": "p", "nodePoolIds": ["a4"], "config": {"MaxTime": "1"}}]}}
}`

// TestDiffInputs: the double plans as the bridged provider does.
func TestDiffInputs(t *testing.T) {
	spec := clusterSpec(t)
	for _, tt := range []struct {
		name, old, new string
		want           []string // changed paths, "!" = replaces
	}{
		{"scaling", `"maxNodeCount": 2`, `"maxNodeCount": 4`, []string{"nodePools[0].scalingSpec.maxNodeCount"}},
		{"partition config", `"MaxTime": "1"`, `"MaxTime": "2"`, []string{"orchestratorSpec.slurmSpec.partitions[0].config"}},
		{"labels", `"team": "a"`, `"team": "b"`, []string{"labels"}},
		{"machine type of the second pool", `"n2-standard-8"`, `"n2-standard-16"`, []string{"!nodePools[1].machineSpec.machineType"}},
		{"provisioning model", `"SPOT"`, `"FLEX_START"`, []string{"!nodePools[0].provisioningModel"}},
		{"pool id", `"id": "login"`, `"id": "login2"`, []string{"!nodePools[1].id"}},
		{"home", `"homeDirectoryStorage": "h"`, `"homeDirectoryStorage": "h2"`, []string{"!orchestratorSpec.slurmSpec.homeDirectoryStorage"}},
		{"pool added", `{"id": "login"`, `{"id": "cpu", "machineSpec": {"machineType": "n2-standard-8"}, "scalingSpec": {"maxNodeCount": 1}}, {"id": "login"`, []string{"!nodePools"}},
		{"defaults only", `"labels"`, `"__defaults": [], "labels"`, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			news := strings.Replace(baseInputs, tt.old, tt.new, 1)
			if news == baseInputs {
				t.Fatalf("%q not found", tt.old)
			}
			var got []string
			for _, c := range spec.DiffInputs(inputs(t, baseInputs), inputs(t, news)) {
				p := c.Path
				if c.Replaces {
					p = "!" + p
				}
				got = append(got, p)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("changes %v, want %v", got, tt.want)
			}
		})
	}
	// Reordering pools changes ids and machine types element by element.
	reordered := inputs(t, baseInputs)
	pools := reordered["nodePools"].([]any)
	pools[0], pools[1] = pools[1], pools[0]
	replaces := false
	for _, c := range spec.DiffInputs(inputs(t, baseInputs), reordered) {
		replaces = replaces || c.Replaces
	}
	if !replaces {
		t.Error("reordering node pools does not replace the cluster")
	}
}

// TestCheckInputs: unknown fields, wrong types and missing required
// inputs fail; the bridge's names are suggested.
func TestCheckInputs(t *testing.T) {
	spec := clusterSpec(t)
	if f := spec.CheckInputs(inputs(t, baseInputs)); len(f) != 0 {
		t.Errorf("valid inputs: %v", f)
	}
	bad := inputs(t, strings.NewReplacer(
		`"labels"`, `"lustreExportConfig": {"destinationBucket": "b", "daysOfWeek": ["MONDAY"]}, "labels"`,
		`"maxNodeCount": 2`, `"maxNodeCount": "2"`,
		`"loginNodePoolId": "login",`, ``,
	).Replace(baseInputs))
	want := []string{
		`lustreExportConfig.daysOfWeek: unknown input "daysOfWeek" (the provider's input is "daysOfWeeks")`,
		`nodePools[0].scalingSpec.maxNodeCount: want integer, got string`,
		`orchestratorSpec.slurmSpec.loginNodePoolId: missing required input`,
	}
	if got := spec.CheckInputs(bad); !reflect.DeepEqual(got, want) {
		t.Errorf("failures\n%q\nwant\n%q", got, want)
	}
}

// TestWithDefaults: "__defaults" at the top level and in nested objects,
// list elements included, never in maps.
func TestWithDefaults(t *testing.T) {
	got := clusterSpec(t).WithDefaults(inputs(t, baseInputs))
	if got[DefaultsKey] == nil {
		t.Error("no top-level __defaults")
	}
	p := got["nodePools"].([]any)[0].(map[string]any)
	if p[DefaultsKey] == nil || p["machineSpec"].(map[string]any)[DefaultsKey] == nil {
		t.Errorf("no __defaults in a node pool: %v", p)
	}
	if _, ok := got["labels"].(map[string]any)[DefaultsKey]; ok {
		t.Error("__defaults in a map")
	}
}

func TestSchema(t *testing.T) {
	data, err := Schema()
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Name, Version string
		Resources     map[string]struct {
			InputProperties map[string]any
			RequiredInputs  []string
			Properties      map[string]any
		}
		Types map[string]any
	}
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	if s.Name != "gcp" || s.Version != pulumimodel.ProviderVersion {
		t.Errorf("package %s %s", s.Name, s.Version)
	}
	c := s.Resources[pulumimodel.ClusterType]
	if want := []string{"modelDevelopmentClusterId", "nodePools", "orchestratorSpec"}; !reflect.DeepEqual(c.RequiredInputs, want) {
		t.Errorf("cluster required inputs %v, want %v", c.RequiredInputs, want)
	}
	if c.Properties["name"] == nil || c.InputProperties["name"] != nil {
		t.Error("name must be an output of the cluster, not an input")
	}
	if s.Resources[pulumimodel.FilestoreType].InputProperties["fileShares"] == nil {
		t.Error("no Filestore fileShares")
	}
	if s.Types["gcp:vertex/AiModelDevelopmentClusterLustreExportConfig:AiModelDevelopmentClusterLustreExportConfig"] == nil {
		t.Errorf("no lustreExportConfig type among %d types", len(s.Types))
	}
}

// TestServerCloud: a create of an existing id fails as in Google Cloud,
// Read answers from the cloud, and deletionPolicy PREVENT refuses Delete.
func TestServerCloud(t *testing.T) {
	ref, err := LoadReference()
	if err != nil {
		t.Fatal(err)
	}
	s := &server{ref: ref, cancel: make(chan struct{}), cloud: cloud{dir: t.TempDir()}}
	in := inputs(t, baseInputs)
	props, err := plugin.MarshalProperties(resource.NewPropertyMapFromMap(in), marshal)
	if err != nil {
		t.Fatal(err)
	}
	const urn = "urn:pulumi:s::p::" + pulumimodel.ClusterType + "::cluster"
	ctx := context.Background()
	created, err := s.Create(ctx, &pulumirpc.CreateRequest{Urn: urn, Type: pulumimodel.ClusterType, Properties: props})
	if err != nil {
		t.Fatal(err)
	}
	if want := "projects/acme/locations/us-central1/modelDevelopmentClusters/c"; created.GetId() != want {
		t.Errorf("id %q, want %q", created.GetId(), want)
	}
	if _, err := s.Create(ctx, &pulumirpc.CreateRequest{Urn: urn, Type: pulumimodel.ClusterType, Properties: props}); err == nil || !strings.Contains(err.Error(), "ALREADY_EXISTS") {
		t.Errorf("second create: %v", err)
	}
	read, err := s.Read(ctx, &pulumirpc.ReadRequest{Urn: urn, Id: created.GetId()})
	if err != nil || read.GetId() != created.GetId() || read.GetInputs().GetFields()["modelDevelopmentClusterId"].GetStringValue() != "c" {
		t.Errorf("read: %v %v", read, err)
	}

	in["deletionPolicy"] = "PREVENT"
	prevent, _ := plugin.MarshalProperties(resource.NewPropertyMapFromMap(in), marshal)
	if _, err := s.Delete(ctx, &pulumirpc.DeleteRequest{Urn: urn, Type: pulumimodel.ClusterType, Id: created.GetId(), Properties: prevent}); err == nil || !strings.Contains(err.Error(), "PREVENT") {
		t.Errorf("delete with PREVENT: %v", err)
	}
	if _, err := s.Delete(ctx, &pulumirpc.DeleteRequest{Urn: urn, Type: pulumimodel.ClusterType, Id: created.GetId(), Properties: props}); err != nil {
		t.Fatal(err)
	}
	if read, err := s.Read(ctx, &pulumirpc.ReadRequest{Urn: urn, Id: created.GetId()}); err != nil || read.GetId() != "" {
		t.Errorf("read after delete: %v %v", read, err)
	}
}
