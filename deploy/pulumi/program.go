// Package pulumi is the Go Pulumi program of a cluster: it registers the
// resources of a deployment model (package render/pulumimodel) with the pinned
// pulumi-gcp provider and exports the stack outputs. The rendered Pulumi
// YAML project (render.PulumiYAML) is the same model written as YAML; a
// test proves both send identical inputs.
//
// pulumi-gcp's Go SDK with the cluster resource (v10) is not available, so
// resources are registered by type token with inputs written against the
// provider's schema (pulumimodel.ClusterArgs).
package pulumi

import (
	"fmt"

	sdk "github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/slurmspec/slurmspec/render/pulumimodel"
)

// Resource is the state of a registered resource: its id, and the
// outputs other resources of a model reference.
type Resource struct {
	sdk.CustomResourceState
	Name   sdk.StringOutput `pulumi:"name"`
	Email  sdk.StringOutput `pulumi:"email"`
	Member sdk.StringOutput `pulumi:"member"`
}

// Program returns the Pulumi program of a pulumimodel.
func Program(m *pulumimodel.Model) sdk.RunFunc {
	return func(ctx *sdk.Context) error {
		exports, err := register(ctx, m)
		if err != nil {
			return err
		}
		for _, o := range m.Outputs {
			ctx.Export(o.Name, exports[o.Name])
		}
		return nil
	}
}

// register registers every resource of m and returns the stack outputs.
func register(ctx *sdk.Context, m *pulumimodel.Model) (map[string]sdk.Input, error) {
	registered := map[string]*Resource{}
	ref := func(r pulumimodel.Ref) (sdk.Input, error) {
		res := registered[r.Resource]
		if res == nil {
			return nil, fmt.Errorf("internal error: %s references %s, which is not registered before it", r, r.Resource)
		}
		switch r.Property {
		case "id":
			return res.ID().ToStringOutput(), nil
		case "name":
			return res.Name, nil
		case "email":
			return res.Email, nil
		case "member":
			return res.Member, nil
		}
		return nil, fmt.Errorf("internal error: %s: unknown output property %q", r, r.Property)
	}
	for _, r := range m.Resources {
		props, err := input(r.Inputs, ref)
		if err != nil {
			return nil, fmt.Errorf("resource %s: %w", r.Name, err)
		}
		opts := []sdk.ResourceOption{sdk.Version(m.ProviderVersion)}
		var deps []sdk.Resource
		for _, d := range r.Options.DependsOn {
			dep := registered[d]
			if dep == nil {
				return nil, fmt.Errorf("internal error: %s depends on %s, which is not registered before it", r.Name, d)
			}
			deps = append(deps, dep)
		}
		if len(deps) > 0 {
			opts = append(opts, sdk.DependsOn(deps))
		}
		if r.Options.DeleteBeforeReplace {
			opts = append(opts, sdk.DeleteBeforeReplace(true))
		}
		if r.Options.Protect {
			opts = append(opts, sdk.Protect(true))
		}
		if r.Options.ImportID != "" {
			opts = append(opts, sdk.Import(sdk.ID(r.Options.ImportID)))
		}
		res := &Resource{}
		if err := ctx.RegisterResource(r.Type, r.Name, props, res, opts...); err != nil {
			return nil, fmt.Errorf("registering %s (%s): %w", r.Name, r.Type, err)
		}
		registered[r.Name] = res
	}
	exports := map[string]sdk.Input{}
	for _, o := range m.Outputs {
		v, err := input(o.Value, ref)
		if err != nil {
			return nil, fmt.Errorf("output %s: %w", o.Name, err)
		}
		exports[o.Name] = v
	}
	return exports, nil
}

// input converts model plain data to Pulumi inputs.
func input(v any, ref func(pulumimodel.Ref) (sdk.Input, error)) (sdk.Input, error) {
	switch v := v.(type) {
	case string:
		return sdk.String(v), nil
	case bool:
		return sdk.Bool(v), nil
	case int64:
		return sdk.Int(int(v)), nil
	case float64:
		return sdk.Float64(v), nil
	case pulumimodel.Ref:
		return ref(v)
	case []any:
		out := make(sdk.Array, len(v))
		for i, e := range v {
			in, err := input(e, ref)
			if err != nil {
				return nil, err
			}
			out[i] = in
		}
		return out, nil
	case map[string]any:
		out := make(sdk.Map, len(v))
		for k, e := range v {
			in, err := input(e, ref)
			if err != nil {
				return nil, err
			}
			out[k] = in
		}
		return out, nil
	}
	return nil, fmt.Errorf("unsupported value %T", v)
}
