// Package artifacts is what slurmspec-deploy builds on a checked spec (a
// lint/pipeline result, the same stages, rules and project config as
// `slurmspec lint`): the deployment's resource model and the rendered sets
// that the update impact is computed from. It links no Pulumi SDK.
package artifacts

import (
	"fmt"
	"strings"

	"github.com/slurmspec/slurmspec/compiler"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/render"
	"github.com/slurmspec/slurmspec/render/pulumimodel"
	"github.com/slurmspec/slurmspec/schema"
)

// Model builds the deployment's resource model from a compiled cluster.
func Model(c *ir.Cluster, opt pulumimodel.Options) (*pulumimodel.Model, error) {
	body, err := render.CanonicalBody(c)
	if err != nil {
		return nil, fmt.Errorf("internal error: encoding the request body: %w", err)
	}
	return pulumimodel.New(c, body, opt)
}

// Rendered renders the files the update impact compares (slurm.conf, the
// scripts and cluster.json), leaving out the Pulumi project.
func Rendered(c *ir.Cluster, slurmVersion string) (render.Set, error) {
	set, l := render.Render(c, render.Options{SlurmVersion: slurmVersion})
	if len(l) > 0 {
		return nil, fmt.Errorf("%s", l[0].Message)
	}
	var out render.Set
	for _, a := range set {
		if !strings.HasPrefix(a.Path, "pulumi/") {
			out = append(out, a)
		}
	}
	return out, nil
}

// RenderDeployed renders the cluster a stack last deployed, from the
// inputs recorded in its state (see pulumimodel.SpecFromInputs). It also
// returns the cluster's resource name.
func RenderDeployed(inputs map[string]any, slurmVersion string) (render.Set, string, error) {
	spec, err := pulumimodel.SpecFromInputs(inputs)
	if err != nil {
		return nil, "", err
	}
	sch, err := schema.New()
	if err != nil {
		return nil, "", err
	}
	c, _, err := pipeline.Compile(sch, "deployed.json", spec, load.FormatJSON, compiler.Identity{})
	if err != nil {
		return nil, "", fmt.Errorf("the deployed inputs are not a valid spec: %w", err)
	}
	set, err := Rendered(c, slurmVersion)
	if err != nil {
		return nil, "", err
	}
	return set, pulumimodel.ClusterName(c.Project.Value, c.Region.Value, c.ID.Value), nil
}
