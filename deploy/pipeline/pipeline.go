// Package pipeline is the spec pipeline of slurmspec-deploy: load, schema,
// compile and lint (the same stages and rules as `slurmspec lint`), then
// the deployment's resource model and the rendered sets that the update
// impact is computed from. It links no Pulumi SDK.
package pipeline

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/slurmspec/slurmspec/compiler"
	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/compiler/machines"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/lint/format"
	"github.com/slurmspec/slurmspec/lint/rules"
	"github.com/slurmspec/slurmspec/render"
	"github.com/slurmspec/slurmspec/render/pulumimodel"
	"github.com/slurmspec/slurmspec/schema"
	"github.com/slurmspec/slurmspec/schema/slurmconf"
)

// Options are the spec flags, as `slurmspec lint` takes them.
type Options struct {
	InputFormat                string
	Project, Region, ClusterID string
	// SlurmVersion is the release series; empty: the project config's,
	// else the newest.
	SlurmVersion string
	Disable      []string
	Strict       bool
	// ConfigFile is the project config; empty: .slurmspec.yaml found from
	// the working directory up.
	ConfigFile string
}

// Result is one analysed spec.
type Result struct {
	File    string
	Doc     *load.Document
	Cluster *ir.Cluster
	Diags   diag.List
	// SlurmVersion is the series the spec was linted for.
	SlurmVersion string
	strict       bool
}

// Failed reports whether the spec must not be deployed: an error (or,
// with Strict, a warning), or a spec that did not compile.
func (r *Result) Failed() bool {
	if r.Cluster == nil {
		return true
	}
	if r.strict {
		return r.Diags.Count(diag.Warning) > 0
	}
	return r.Diags.HasErrors()
}

// Print writes the diagnostics in slurmspec's text format.
func (r *Result) Print(w io.Writer) {
	f := format.File{Name: r.File, Diags: r.Diags}
	if r.Doc != nil {
		f.Name, f.Source = r.Doc.File, r.Doc.Source
	}
	_ = format.Text{}.Format(w, format.Run{Files: []format.File{f}})
}

// Summary is "N errors, M warnings".
func (r *Result) Summary() string {
	e, w := r.Diags.Count(diag.Error), r.Diags.Count(diag.Warning)-r.Diags.Count(diag.Error)
	return fmt.Sprintf("%s, %s", plural(e, "error"), plural(w, "warning"))
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// Analyse runs load → schema → compile → lint on one file. The error is
// for bad options (an unknown rule, a bad project config); problems of
// the spec are diagnostics.
func Analyse(file string, opt Options) (*Result, error) {
	sch, err := schema.New()
	if err != nil {
		return nil, err
	}
	cfgPath := opt.ConfigFile
	if cfgPath == "" {
		if cfgPath, err = lint.FindProjectConfig("."); err != nil {
			return nil, err
		}
	}
	var pc lint.ProjectConfig
	all := rules.All()
	disabled := map[string]bool{}
	if cfgPath != "" {
		if pc, err = lint.LoadProjectConfig(cfgPath); err != nil {
			return nil, err
		}
		if err := pc.Check(all); err != nil {
			return nil, err
		}
		for _, id := range pc.Disable {
			disabled[id] = true
		}
	}
	for _, id := range opt.Disable {
		id = strings.TrimSpace(id)
		if lint.Find(all, id) == nil {
			return nil, fmt.Errorf("--disable: unknown rule %q", id)
		}
		disabled[id] = true
	}
	version := opt.SlurmVersion
	if version == "" {
		version = pc.SlurmVersion
	}
	if version == "" {
		version = slurmconf.Newest().String()
	}
	v, err := slurmconf.ParseVersion(version)
	if err != nil {
		return nil, fmt.Errorf("--slurm-version: %w", err)
	}
	fmtID, err := load.ParseFormat(orDefault(opt.InputFormat, "auto"))
	if err != nil {
		return nil, err
	}
	r := &Result{File: file, SlurmVersion: v.String(), strict: opt.Strict}
	doc, l := load.File(file, load.Options{Format: fmtID, Verbatim: sch.Verbatim, Stdin: os.Stdin})
	r.Doc, r.Diags = doc, l
	if doc == nil || doc.Root == nil {
		r.Diags = r.Diags.Sort()
		return r, nil
	}
	r.Diags = append(r.Diags, sch.Check(doc)...)
	if r.Diags.HasErrors() {
		r.Diags = r.Diags.Sort()
		return r, nil
	}
	c, l := compiler.Compile(doc, compiler.Identity{Project: opt.Project, Region: opt.Region, ClusterID: opt.ClusterID}, machines.Default())
	r.Diags = append(r.Diags, l...)
	r.Cluster = c
	found := lint.Run(c, all, lint.Config{Options: lint.Options{SlurmVersion: r.SlurmVersion}, Disabled: disabled})
	r.Diags = append(r.Diags, pc.Adjust(found)...).Sort()
	return r, nil
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

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
	doc, l := load.Bytes("deployed.json", spec, load.Options{Format: load.FormatJSON, Verbatim: sch.Verbatim})
	if doc == nil || l.HasErrors() {
		return nil, "", fmt.Errorf("reading the deployed inputs: %s", firstError(l))
	}
	if l := sch.Check(doc); l.HasErrors() {
		return nil, "", fmt.Errorf("the deployed inputs are not a valid spec: %s", firstError(l))
	}
	c, l := compiler.Compile(doc, compiler.Identity{}, machines.Default())
	if c == nil || l.HasErrors() {
		return nil, "", fmt.Errorf("compiling the deployed inputs: %s", firstError(l))
	}
	set, err := Rendered(c, slurmVersion)
	if err != nil {
		return nil, "", err
	}
	return set, pulumimodel.ClusterName(c.Project.Value, c.Region.Value, c.ID.Value), nil
}

func firstError(l diag.List) string {
	for _, d := range l {
		if d.Severity == diag.Error {
			if d.Path != "" {
				return d.Path + ": " + d.Message
			}
			return d.Message
		}
	}
	return "unknown error"
}
