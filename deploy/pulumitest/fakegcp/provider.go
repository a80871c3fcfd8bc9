// Package fakegcp is a test double of the pulumi-gcp provider plugin
// (version pulumimodel.ProviderVersion) for the two resource types slurmspec
// registers. It lets the real Pulumi engine run preview, up, update and
// destroy offline: it checks inputs against the provider input types of
// package render/pulumimodel, answers diffs (replacing a resource when an
// immutable field changes), creates, updates and deletes nothing but a log
// line, and serves a package schema for Pulumi YAML.
//
// Every call is appended as one JSON line to the file named by $FAKEGCP_LOG
// (when set), so tests can assert what the provider received.
package fakegcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"
	"sync"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/provider"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/slurmspec/slurmspec/render/pulumimodel"
)

// EnvLog names the file calls are logged to.
const EnvLog = "FAKEGCP_LOG"

// Call is one logged provider call.
type Call struct {
	Method  string         `json:"method"`
	Type    string         `json:"type,omitempty"`
	Name    string         `json:"name,omitempty"`
	ID      string         `json:"id,omitempty"`
	Preview bool           `json:"preview,omitempty"`
	Inputs  map[string]any `json:"inputs,omitempty"`
	Olds    map[string]any `json:"olds,omitempty"`
	// Replaces and Diffs are Diff's answer.
	Replaces []string `json:"replaces,omitempty"`
	Diffs    []string `json:"diffs,omitempty"`
}

// Main serves the provider; it is the plugin binary's main function.
func Main() error {
	return provider.Main(pulumimodel.ProviderPackage, func(*provider.HostClient) (pulumirpc.ResourceProviderServer, error) {
		return &server{log: os.Getenv(EnvLog)}, nil
	})
}

type server struct {
	pulumirpc.UnimplementedResourceProviderServer
	log string
	mu  sync.Mutex
}

var marshal = plugin.MarshalOptions{KeepUnknowns: true, KeepSecrets: true, KeepResources: true, KeepOutputValues: true}

func (s *server) record(c Call) {
	if s.log == "" {
		return
	}
	data, err := json.Marshal(c)
	if err != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := os.OpenFile(s.log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	_, _ = f.Write(append(data, '\n'))
}

func (s *server) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: pulumimodel.ProviderVersion}, nil
}

func (s *server) GetSchema(context.Context, *pulumirpc.GetSchemaRequest) (*pulumirpc.GetSchemaResponse, error) {
	data, err := Schema()
	if err != nil {
		return nil, err
	}
	return &pulumirpc.GetSchemaResponse{Schema: string(data)}, nil
}

func (s *server) CheckConfig(_ context.Context, req *pulumirpc.CheckRequest) (*pulumirpc.CheckResponse, error) {
	return &pulumirpc.CheckResponse{Inputs: req.GetNews()}, nil
}

func (s *server) DiffConfig(context.Context, *pulumirpc.DiffRequest) (*pulumirpc.DiffResponse, error) {
	return &pulumirpc.DiffResponse{Changes: pulumirpc.DiffResponse_DIFF_NONE}, nil
}

func (s *server) Configure(context.Context, *pulumirpc.ConfigureRequest) (*pulumirpc.ConfigureResponse, error) {
	return &pulumirpc.ConfigureResponse{SupportsPreview: true, AcceptSecrets: true}, nil
}

// Check validates the inputs against the provider input types: unknown
// fields and wrong types fail, as they would against the real schema.
func (s *server) Check(_ context.Context, req *pulumirpc.CheckRequest) (*pulumirpc.CheckResponse, error) {
	news, err := plugin.UnmarshalProperties(req.GetNews(), marshal)
	if err != nil {
		return nil, err
	}
	var failures []*pulumirpc.CheckFailure
	if !news.ContainsUnknowns() {
		if err := checkInputs(req.GetType(), plain(news)); err != nil {
			failures = append(failures, &pulumirpc.CheckFailure{Reason: err.Error()})
		}
	}
	return &pulumirpc.CheckResponse{Inputs: req.GetNews(), Failures: failures}, nil
}

func checkInputs(typ string, inputs map[string]any) error {
	var into any
	switch typ {
	case pulumimodel.ClusterType:
		into = &pulumimodel.ClusterArgs{}
	case pulumimodel.FilestoreType:
		into = &pulumimodel.FilestoreArgs{}
	default:
		return fmt.Errorf("unknown resource type %s", typ)
	}
	data, err := json.Marshal(inputs)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	return dec.Decode(into)
}

// immutable are the top-level inputs whose change replaces the resource.
// A node pool's immutable fields replace the pool, which the API does
// inside an update of the cluster.
var immutable = map[string]map[string]bool{
	pulumimodel.ClusterType:   {"project": true, "region": true, "modelDevelopmentClusterId": true, "network": true, "runtimeSpec": true},
	pulumimodel.FilestoreType: {"project": true, "location": true, "name": true, "tier": true, "networks": true},
}

func (s *server) Diff(_ context.Context, req *pulumirpc.DiffRequest) (*pulumirpc.DiffResponse, error) {
	olds := req.GetOldInputs()
	if olds == nil {
		olds = req.GetOlds()
	}
	oldMap, err := plugin.UnmarshalProperties(olds, marshal)
	if err != nil {
		return nil, err
	}
	news, err := plugin.UnmarshalProperties(req.GetNews(), marshal)
	if err != nil {
		return nil, err
	}
	keys := map[resource.PropertyKey]bool{}
	for k := range oldMap {
		keys[k] = true
	}
	for k := range news {
		keys[k] = true
	}
	var diffs, replaces []string
	for k := range keys {
		o, n := oldMap[k], news[k]
		if o.DeepEquals(n) && !n.ContainsUnknowns() {
			continue
		}
		diffs = append(diffs, string(k))
		if immutable[req.GetType()][string(k)] || k == "orchestratorSpec" && homeChanged(o, n) {
			replaces = append(replaces, string(k))
		}
	}
	sort.Strings(diffs)
	sort.Strings(replaces)
	changes := pulumirpc.DiffResponse_DIFF_NONE
	if len(diffs) > 0 {
		changes = pulumirpc.DiffResponse_DIFF_SOME
	}
	s.record(Call{Method: "Diff", Type: req.GetType(), Name: req.GetName(), ID: req.GetId(), Inputs: plain(news), Olds: plain(oldMap), Diffs: diffs, Replaces: replaces})
	return &pulumirpc.DiffResponse{Changes: changes, Diffs: diffs, Replaces: replaces, DeleteBeforeReplace: len(replaces) > 0}, nil
}

// homeChanged: slurmSpec.homeDirectoryStorage is immutable.
func homeChanged(o, n resource.PropertyValue) bool {
	get := func(v resource.PropertyValue) resource.PropertyValue {
		if !v.IsObject() {
			return resource.NewNullProperty()
		}
		ss := v.ObjectValue()["slurmSpec"]
		if !ss.IsObject() {
			return resource.NewNullProperty()
		}
		return ss.ObjectValue()["homeDirectoryStorage"]
	}
	oh, nh := get(o), get(n)
	return !oh.DeepEquals(nh) || nh.ContainsUnknowns()
}

// id is the resource's id, as the real provider forms it.
func id(typ string, in resource.PropertyMap) string {
	str := func(k string) string {
		if v := in[resource.PropertyKey(k)]; v.IsString() {
			return v.StringValue()
		}
		return ""
	}
	if typ == pulumimodel.FilestoreType {
		return fmt.Sprintf("projects/%s/locations/%s/instances/%s", str("project"), str("location"), str("name"))
	}
	return pulumimodel.ClusterName(str("project"), str("region"), str("modelDevelopmentClusterId"))
}

// outputs are the inputs plus the computed name of a cluster (unknown in
// a preview).
func outputs(typ string, in resource.PropertyMap, preview bool) (*structpb.Struct, error) {
	out := in.Copy()
	if typ == pulumimodel.ClusterType {
		if preview {
			out["name"] = resource.MakeComputed(resource.NewProperty(""))
		} else {
			out["name"] = resource.NewProperty(id(typ, in))
		}
	}
	return plugin.MarshalProperties(out, marshal)
}

func (s *server) Create(_ context.Context, req *pulumirpc.CreateRequest) (*pulumirpc.CreateResponse, error) {
	in, err := plugin.UnmarshalProperties(req.GetProperties(), marshal)
	if err != nil {
		return nil, err
	}
	s.record(Call{Method: "Create", Type: req.GetType(), Name: req.GetName(), Preview: req.GetPreview(), Inputs: plain(in)})
	props, err := outputs(req.GetType(), in, req.GetPreview())
	if err != nil {
		return nil, err
	}
	rid := ""
	if !req.GetPreview() {
		rid = id(req.GetType(), in)
	}
	return &pulumirpc.CreateResponse{Id: rid, Properties: props}, nil
}

func (s *server) Update(_ context.Context, req *pulumirpc.UpdateRequest) (*pulumirpc.UpdateResponse, error) {
	news, err := plugin.UnmarshalProperties(req.GetNews(), marshal)
	if err != nil {
		return nil, err
	}
	olds, err := plugin.UnmarshalProperties(req.GetOldInputs(), marshal)
	if err != nil {
		return nil, err
	}
	s.record(Call{Method: "Update", Type: req.GetType(), Name: req.GetName(), ID: req.GetId(), Preview: req.GetPreview(), Inputs: plain(news), Olds: plain(olds)})
	props, err := outputs(req.GetType(), news, false)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.UpdateResponse{Properties: props}, nil
}

func (s *server) Delete(_ context.Context, req *pulumirpc.DeleteRequest) (*emptypb.Empty, error) {
	s.record(Call{Method: "Delete", Type: req.GetType(), Name: req.GetName(), ID: req.GetId()})
	return &emptypb.Empty{}, nil
}

func (s *server) Read(_ context.Context, req *pulumirpc.ReadRequest) (*pulumirpc.ReadResponse, error) {
	return &pulumirpc.ReadResponse{Id: req.GetId(), Properties: req.GetProperties(), Inputs: req.GetInputs()}, nil
}

func (s *server) Cancel(context.Context, *emptypb.Empty) (*emptypb.Empty, error) {
	return &emptypb.Empty{}, nil
}

// plain turns properties into JSON-like data; unknowns become
// "<unknown>".
func plain(m resource.PropertyMap) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[string(k)] = plainValue(v)
	}
	return out
}

func plainValue(v resource.PropertyValue) any {
	switch {
	case v.IsComputed() || v.IsOutput() && !v.OutputValue().Known:
		return "<unknown>"
	case v.IsOutput():
		return plainValue(v.OutputValue().Element)
	case v.IsSecret():
		return plainValue(v.SecretValue().Element)
	case v.IsObject():
		return plain(v.ObjectValue())
	case v.IsArray():
		out := []any{}
		for _, e := range v.ArrayValue() {
			out = append(out, plainValue(e))
		}
		return out
	case v.IsNull():
		return nil
	}
	return v.V
}

// Schema is the package schema the double serves: the two resources, with
// input and output properties derived from the provider input types of
// package deploy/pulumimodel.
func Schema() ([]byte, error) {
	types := map[string]any{}
	res := map[string]any{}
	for _, r := range []struct {
		token, module, prefix, typePrefix string
		args                              reflect.Type
		extra                             map[string]any
	}{
		{pulumimodel.ClusterType, "vertex", "Cluster", "AiModelDevelopmentCluster", reflect.TypeOf(pulumimodel.ClusterArgs{}),
			map[string]any{"name": map[string]any{"type": "string", "description": "projects/P/locations/R/modelDevelopmentClusters/ID"}}},
		{pulumimodel.FilestoreType, "filestore", "Filestore", "Instance", reflect.TypeOf(pulumimodel.FilestoreArgs{}), nil},
	} {
		g := &schemaGen{module: r.module, prefix: r.prefix, typePrefix: r.typePrefix, types: types}
		props, required := g.object(r.args)
		outProps := map[string]any{}
		for k, v := range props {
			outProps[k] = v
		}
		for k, v := range r.extra {
			outProps[k] = v
		}
		res[r.token] = map[string]any{
			"description":     "Test double of " + r.token,
			"inputProperties": props,
			"requiredInputs":  required,
			"properties":      outProps,
			"required":        required,
		}
	}
	return json.MarshalIndent(map[string]any{
		"name":      pulumimodel.ProviderPackage,
		"version":   pulumimodel.ProviderVersion,
		"meta":      map[string]any{"moduleFormat": "(.*)(?:/[^/]*)"},
		"resources": res,
		"types":     types,
	}, "", "  ")
}

type schemaGen struct {
	module, prefix, typePrefix string
	types                      map[string]any
}

func (g *schemaGen) object(t reflect.Type) (map[string]any, []string) {
	props := map[string]any{}
	var required []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name := strings.Split(f.Tag.Get("json"), ",")[0]
		props[name] = g.typ(f.Type)
		if f.Tag.Get("schema") == "required" {
			required = append(required, name)
		}
	}
	sort.Strings(required)
	return props, required
}

func (g *schemaGen) typ(t reflect.Type) map[string]any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int64:
		return map[string]any{"type": "integer"}
	case reflect.Slice:
		return map[string]any{"type": "array", "items": g.typ(t.Elem())}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": g.typ(t.Elem())}
	case reflect.Struct:
		name := g.typePrefix + strings.TrimPrefix(t.Name(), g.prefix)
		token := fmt.Sprintf("%s:%s/%s:%s", pulumimodel.ProviderPackage, g.module, name, name)
		if _, ok := g.types[token]; !ok {
			g.types[token] = map[string]any{} // break cycles
			props, required := g.object(t)
			g.types[token] = map[string]any{"type": "object", "properties": props, "required": required}
		}
		return map[string]any{"$ref": "#/types/" + token}
	}
	panic("fakegcp: unsupported field type " + t.String())
}
