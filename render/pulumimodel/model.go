// Package pulumimodel is slurmspec's resource model of a deployment: the Pulumi
// resources a cluster spec becomes, their inputs as plain data, and the
// stack outputs. It is derived from the IR and the canonical request body
// (the same bytes as cluster.json), and it feeds both the Go Pulumi
// program (package deploy/pulumi) and the rendered Pulumi YAML project
// (render.PulumiYAML), so the two can never send different inputs.
//
// The package links no Pulumi SDK: slurmspec itself renders the YAML
// project, and it must start fast.
package pulumimodel

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/slurmspec/slurmspec/compiler/ir"
)

// Resource types and the provider the model is written against.
const (
	// ClusterType is the type token of the cluster resource.
	ClusterType = "gcp:vertex/aiModelDevelopmentCluster:AiModelDevelopmentCluster"
	// FilestoreType is the type token of a Filestore instance.
	FilestoreType = "gcp:filestore/instance:Instance"
	// ProviderPackage is the provider plugin's package name.
	ProviderPackage = "gcp"
	// ProviderVersion is the pinned pulumi-gcp provider version (the
	// first major version with the cluster resource).
	ProviderVersion = "10.5.0"
)

// Logical names of the resources in a stack.
const (
	ClusterResource   = "cluster"
	FilestoreResource = "homeFilestore"
)

// Ref is a reference to an output property of another resource of the
// model, such as the id of the home Filestore instance.
type Ref struct {
	Resource string // logical name
	Property string // "id" or an output property
}

func (r Ref) String() string { return r.Resource + "." + r.Property }

// Resource is one resource to register.
type Resource struct {
	// Name is the logical name, unique in the stack.
	Name string
	// Type is the type token.
	Type string
	// Inputs are plain data: string, bool, int64, float64, []any,
	// map[string]any, and Ref where a value is another resource's output.
	// Keys of maps are the provider's input names.
	Inputs map[string]any
	// Options are the resource options.
	Options ResourceOptions
}

// ResourceOptions are the Pulumi resource options slurmspec sets.
type ResourceOptions struct {
	// DependsOn are logical names of resources this one waits for
	// besides those it references.
	DependsOn []string
	// DeleteBeforeReplace: a replacement deletes the old resource first.
	// The cluster's id is fixed, so a replacement created first would
	// collide with it (ALREADY_EXISTS); the provider does not ask for it.
	DeleteBeforeReplace bool
	// Protect: Pulumi refuses to delete the resource (also by
	// replacement) until the option is removed.
	Protect bool
	// ImportID, when set, adopts the existing resource with that id
	// instead of creating it (Pulumi's import option): how a create that
	// went on in Google Cloud after an interrupted up joins the stack.
	ImportID string
}

// Output is one stack output: a plain value or a Ref.
type Output struct {
	Name  string
	Value any
}

// Model is a whole deployment.
type Model struct {
	// Project is the Pulumi project name: slurmspec-ID.
	Project string
	// Description describes the project.
	Description string
	// GCPProject, Region and ClusterID identify the cluster.
	GCPProject, Region, ClusterID string
	// ProviderVersion is the pinned provider plugin version.
	ProviderVersion string
	// Resources are in registration order: a resource comes after those
	// it references.
	Resources []Resource
	// Outputs are the stack outputs, in order.
	Outputs []Output
	// IDs are the ids that resources of the model get, by logical name,
	// where they are known in advance (the cluster, the home Filestore,
	// a created network and subnetwork): an interrupted create is
	// imported with them.
	IDs map[string]string
}

// Resource returns the resource with the given logical name, or nil.
func (m *Model) Resource(name string) *Resource {
	for i := range m.Resources {
		if m.Resources[i].Name == name {
			return &m.Resources[i]
		}
	}
	return nil
}

// ClusterName is the cluster's resource name,
// projects/P/locations/R/modelDevelopmentClusters/ID.
func (m *Model) ClusterName() string {
	return ClusterName(m.GCPProject, m.Region, m.ClusterID)
}

// ClusterName formats a cluster's resource name.
func ClusterName(project, region, id string) string {
	return fmt.Sprintf("projects/%s/locations/%s/modelDevelopmentClusters/%s", project, region, id)
}

// Options are the deployment choices that are not part of the API's
// request body: slurmspec-only extensions, given as flags (RegisterFlags).
type Options struct {
	// CreateHomeFilestore creates the Filestore instance that
	// slurmSpec.homeDirectoryStorage names (project, location and
	// instance id are taken from that name) and wires its id into
	// homeDirectoryStorage. When false, the existing instance is referenced
	// by name.
	CreateHomeFilestore bool
	// FilestoreTier is the instance's service tier (default BASIC_SSD).
	FilestoreTier string
	// FilestoreCapacityGb is the size of its file share in GiB (default:
	// the tier's minimum).
	FilestoreCapacityGb int64
	// FilestoreShare is the file share's name (default "home").
	FilestoreShare string

	// CreateNetwork creates network.network and network.subnetwork (with
	// Private Google Access), a firewall rule for traffic inside the
	// subnetwork, one for SSH through Identity-Aware Proxy, and Cloud
	// Router + NAT when a node pool has no public IPs.
	CreateNetwork bool
	// SubnetCIDR is the created subnetwork's range (default
	// DefaultSubnetCIDR).
	SubnetCIDR string
	// EnableAPIs enables the services a cluster needs.
	EnableAPIs bool
	// CreateServiceAccount creates runtimeSpec.serviceAccount and grants
	// it its roles.
	CreateServiceAccount bool
	// WithFoundation turns on every layer beneath the cluster:
	// CreateNetwork, EnableAPIs, CreateHomeFilestore, and
	// CreateServiceAccount when the spec names runtimeSpec.serviceAccount.
	WithFoundation bool
	// Protect protects the cluster: Pulumi's protect option and the
	// provider's deletionPolicy PREVENT, so neither destroy nor a
	// replacement can delete it. Without it the cluster is sent
	// deletionPolicy DELETE.
	Protect bool
}

// The provider's deletionPolicy values slurmspec sends (a client-side input
// of the provider's cluster resource; ABANDON is never sent).
const (
	DeletionPolicyDelete  = "DELETE"
	DeletionPolicyPrevent = "PREVENT"
)

// Filestore defaults and limits. Minimum capacities are the Filestore
// service tiers' minimum share sizes in GiB.
const (
	DefaultFilestoreTier  = "BASIC_SSD"
	DefaultFilestoreShare = "home"
)

var filestoreMinGb = map[string]int64{
	"BASIC_HDD":      1024,
	"BASIC_SSD":      2560,
	"HIGH_SCALE_SSD": 10240,
	"ZONAL":          1024,
	"REGIONAL":       1024,
	"ENTERPRISE":     1024,
}

// regionalTiers are tiers whose instances live in a region, not a zone.
var regionalTiers = map[string]bool{"REGIONAL": true, "ENTERPRISE": true}

// FilestoreTiers lists the tiers Options accepts.
func FilestoreTiers() []string {
	var out []string
	for t := range filestoreMinGb {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

var (
	reZone     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z]+-[a-z]+[0-9]{1,2}-[a-z]$`) })
	reRegion   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z]+-[a-z]+[0-9]{1,2}$`) })
	reShare    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z0-9_]{0,15}$`) })
	reInstance = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^projects/([^/]+)/locations/([^/]+)/instances/([^/]+)$`)
	})
	reNetwork = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^projects/([^/]+)/global/networks/([^/]+)$`) })
)

// ErrIdentity is returned by New when the cluster's project, region or id
// is unknown.
var ErrIdentity = errors.New("the cluster's project, region and id are needed to deploy it: give the spec a name (projects/P/locations/R/modelDevelopmentClusters/ID) or pass --project, --region and --cluster-id")

// identity fields the provider adds to the request body.
var identityInputs = []string{"project", "region", "modelDevelopmentClusterId"}

// New builds the model of a cluster. body is the canonical request body,
// render.CanonicalBody(c) (passed in so that this package does not depend
// on package render, which renders the YAML project from the model).
func New(c *ir.Cluster, body []byte, opt Options) (*Model, error) {
	if c.Project.Value == "" || c.Region.Value == "" || c.ID.Value == "" {
		return nil, ErrIdentity
	}
	inputs, err := decodeBody(body)
	if err != nil {
		return nil, err
	}
	inputs = ToPulumi(inputs)
	inputs["project"] = c.Project.Value
	inputs["region"] = c.Region.Value
	inputs["modelDevelopmentClusterId"] = c.ID.Value
	if err := checkArgs(inputs, &ClusterArgs{}); err != nil {
		return nil, fmt.Errorf("the request body does not match the provider's inputs: %w", err)
	}
	m := &Model{
		Project:         "slurmspec-" + c.ID.Value,
		GCPProject:      c.Project.Value,
		Region:          c.Region.Value,
		ClusterID:       c.ID.Value,
		ProviderVersion: ProviderVersion,
	}
	// The description names no file, so that equivalent specs (YAML, JSON,
	// CUE) render identical projects.
	m.Description = "Slurm cluster " + m.ClusterName() + " (rendered by slurmspec)"
	if opt.WithFoundation {
		opt.CreateNetwork, opt.EnableAPIs, opt.CreateHomeFilestore = true, true, true
		opt.CreateServiceAccount = opt.CreateServiceAccount || str(inputs, "runtimeSpec", "serviceAccount") != ""
	}
	f, err := buildFoundation(c, inputs, opt)
	if err != nil {
		return nil, err
	}
	m.Resources = append(m.Resources, f.resources...)
	m.IDs = map[string]string{ClusterResource: m.ClusterName()}
	if f.network != nil {
		m.IDs[NetworkResource] = str(inputs, "network", "network")
		m.IDs[SubnetworkResource] = str(inputs, "network", "subnetwork")
		inputs["network"] = map[string]any{"network": f.network, "subnetwork": f.subnetwork}
	}
	if f.serviceAccount != nil {
		inputs["runtimeSpec"] = map[string]any{"serviceAccount": f.serviceAccount}
	}
	home := any(c.Slurm.HomeDirectoryStorage.Value)
	if opt.CreateHomeFilestore {
		fs, err := filestore(c, opt, f.networkName)
		if err != nil {
			return nil, err
		}
		fs.Options.DependsOn = append(fs.Options.DependsOn, f.services...)
		m.Resources = append(m.Resources, fs)
		m.IDs[FilestoreResource] = c.Slurm.HomeDirectoryStorage.Value
		home = Ref{Resource: FilestoreResource, Property: "id"}
		slurm := inputs["orchestratorSpec"].(map[string]any)["slurmSpec"].(map[string]any)
		slurm["homeDirectoryStorage"] = home
	} else if opt.FilestoreTier != "" || opt.FilestoreCapacityGb != 0 || opt.FilestoreShare != "" {
		return nil, fmt.Errorf("--filestore-tier, --filestore-capacity-gb and --filestore-share need --create-home-filestore")
	}
	cluster := Resource{Name: ClusterResource, Type: ClusterType, Inputs: inputs,
		Options: ResourceOptions{DeleteBeforeReplace: true, DependsOn: append(append([]string{}, f.services...), f.clusterDeps...)}}
	// deletionPolicy is sent always, not only with --protect: an input left
	// out keeps the value the state holds, so PREVENT would outlive the
	// flag and refuse the destroy it was dropped for.
	inputs["deletionPolicy"] = DeletionPolicyDelete
	if opt.Protect {
		cluster.Options.Protect = true
		inputs["deletionPolicy"] = DeletionPolicyPrevent
	}
	m.Resources = append(m.Resources, cluster)

	var parts []any
	for _, p := range c.Slurm.Partitions {
		parts = append(parts, p.ID.Value)
	}
	m.Outputs = []Output{
		{Name: "clusterName", Value: Ref{Resource: ClusterResource, Property: "name"}},
		{Name: "loginNodePool", Value: c.Slurm.LoginNodePoolID.Value},
		{Name: "partitions", Value: parts},
		{Name: "defaultPartition", Value: c.Slurm.DefaultPartitionID.Value},
		{Name: "homeDirectoryStorage", Value: home},
	}
	return m, nil
}

// filestore is the home Filestore instance's resource.
// network, when not nil, is the created network's name (a Ref).
func filestore(c *ir.Cluster, opt Options, createdNetwork any) (Resource, error) {
	tier := opt.FilestoreTier
	if tier == "" {
		tier = DefaultFilestoreTier
	}
	min, ok := filestoreMinGb[tier]
	if !ok {
		return Resource{}, fmt.Errorf("--filestore-tier %q: want one of %s", tier, strings.Join(FilestoreTiers(), ", "))
	}
	capacity := opt.FilestoreCapacityGb
	if capacity == 0 {
		capacity = min
	}
	if capacity < min {
		return Resource{}, fmt.Errorf("--filestore-capacity-gb %d: the %s tier needs at least %d GiB", capacity, tier, min)
	}
	share := opt.FilestoreShare
	if share == "" {
		share = DefaultFilestoreShare
	}
	if !reShare().MatchString(share) {
		return Resource{}, fmt.Errorf("--filestore-share %q: a file share name is 1-16 lowercase letters, digits or _, starting with a letter", share)
	}
	name := c.Slurm.HomeDirectoryStorage.Value
	mm := reInstance().FindStringSubmatch(name)
	if mm == nil {
		return Resource{}, fmt.Errorf("homeDirectoryStorage %q is not projects/P/locations/L/instances/NAME", name)
	}
	project, location, instance := mm[1], mm[2], mm[3]
	switch {
	case regionalTiers[tier] && !reRegion().MatchString(location):
		return Resource{}, fmt.Errorf("--create-home-filestore: a %s instance lives in a region, but homeDirectoryStorage %q names location %q", tier, name, location)
	case !regionalTiers[tier] && !reZone().MatchString(location):
		return Resource{}, fmt.Errorf("--create-home-filestore: a %s instance lives in a zone, but homeDirectoryStorage %q names location %q", tier, name, location)
	}
	for _, p := range c.NodePools {
		z := p.Zone.Value
		if z == "" {
			continue
		}
		if regionalTiers[tier] && !strings.HasPrefix(z, location+"-") || !regionalTiers[tier] && z != location {
			return Resource{}, fmt.Errorf("--create-home-filestore: the instance would be in %s but node pool %q is in zone %s: put both in the same zone", location, p.ID.Value, z)
		}
	}
	if c.Network.Value == "" {
		return Resource{}, fmt.Errorf("--create-home-filestore: the spec has no network.network to connect the instance to")
	}
	network := any(c.Network.Value)
	if nm := reNetwork().FindStringSubmatch(c.Network.Value); nm != nil && nm[1] == project {
		network = nm[2] // same project: Filestore takes the network's name
		if createdNetwork != nil {
			network = createdNetwork
		}
	}
	return Resource{
		Name: FilestoreResource,
		Type: FilestoreType,
		Inputs: map[string]any{
			"project":  project,
			"location": location,
			"name":     instance,
			"tier":     tier,
			"fileShares": map[string]any{
				"name":       share,
				"capacityGb": capacity,
			},
			"networks": []any{map[string]any{
				"network": network,
				"modes":   []any{"MODE_IPV4"},
			}},
		},
	}, nil
}

// decodeBody reads a JSON object into plain data with int64 integers.
func decodeBody(body []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("reading the request body: %w", err)
	}
	obj, ok := Plain(v).(map[string]any)
	if !ok {
		return nil, fmt.Errorf("the request body is not a JSON object")
	}
	return obj, nil
}

// Plain normalises decoded JSON: json.Number becomes int64 when it is an
// integer, else float64; float64 values that are integers become int64.
// Maps and lists are copied.
func Plain(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = Plain(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = Plain(e)
		}
		return out
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return i
		}
		f, _ := v.Float64()
		return f
	case float64:
		if v == float64(int64(v)) {
			return int64(v)
		}
		return v
	case int:
		return int64(v)
	}
	return v
}

// checkArgs decodes plain inputs into a typed args struct, rejecting
// unknown fields and wrong types.
func checkArgs(inputs map[string]any, into any) error {
	data, err := json.Marshal(inputs)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(into)
}

// Resolve returns a deep copy of v with every Ref replaced by ref(r).
func Resolve(v any, ref func(Ref) any) any {
	switch v := v.(type) {
	case Ref:
		return ref(v)
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = Resolve(e, ref)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = Resolve(e, ref)
		}
		return out
	}
	return v
}

// SpecFromInputs turns the inputs a cluster resource was deployed with
// (as recorded in a stack's state) back into a spec: the request body with
// the cluster's name instead of the provider's identity inputs, API names
// instead of the provider's (FromPulumi), and no client-side inputs
// (deletionPolicy). It is how the deploy tool reconstructs the deployed
// side of an update's impact.
func SpecFromInputs(inputs map[string]any) ([]byte, error) {
	spec := FromPulumi(inputs)
	delete(spec, "deletionPolicy")
	var id [3]string
	for i, k := range identityInputs {
		s, _ := spec[k].(string)
		if s == "" {
			return nil, fmt.Errorf("the deployed inputs have no %s", k)
		}
		id[i] = s
		delete(spec, k)
	}
	spec["name"] = ClusterName(id[0], id[1], id[2])
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(spec); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
