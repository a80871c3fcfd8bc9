// Package fakegcp is a test double of the pulumi-gcp provider plugin
// (version pulumimodel.ProviderVersion). It lets the real Pulumi engine
// run preview, up, update and destroy offline, and it behaves as the real
// provider does according to a hand-written description of the real
// resources (testdata/pulumi-gcp.json, see reference.go), never according
// to slurmspec's own types: Check refuses unknown fields, wrong types and
// missing required inputs and returns the checked inputs with
// "__defaults"; Diff replaces a resource for any change of a ForceNew
// field, also inside list elements (so a node pool's machine type, or
// adding, removing or reordering pools, replaces the whole cluster), and
// never asks for delete-before-replace itself; create, update and delete
// of a resource with long-running operations wait $FAKEGCP_DELAY (the
// real ones take up to 120 minutes). It serves a package schema built
// from the same description for Pulumi YAML.
//
// Every call is appended as one JSON line to the file named by $FAKEGCP_LOG
// (when set), so tests can assert what the provider received.
package fakegcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/provider"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"
)

// Environment of the double.
const (
	// EnvLog names the file calls are logged to.
	EnvLog = "FAKEGCP_LOG"
	// EnvDelay is how long a long-running operation (create, update,
	// delete of the cluster) takes, as a Go duration; default none.
	EnvDelay = "FAKEGCP_DELAY"
)

// Call is one logged provider call.
type Call struct {
	// Method is the RPC, or "CreateStarted"/"UpdateStarted"/"DeleteStarted"
	// when a long-running operation begins waiting.
	Method  string         `json:"method"`
	Type    string         `json:"type,omitempty"`
	Name    string         `json:"name,omitempty"`
	URN     string         `json:"urn,omitempty"`
	ID      string         `json:"id,omitempty"`
	Preview bool           `json:"preview,omitempty"`
	Inputs  map[string]any `json:"inputs,omitempty"`
	Olds    map[string]any `json:"olds,omitempty"`
	// Replaces and Diffs are Diff's answer (top-level inputs); Paths are
	// the changed paths, "!" marking those that force replacement.
	Replaces []string `json:"replaces,omitempty"`
	Diffs    []string `json:"diffs,omitempty"`
	Paths    []string `json:"paths,omitempty"`
	// Failures are Check's.
	Failures []string `json:"failures,omitempty"`
}

// Main serves the provider; it is the plugin binary's main function.
func Main() error {
	ref, err := LoadReference()
	if err != nil {
		return err
	}
	var delay time.Duration
	if d := os.Getenv(EnvDelay); d != "" {
		if delay, err = time.ParseDuration(d); err != nil {
			return fmt.Errorf("$%s: %w", EnvDelay, err)
		}
	}
	return provider.Main(ref.Package, func(*provider.HostClient) (pulumirpc.ResourceProviderServer, error) {
		return &server{log: os.Getenv(EnvLog), ref: ref, delay: delay, cancel: make(chan struct{}), cloud: cloud{dir: os.Getenv(EnvCloud)}}, nil
	})
}

type server struct {
	pulumirpc.UnimplementedResourceProviderServer
	log        string
	ref        *Reference
	delay      time.Duration
	mu         sync.Mutex
	cancel     chan struct{}
	cancelOnce sync.Once
	cloud      cloud
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

func (s *server) spec(typ string) (*ResourceSpec, error) {
	r := s.ref.Resources[typ]
	if r == nil {
		return nil, fmt.Errorf("pulumi-gcp %s has no resource type %s", s.ref.Version, typ)
	}
	return r, nil
}

func (s *server) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: s.ref.Version}, nil
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

// Check validates the inputs against the description and returns them
// with "__defaults" added, as the bridge does.
func (s *server) Check(_ context.Context, req *pulumirpc.CheckRequest) (*pulumirpc.CheckResponse, error) {
	spec, err := s.spec(req.GetType())
	if err != nil {
		return nil, err
	}
	news, err := plugin.UnmarshalProperties(req.GetNews(), marshal)
	if err != nil {
		return nil, err
	}
	fails := spec.CheckInputs(plain(news))
	var failures []*pulumirpc.CheckFailure
	for _, f := range fails {
		failures = append(failures, &pulumirpc.CheckFailure{Reason: f})
	}
	if len(fails) > 0 {
		s.record(Call{Method: "Check", Type: req.GetType(), URN: req.GetUrn(), Failures: fails})
	}
	checked, err := plugin.MarshalProperties(withDefaultsProps(spec.Inputs, news), marshal)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.CheckResponse{Inputs: checked, Failures: failures}, nil
}

// withDefaultsProps is WithDefaults on property values, keeping
// unknowns and secrets.
func withDefaultsProps(fields map[string]*Field, m resource.PropertyMap) resource.PropertyMap {
	out := resource.PropertyMap{}
	for k, v := range m {
		if f := fields[string(k)]; f != nil {
			v = defaultsProp(f, v)
		}
		out[k] = v
	}
	out[DefaultsKey] = resource.NewArrayProperty([]resource.PropertyValue{})
	return out
}

func defaultsProp(f *Field, v resource.PropertyValue) resource.PropertyValue {
	switch {
	case f.Type == "object" && v.IsObject():
		return resource.NewObjectProperty(withDefaultsProps(f.Properties, v.ObjectValue()))
	case f.Type == "array" && v.IsArray():
		var out []resource.PropertyValue
		for _, e := range v.ArrayValue() {
			out = append(out, defaultsProp(f.Items, e))
		}
		return resource.NewArrayProperty(out)
	}
	return v
}

// Diff plans the change as the bridged provider would (see DiffInputs);
// it never asks for delete-before-replace: the engine does that only when
// the program sets the deleteBeforeReplace option.
func (s *server) Diff(_ context.Context, req *pulumirpc.DiffRequest) (*pulumirpc.DiffResponse, error) {
	spec, err := s.spec(req.GetType())
	if err != nil {
		return nil, err
	}
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
	changes := spec.DiffInputs(plain(oldMap), plain(news))
	diffSet, replaceSet := map[string]bool{}, map[string]bool{}
	var paths []string
	for _, c := range changes {
		top := topKey(c.Path)
		diffSet[top] = true
		p := c.Path
		if c.Replaces {
			replaceSet[top] = true
			p = "!" + p
		}
		paths = append(paths, p)
	}
	diffs, replaces := sortedSet(diffSet), sortedSet(replaceSet)
	changesKind := pulumirpc.DiffResponse_DIFF_NONE
	if len(diffs) > 0 {
		changesKind = pulumirpc.DiffResponse_DIFF_SOME
	}
	s.record(Call{Method: "Diff", Type: req.GetType(), Name: req.GetName(), URN: req.GetUrn(), ID: req.GetId(), Inputs: plain(news), Olds: plain(oldMap), Diffs: diffs, Replaces: replaces, Paths: paths})
	return &pulumirpc.DiffResponse{Changes: changesKind, Diffs: diffs, Replaces: replaces, DeleteBeforeReplace: false}, nil
}

var reTop = regexp.MustCompile(`^[^.\[]+`)

func topKey(path string) string { return reTop.FindString(path) }

func sortedSet(m map[string]bool) []string {
	out := []string{}
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	if len(out) == 0 {
		return nil
	}
	return out
}

var reTemplate = regexp.MustCompile(`\{([A-Za-z]+)\}`)

// outputs are the inputs plus the outputs the description gives a value
// (ResourceSpec.Created), unknown in a preview.
func (s *server) outputs(typ string, in resource.PropertyMap, preview bool) (*structpb.Struct, error) {
	spec, err := s.spec(typ)
	if err != nil {
		return nil, err
	}
	out := in.Copy()
	_, outs := spec.Created(plain(in))
	for name := range spec.Outputs {
		v, ok := outs[name]
		if !ok {
			continue
		}
		if preview {
			out[resource.PropertyKey(name)] = resource.MakeComputed(resource.NewProperty(""))
		} else {
			out[resource.PropertyKey(name)] = resource.NewPropertyValue(v)
		}
	}
	return plugin.MarshalProperties(out, marshal)
}

// wait is a long-running operation: it waits the delay unless the engine
// cancels the call or the provider, or goes away (the plugin is then an
// orphan and exits).
func (s *server) wait(ctx context.Context, spec *ResourceSpec, c Call) error {
	if !spec.SlowOperations || s.delay <= 0 {
		return nil
	}
	c.Method += "Started"
	s.record(c)
	deadline := time.NewTimer(s.delay)
	defer deadline.Stop()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-deadline.C:
			return nil
		case <-ctx.Done():
			return fmt.Errorf("waiting for the operation on %s: %w (the operation goes on in Google Cloud)", c.Name, ctx.Err())
		case <-s.cancel:
			return fmt.Errorf("waiting for the operation on %s: cancelled (the operation goes on in Google Cloud)", c.Name)
		case <-tick.C:
			if os.Getppid() == 1 {
				os.Exit(1)
			}
		}
	}
}

func (s *server) Create(ctx context.Context, req *pulumirpc.CreateRequest) (*pulumirpc.CreateResponse, error) {
	spec, err := s.spec(req.GetType())
	if err != nil {
		return nil, err
	}
	in, err := plugin.UnmarshalProperties(req.GetProperties(), marshal)
	if err != nil {
		return nil, err
	}
	c := Call{Method: "Create", Type: req.GetType(), Name: nameOf(req.GetUrn()), URN: req.GetUrn(), Preview: req.GetPreview(), Inputs: plain(in)}
	rid := ""
	if !req.GetPreview() {
		var outs map[string]any
		rid, outs = spec.Created(plain(in))
		c.ID = rid
		// The API accepts the request: the resource exists from now on,
		// whatever happens to this call.
		if err := s.cloud.create(cloudResource{Type: req.GetType(), ID: rid, Inputs: plain(in), Outputs: outs}); err != nil {
			c.Method = "CreateFailed"
			c.Failures = []string{err.Error()}
			s.record(c)
			return nil, fmt.Errorf("creating %s: %w", c.Name, err)
		}
		if err := s.wait(ctx, spec, c); err != nil {
			return nil, err
		}
	}
	s.record(c)
	props, err := s.outputs(req.GetType(), in, req.GetPreview())
	if err != nil {
		return nil, err
	}
	return &pulumirpc.CreateResponse{Id: rid, Properties: props}, nil
}

func (s *server) Update(ctx context.Context, req *pulumirpc.UpdateRequest) (*pulumirpc.UpdateResponse, error) {
	spec, err := s.spec(req.GetType())
	if err != nil {
		return nil, err
	}
	news, err := plugin.UnmarshalProperties(req.GetNews(), marshal)
	if err != nil {
		return nil, err
	}
	olds, err := plugin.UnmarshalProperties(req.GetOldInputs(), marshal)
	if err != nil {
		return nil, err
	}
	c := Call{Method: "Update", Type: req.GetType(), Name: nameOf(req.GetUrn()), URN: req.GetUrn(), ID: req.GetId(), Preview: req.GetPreview(), Inputs: plain(news), Olds: plain(olds)}
	if !req.GetPreview() {
		_, outs := spec.Created(plain(news))
		if err := s.cloud.put(cloudResource{Type: req.GetType(), ID: req.GetId(), Inputs: plain(news), Outputs: outs}); err != nil {
			return nil, err
		}
		if err := s.wait(ctx, spec, c); err != nil {
			return nil, err
		}
	}
	s.record(c)
	props, err := s.outputs(req.GetType(), news, req.GetPreview())
	if err != nil {
		return nil, err
	}
	return &pulumirpc.UpdateResponse{Properties: props}, nil
}

func (s *server) Delete(ctx context.Context, req *pulumirpc.DeleteRequest) (*emptypb.Empty, error) {
	spec, err := s.spec(req.GetType())
	if err != nil {
		return nil, err
	}
	c := Call{Method: "Delete", Type: req.GetType(), Name: nameOf(req.GetUrn()), URN: req.GetUrn(), ID: req.GetId()}
	props, err := plugin.UnmarshalProperties(req.GetProperties(), marshal)
	if err != nil {
		return nil, err
	}
	if v := props["deletionPolicy"]; v.IsString() && v.StringValue() == "PREVENT" {
		c.Method = "DeleteRefused"
		s.record(c)
		return nil, fmt.Errorf("cannot destroy %s: deletionPolicy is PREVENT (set it to DELETE and apply first)", req.GetId())
	}
	if err := s.cloud.delete(req.GetId()); err != nil {
		return nil, err
	}
	if err := s.wait(ctx, spec, c); err != nil {
		return nil, err
	}
	s.record(c)
	return &emptypb.Empty{}, nil
}

// nameOf is the logical name at the end of a URN.
func nameOf(urn string) string {
	if i := strings.LastIndex(urn, "::"); i >= 0 {
		return urn[i+2:]
	}
	return urn
}

// Read returns the resource as the cloud has it; without a cloud
// directory, the state the engine sent.
func (s *server) Read(_ context.Context, req *pulumirpc.ReadRequest) (*pulumirpc.ReadResponse, error) {
	typ := resource.URN(req.GetUrn()).Type().String()
	s.record(Call{Method: "Read", Type: typ, Name: nameOf(req.GetUrn()), URN: req.GetUrn(), ID: req.GetId()})
	if s.cloud.dir == "" {
		return &pulumirpc.ReadResponse{Id: req.GetId(), Properties: req.GetProperties(), Inputs: req.GetInputs()}, nil
	}
	r, err := s.cloud.get(req.GetId())
	if err != nil {
		return nil, err
	}
	if r == nil {
		return &pulumirpc.ReadResponse{}, nil // gone
	}
	spec, err := s.spec(typ)
	if err != nil {
		return nil, err
	}
	props, err := plugin.MarshalProperties(resource.NewPropertyMapFromMap(r.Outputs), marshal)
	if err != nil {
		return nil, err
	}
	inputs, err := plugin.MarshalProperties(resource.NewPropertyMapFromMap(spec.WithDefaults(r.Inputs)), marshal)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.ReadResponse{Id: r.ID, Properties: props, Inputs: inputs}, nil
}

func (s *server) Cancel(context.Context, *emptypb.Empty) (*emptypb.Empty, error) {
	s.cancelOnce.Do(func() { close(s.cancel) })
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
		return unknown
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
