package pulumi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	sdk "github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/slurmspec/slurmspec/deploy/artifacts"
	"github.com/slurmspec/slurmspec/deploy/pulumi/pulumitest"
	"github.com/slurmspec/slurmspec/deploy/pulumi/pulumitest/fakegcp"
	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/render"
	"github.com/slurmspec/slurmspec/render/pulumimodel"
)

// registration is what the mocks received for one resource.
type registration struct {
	Type                string         `json:"type"`
	Name                string         `json:"name"`
	Version             string         `json:"version"`
	Deps                []string       `json:"dependsOn,omitempty"`
	DeleteBeforeReplace bool           `json:"deleteBeforeReplace,omitempty"`
	Protect             bool           `json:"protect,omitempty"`
	Inputs              map[string]any `json:"inputs"`
}

// recorder is the mock resource monitor: it records every registration
// and answers with the outputs the provider would: the inputs, the id and
// the resource's name.
type recorder struct {
	mu   sync.Mutex
	regs []registration
}

func (r *recorder) NewResource(args sdk.MockResourceArgs) (string, resource.PropertyMap, error) {
	inputs := args.Inputs.Mappable()
	reg := registration{Type: args.TypeToken, Name: args.Name, Inputs: inputs}
	if rpc := args.RegisterRPC; rpc != nil {
		reg.Version = rpc.GetVersion()
		reg.DeleteBeforeReplace = rpc.GetDeleteBeforeReplace()
		reg.Protect = rpc.GetProtect()
		for _, d := range rpc.GetDependencies() {
			reg.Deps = append(reg.Deps, d[strings.LastIndex(d, "::")+2:])
		}
		sort.Strings(reg.Deps)
	}
	r.mu.Lock()
	r.regs = append(r.regs, reg)
	r.mu.Unlock()
	// Ids and outputs as the provider description says the real
	// provider forms them.
	ref, err := fakegcp.LoadReference()
	if err != nil {
		return "", nil, err
	}
	spec := ref.Resources[args.TypeToken]
	if spec == nil {
		return "", nil, fmt.Errorf("pulumi-gcp has no resource type %s", args.TypeToken)
	}
	id, outs := spec.Created(inputs)
	return id, resource.NewPropertyMapFromMap(outs), nil
}

func (r *recorder) Call(args sdk.MockCallArgs) (resource.PropertyMap, error) {
	return nil, fmt.Errorf("unexpected call %s", args.Token)
}

// run runs the Go program of m with mocks and returns what the mocks
// received and the stack outputs.
func run(t *testing.T, m *pulumimodel.Model) ([]registration, map[string]any) {
	t.Helper()
	rec := &recorder{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	outputs := map[string]any{}
	err := sdk.RunErr(func(ctx *sdk.Context) error {
		exports, err := register(ctx, m)
		if err != nil {
			return err
		}
		for name, in := range exports {
			wg.Add(1)
			sdk.All(in).ApplyT(func(vs []any) (any, error) {
				defer wg.Done()
				mu.Lock()
				defer mu.Unlock()
				outputs[name] = vs[0]
				return nil, nil
			})
		}
		return nil
	}, sdk.WithMocks(m.Project, "test", rec))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("timed out waiting for the stack outputs")
	}
	// The SDK registers independent resources concurrently: order them
	// as the model lists them.
	byName := map[string]registration{}
	for _, r := range rec.regs {
		if r.Type != "pulumi:pulumi:Stack" {
			byName[r.Name] = r
		}
	}
	var regs []registration
	for _, r := range m.Resources {
		if reg, ok := byName[r.Name]; ok {
			regs = append(regs, reg)
		}
	}
	if len(regs) != len(byName) {
		t.Fatalf("registered %d resources, the model has %d", len(byName), len(m.Resources))
	}
	return regs, outputs
}

type example struct {
	name   string
	file   string
	opt    pulumimodel.Options
	golden string
}

var examples = []example{
	{name: "seed", file: "../../examples/seed.jsonc", golden: "seed.json"},
	{name: "a4-training", file: "../../examples/a4-training.yaml", golden: "a4-training.json"},
	{name: "a4-training-filestore", file: "../../examples/a4-training.yaml", golden: "a4-training-filestore.json",
		opt: pulumimodel.Options{CreateHomeFilestore: true, FilestoreTier: "ZONAL", FilestoreCapacityGb: 2048, FilestoreShare: "homes"}},
	{name: "a4-training-foundation", file: "../../examples/a4-training.yaml", golden: "a4-training-foundation.json",
		opt: pulumimodel.Options{WithFoundation: true, Protect: true}},
}

func loadModel(t *testing.T, file string, opt pulumimodel.Options) (*pulumimodel.Model, *pipeline.Result) {
	t.Helper()
	p, err := pipeline.New(pipeline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.Analyse(pipeline.File(file, nil), pipeline.AnalyseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Failed() {
		t.Fatalf("%s does not lint:\n%v", file, r.Diags)
	}
	m, err := artifacts.Model(r.Cluster, opt)
	if err != nil {
		t.Fatal(err)
	}
	return m, r
}

// TestProgramGolden asserts every input property of every resource, the
// type tokens, the pinned provider version, the dependencies and the
// stack outputs, against reviewed golden files (SLURMSPEC_UPDATE=1
// rewrites them).
func TestProgramGolden(t *testing.T) {
	for _, ex := range examples {
		t.Run(ex.name, func(t *testing.T) {
			m, _ := loadModel(t, ex.file, ex.opt)
			regs, outputs := run(t, m)
			got, err := json.MarshalIndent(map[string]any{"resources": regs, "outputs": outputs}, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			path := filepath.Join("testdata", ex.golden)
			if os.Getenv("SLURMSPEC_UPDATE") == "1" {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (SLURMSPEC_UPDATE=1 creates it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("registrations differ from %s (SLURMSPEC_UPDATE=1 rewrites it):\n%s", path, got)
			}
		})
	}
}

// TestProgramSendsCanonicalBody checks the cluster's inputs against
// cluster.json, derived independently: the canonical body plus the
// provider's identity inputs, nothing more, nothing less.
func TestProgramSendsCanonicalBody(t *testing.T) {
	for _, ex := range examples {
		t.Run(ex.name, func(t *testing.T) {
			m, r := loadModel(t, ex.file, ex.opt)
			regs, outputs := run(t, m)
			body, err := render.CanonicalBody(r.Cluster)
			if err != nil {
				t.Fatal(err)
			}
			var want map[string]any
			if err := json.Unmarshal(body, &want); err != nil {
				t.Fatal(err)
			}
			want = pulumimodel.ToPulumi(want)
			want["project"], want["region"], want["modelDevelopmentClusterId"] = r.Cluster.Project.Value, r.Cluster.Region.Value, r.Cluster.ID.Value
			want["deletionPolicy"] = pulumimodel.DeletionPolicyDelete
			if ex.opt.Protect {
				want["deletionPolicy"] = pulumimodel.DeletionPolicyPrevent
			}
			cluster := find(t, regs, pulumimodel.ClusterType)
			if !cluster.DeleteBeforeReplace || cluster.Protect != ex.opt.Protect {
				t.Errorf("cluster deleteBeforeReplace %v protect %v, want true %v", cluster.DeleteBeforeReplace, cluster.Protect, ex.opt.Protect)
			}
			if !reflect.DeepEqual(cluster.Inputs, want) {
				t.Errorf("cluster inputs differ from cluster.json:\ngot  %v\nwant %v", cluster.Inputs, want)
			}
			if cluster.Name != pulumimodel.ClusterResource || cluster.Version != pulumimodel.ProviderVersion {
				t.Errorf("cluster registered as %q version %q, want %q version %q", cluster.Name, cluster.Version, pulumimodel.ClusterResource, pulumimodel.ProviderVersion)
			}
			slurm := cluster.Inputs["orchestratorSpec"].(map[string]any)["slurmSpec"].(map[string]any)
			if slurm["defaultPartitionId"] != r.Cluster.Slurm.DefaultPartitionID.Value || slurm["defaultPartitionId"] == "" {
				t.Errorf("defaultPartitionId = %v, want it written out as %q", slurm["defaultPartitionId"], r.Cluster.Slurm.DefaultPartitionID.Value)
			}
			var parts []any
			for _, p := range r.Cluster.Slurm.Partitions {
				parts = append(parts, p.ID.Value)
			}
			wantOut := map[string]any{
				"clusterName":          m.ClusterName(),
				"loginNodePool":        r.Cluster.Slurm.LoginNodePoolID.Value,
				"partitions":           parts,
				"defaultPartition":     r.Cluster.Slurm.DefaultPartitionID.Value,
				"homeDirectoryStorage": r.Cluster.Slurm.HomeDirectoryStorage.Value,
			}
			if !reflect.DeepEqual(outputs, wantOut) {
				t.Errorf("outputs = %v, want %v", outputs, wantOut)
			}
			switch {
			case ex.opt.WithFoundation:
				// Checked in TestFoundation.
			case ex.opt.CreateHomeFilestore:
				fs := find(t, regs, pulumimodel.FilestoreType)
				if fs.Version != pulumimodel.ProviderVersion || fs.Name != pulumimodel.FilestoreResource {
					t.Errorf("filestore registered as %q version %q", fs.Name, fs.Version)
				}
				if !reflect.DeepEqual(cluster.Deps, []string{pulumimodel.FilestoreResource}) {
					t.Errorf("cluster depends on %v, want the Filestore instance", cluster.Deps)
				}
			case len(regs) != 1:
				t.Errorf("registered %d resources, want the cluster only", len(regs))
			}
		})
	}
}

// TestGoAndYAMLSendIdenticalInputs evaluates the rendered Pulumi YAML
// project as plain data, resolving its references with the outputs the
// mocks gave, and compares it with what the Go program registered:
// resources, order, type tokens, versions, every input, and the outputs.
func TestGoAndYAMLSendIdenticalInputs(t *testing.T) {
	for _, ex := range examples {
		t.Run(ex.name, func(t *testing.T) {
			m, r := loadModel(t, ex.file, ex.opt)
			regs, outputs := run(t, m)
			set, err := render.PulumiProject(r.Cluster, ex.opt)
			if err != nil {
				t.Fatal(err)
			}
			a := set.Get(render.PulumiYAMLPath)
			if a == nil {
				t.Fatalf("no %s rendered", render.PulumiYAMLPath)
			}
			byName := map[string]registration{}
			for _, reg := range regs {
				byName[reg.Name] = reg
			}
			ref, err := fakegcp.LoadReference()
			if err != nil {
				t.Fatal(err)
			}
			p, err := pulumitest.EvalYAML(a.Data, func(res, prop string) (any, error) {
				reg, ok := byName[res]
				if !ok {
					return nil, fmt.Errorf("unknown resource %s", res)
				}
				id, outs := ref.Resources[reg.Type].Created(reg.Inputs)
				if prop == "id" {
					return id, nil
				}
				if v, ok := outs[prop]; ok {
					return v, nil
				}
				return nil, fmt.Errorf("unknown output %s.%s", res, prop)
			})
			if err != nil {
				t.Fatal(err)
			}
			if p.Runtime != "yaml" || p.Name != m.Project {
				t.Errorf("project %q runtime %q, want %q runtime yaml", p.Name, p.Runtime, m.Project)
			}
			if len(p.Resources) != len(regs) {
				t.Fatalf("YAML has %d resources, Go registered %d", len(p.Resources), len(regs))
			}
			for i, yr := range p.Resources {
				gr := regs[i]
				if yr.Name != gr.Name || yr.Type != gr.Type || yr.Version != gr.Version {
					t.Errorf("resource %d: YAML %s %s v%s, Go %s %s v%s", i, yr.Name, yr.Type, yr.Version, gr.Name, gr.Type, gr.Version)
				}
				if yr.DeleteBeforeReplace != gr.DeleteBeforeReplace || yr.Protect != gr.Protect {
					t.Errorf("resource %s: YAML deleteBeforeReplace %v protect %v, Go %v %v", yr.Name, yr.DeleteBeforeReplace, yr.Protect, gr.DeleteBeforeReplace, gr.Protect)
				}
				// The Go SDK adds the resources a resource references to
				// its dependencies; YAML states only the explicit ones.
				for _, d := range yr.DependsOn {
					if !slices.Contains(gr.Deps, d) {
						t.Errorf("resource %s: YAML depends on %s, Go on %v", yr.Name, d, gr.Deps)
					}
				}
				if !reflect.DeepEqual(numbers(yr.Properties), gr.Inputs) {
					t.Errorf("resource %s: YAML properties differ from the Go program's inputs:\nYAML %v\nGo   %v", yr.Name, yr.Properties, gr.Inputs)
				}
			}
			if !reflect.DeepEqual(numbers(p.Outputs), outputs) {
				t.Errorf("outputs: YAML %v, Go %v", p.Outputs, outputs)
			}
		})
	}
}

// numbers turns ints into float64, as the engine delivers numbers.
func numbers(v any) any {
	switch v := v.(type) {
	case int:
		return float64(v)
	case int64:
		return float64(v)
	case map[string]any:
		out := map[string]any{}
		for k, e := range v {
			out[k] = numbers(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = numbers(e)
		}
		return out
	}
	return v
}

func find(t *testing.T, regs []registration, typ string) registration {
	t.Helper()
	for _, r := range regs {
		if r.Type == typ {
			return r
		}
	}
	t.Fatalf("no %s registered", typ)
	return registration{}
}

// TestFoundation: --with-foundation registers the network, firewall
// rules, NAT (the login pool alone has public IPs), APIs and the home
// Filestore, every resource's inputs pass the provider description's
// check, and the cluster waits for the firewall rules, the NAT and the
// APIs.
func TestFoundation(t *testing.T) {
	m, _ := loadModel(t, "../../examples/a4-training.yaml", pulumimodel.Options{WithFoundation: true})
	regs, _ := run(t, m)
	ref, err := fakegcp.LoadReference()
	if err != nil {
		t.Fatal(err)
	}
	byType := map[string]int{}
	for _, r := range regs {
		byType[r.Type]++
		spec := ref.Resources[r.Type]
		if spec == nil {
			t.Errorf("%s: pulumi-gcp has no type %s", r.Name, r.Type)
			continue
		}
		for _, f := range spec.CheckInputs(r.Inputs) {
			t.Errorf("%s (%s): %s", r.Name, r.Type, f)
		}
	}
	want := map[string]int{
		pulumimodel.ServiceType: 5, pulumimodel.NetworkType: 1, pulumimodel.SubnetworkType: 1, pulumimodel.FirewallType: 2,
		pulumimodel.RouterType: 1, pulumimodel.RouterNatType: 1, pulumimodel.FilestoreType: 1, pulumimodel.ClusterType: 1,
	}
	if !reflect.DeepEqual(byType, want) {
		t.Errorf("registered %v, want %v", byType, want)
	}
	cluster := find(t, regs, pulumimodel.ClusterType)
	for _, d := range []string{"firewallInternal", "firewallIapSsh", "nat", "api-compute", pulumimodel.NetworkResource, pulumimodel.SubnetworkResource, pulumimodel.FilestoreResource} {
		if !slices.Contains(cluster.Deps, d) {
			t.Errorf("the cluster does not depend on %s: %v", d, cluster.Deps)
		}
	}
	sub := find(t, regs, pulumimodel.SubnetworkType)
	if sub.Inputs["privateIpGoogleAccess"] != true {
		t.Errorf("subnetwork without Private Google Access: %v", sub.Inputs)
	}
}
