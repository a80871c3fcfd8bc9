package driver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/auto/optrefresh"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"

	deploypulumi "github.com/slurmspec/slurmspec/deploy/pulumi"
	"github.com/slurmspec/slurmspec/render/pulumimodel"
)

// Pending is an operation the stack's state records as under way: the
// pulumi process that ran it was stopped before it finished.
type Pending struct {
	Name, Type string
	// Op is creating, updating, deleting or reading.
	Op  string
	URN string
}

// Pending lists the operations the stack's state records as under way.
func (s *Stack) Pending(ctx context.Context) ([]Pending, error) {
	dep, err := s.stack.Export(ctx)
	if err != nil {
		return nil, fmt.Errorf("exporting stack %s: %w", s.cfg.Stack, err)
	}
	if len(dep.Deployment) == 0 {
		return nil, nil
	}
	var d apitype.DeploymentV3
	if err := json.Unmarshal(dep.Deployment, &d); err != nil {
		return nil, fmt.Errorf("reading stack %s's state: %w", s.cfg.Stack, err)
	}
	var out []Pending
	for _, op := range d.PendingOperations {
		urn := string(op.Resource.URN)
		out = append(out, Pending{Name: urn[strings.LastIndex(urn, "::")+2:], Type: string(op.Resource.Type), Op: string(op.Type), URN: urn})
	}
	return out, nil
}

// Refresh reads every resource of the stack back from Google Cloud.
// Pending creates (an interrupted up) are imported with the ids given by
// logical name (the ids slurmspec's resources get are known in advance),
// or dropped from the state when an id is not known.
func (s *Stack) Refresh(ctx context.Context, ids map[string]string) error {
	pending, err := s.Pending(ctx)
	if err != nil {
		return err
	}
	var imports []optrefresh.PendingCreate
	clear := false
	for _, p := range pending {
		if p.Op != string(apitype.OperationTypeCreating) {
			continue
		}
		if id := ids[p.Name]; id != "" {
			imports = append(imports, optrefresh.PendingCreate{URN: p.URN, ID: id})
		} else {
			clear = true
			fmt.Fprintf(s.cfg.Stderr, "slurmspec-deploy: dropping the pending create of %s (%s) from the state: its id is not known\n", p.Name, p.Type)
		}
	}
	opts := []optrefresh.Option{optrefresh.Color(s.color()), optrefresh.ProgressStreams(s.cfg.Stdout), optrefresh.ErrorProgressStreams(s.cfg.Stderr)}
	if len(imports) > 0 {
		opts = append(opts, optrefresh.ImportPendingCreates(imports))
	}
	if clear {
		opts = append(opts, optrefresh.ClearPendingCreates())
	}
	_, err = s.stack.Refresh(ctx, opts...)
	return streamed(err)
}

// stateNames returns the logical names of the custom resources the
// stack's state holds.
func (s *Stack) stateNames(ctx context.Context) (map[string]bool, error) {
	dep, err := s.stack.Export(ctx)
	if err != nil {
		return nil, fmt.Errorf("exporting stack %s: %w", s.cfg.Stack, err)
	}
	have := map[string]bool{}
	if len(dep.Deployment) > 0 {
		var d apitype.DeploymentV3
		if err := json.Unmarshal(dep.Deployment, &d); err != nil {
			return nil, fmt.Errorf("reading stack %s's state: %w", s.cfg.Stack, err)
		}
		for _, r := range d.Resources {
			if r.Custom && !r.Delete {
				urn := string(r.URN)
				have[urn[strings.LastIndex(urn, "::")+2:]] = true
			}
		}
	}
	return have, nil
}

// Unmanaged returns the resources of the model whose ids are known in
// advance (ids, by logical name) that the stack does not hold although it
// holds the cluster: they exist in Google Cloud already (the cluster uses
// them), so creating them would fail; `deploy refresh` adopts them.
func (s *Stack) Unmanaged(ctx context.Context, ids map[string]string) ([]string, error) {
	have, err := s.stateNames(ctx)
	if err != nil || !have[pulumimodel.ClusterResource] {
		return nil, err
	}
	var out []string
	for _, r := range s.m.Resources {
		if ids[r.Name] != "" && !have[r.Name] {
			out = append(out, r.Name)
		}
	}
	return out, nil
}

// Adopt imports into the stack the resources of the model whose ids are
// known (ids, by logical name) but that the stack's state does not hold:
// a create that went on in Google Cloud after its up was interrupted, or
// an existing network, subnetwork or Filestore instance that the
// foundation options now manage. It runs an up that touches only those
// resources and returns their names.
func (s *Stack) Adopt(ctx context.Context, ids map[string]string) ([]string, error) {
	have, err := s.stateNames(ctx)
	if err != nil {
		return nil, err
	}
	adopted := *s.m
	adopted.Resources = append([]pulumimodel.Resource(nil), s.m.Resources...)
	stackName := s.stack.Name()
	stackName = stackName[strings.LastIndex(stackName, "/")+1:]
	var names, urns []string
	adopting := map[string]bool{}
	for i, r := range adopted.Resources {
		if id := ids[r.Name]; id != "" && !have[r.Name] {
			adopted.Resources[i].Options.ImportID = id
			adopting[r.Name] = true
			names = append(names, r.Name)
			urns = append(urns, fmt.Sprintf("urn:pulumi:%s::%s::%s::%s", stackName, s.m.Project, r.Type, r.Name))
		}
	}
	// An imported resource may wait only for resources the stack holds or
	// imports with it: a dependency on one the targeted up does not
	// create (an API to enable) would leave a state that refers to a
	// missing resource.
	for i, r := range adopted.Resources {
		if !adopting[r.Name] {
			continue
		}
		var deps []string
		for _, d := range r.Options.DependsOn {
			if have[d] || adopting[d] {
				deps = append(deps, d)
			}
		}
		adopted.Resources[i].Options.DependsOn = deps
	}
	if len(names) == 0 {
		return nil, nil
	}
	ws := s.stack.Workspace()
	ws.SetProgram(deploypulumi.Program(&adopted))
	defer ws.SetProgram(deploypulumi.Program(s.m))
	_, err = s.stack.Up(ctx, optup.Target(urns), optup.Color(s.color()), optup.ProgressStreams(s.cfg.Stdout), optup.ErrorProgressStreams(s.cfg.Stderr))
	if err != nil {
		return nil, fmt.Errorf("importing %s (if its create never reached Google Cloud, run up instead): %w", strings.Join(names, ", "), streamed(err))
	}
	return names, nil
}
