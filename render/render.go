// Package render turns the IR into the set of files a cluster needs:
// slurm.conf, one file per prolog and epilog script, cluster.json, the
// canonical API request body, and pulumi/Pulumi.yaml, a Pulumi YAML project
// that deploys it. Rendering is pure and deterministic; writing
// the set to disk is the job of package render/output.
package render

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/render/pulumimodel"
	"github.com/slurmspec/slurmspec/render/slurmconf"
)

// Artifact is one rendered file.
type Artifact struct {
	// Path is slash-separated and relative to the output directory.
	Path string
	Data []byte
	Mode uint32 // permission bits
}

// Set is a rendered set of files, sorted by path.
type Set []Artifact

// Get returns the artifact at path, or nil.
func (s Set) Get(p string) *Artifact {
	for i := range s {
		if s[i].Path == p {
			return &s[i]
		}
	}
	return nil
}

// Options control rendering.
type Options struct {
	SlurmVersion string
	// Deploy are the slurmspec-only deploy options (--create-home-filestore
	// ...) for the rendered Pulumi YAML project.
	Deploy pulumimodel.Options
}

// Rule ids of the renderer's diagnostics.
const (
	RuleIdentity = "render-identity"
	RuleUnsafe   = "render-unsafe"
	RuleDeploy   = "render-deploy"
)

// Render renders every artifact of a cluster. It refuses (with diagnostics,
// and no artifacts) when the cluster has no id, when a config map sets a
// key the service manages, or when a value would be unsafe to write.
func Render(c *ir.Cluster, opt Options) (Set, diag.List) {
	var l diag.List
	if c.ID.Value == "" {
		l.Errorf(RuleIdentity, c.ID.Pos, "name", "add \"name\": \"projects/P/locations/R/modelDevelopmentClusters/ID\" to the spec, or pass --cluster-id",
			"the cluster id is unknown, and slurm.conf's ClusterName needs it")
		return nil, l
	}
	if l := refuseManaged(c); len(l) > 0 {
		return nil, l
	}
	if l := refuseUnknownMachines(c); len(l) > 0 {
		return nil, l
	}
	conf, err := slurmconf.Write(c, slurmconf.Options{SlurmVersion: opt.SlurmVersion})
	if err != nil {
		l.Errorf(RuleUnsafe, c.Slurm.Pos, c.Slurm.Path, "remove white space, #, quotes, backslashes and control characters from slurm.conf keys and values", "%v", err)
		return nil, l
	}
	set := Set{{Path: "slurm.conf", Data: conf, Mode: 0o644}}
	set = append(set, scripts("prolog", c.Slurm.Prolog)...)
	set = append(set, scripts("epilog", c.Slurm.Epilog)...)
	body, err := CanonicalBody(c)
	if err != nil {
		l.Errorf(RuleUnsafe, c.Doc.Root.Pos, "", "", "internal error: encoding cluster.json: %v", err)
		return nil, l
	}
	set = append(set, Artifact{Path: "cluster.json", Data: body, Mode: 0o644})
	proj, err := PulumiProject(c, opt.Deploy)
	switch {
	case errors.Is(err, pulumimodel.ErrIdentity):
		// No project or region: nothing to deploy, so no pulumi/Pulumi.yaml.
	case err != nil:
		l.Errorf(RuleDeploy, c.Slurm.Pos, c.Slurm.Path, "fix the deploy flags", "pulumi/Pulumi.yaml: %v", err)
		return nil, l
	default:
		set = append(set, proj...)
	}
	sort.Slice(set, func(i, j int) bool { return set[i].Path < set[j].Path })
	return set, nil
}

// scripts renders prolog.d/NN-prolog.sh files, one per script. Slurm runs
// the files a Prolog=/Epilog= glob matches in reverse alphabetical order
// (observed on 22.05 by the real-Slurm suite; the same loop in 26.05's
// source), so NN counts down: the spec's first script gets the highest
// number and runs first. Execution order is list order.
func scripts(kind string, list []ir.Script) Set {
	var out Set
	width := max(2, len(fmt.Sprint(len(list))))
	for _, s := range list {
		name := path.Join(kind+".d", ScriptName(kind, s.Index, len(list), width))
		text := s.Text
		if !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		out = append(out, Artifact{Path: name, Data: []byte(text), Mode: 0o755})
	}
	return out
}

// ScriptName is the file name of script i (0-based) of n: "NN-kind.sh" with
// NN = n-i, so that Slurm's reverse alphabetical order runs list order.
func ScriptName(kind string, i, n, width int) string {
	return fmt.Sprintf("%0*d-%s.sh", width, n-i, kind)
}

// outputOnly are fields the API sets; they are never sent back. "$schema"
// names the editor's JSON Schema and is not part of the API either.
var outputOnly = map[string]bool{
	"name": true, "createTime": true, "updateTime": true, "startTime": true,
	"clusterStatus": true, "clusterEvents": true, "runtime": true, "state": true,
	"$schema": true,
}

// CanonicalBody is the API request body of the cluster: camelCase, comments
// and output-only fields gone, keys sorted, and defaultPartitionId written
// out so that the order of partitions never moves the default.
func CanonicalBody(c *ir.Cluster) ([]byte, error) {
	root := toJSON(c.Doc.Root)
	obj, _ := root.(map[string]any)
	if obj == nil {
		obj = map[string]any{}
	}
	for k := range outputOnly {
		delete(obj, k)
	}
	if os, ok := obj["orchestratorSpec"].(map[string]any); ok {
		if ss, ok := os["slurmSpec"].(map[string]any); ok && c.Slurm.DefaultPartitionID.Value != "" {
			ss["defaultPartitionId"] = c.Slurm.DefaultPartitionID.Value
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(obj); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func toJSON(n *load.Node) any {
	switch n.Kind {
	case load.Object:
		m := make(map[string]any, len(n.Fields))
		for _, f := range n.Fields {
			m[f.Name] = toJSON(f.Value)
		}
		return m
	case load.Array:
		a := make([]any, len(n.Items))
		for i, it := range n.Items {
			a[i] = toJSON(it)
		}
		return a
	case load.String:
		return n.Text
	case load.Number:
		if i, ok := n.Int(); ok {
			return i
		}
		return json.Number(strings.ReplaceAll(n.Text, "_", ""))
	case load.Bool:
		return n.True
	}
	return nil
}
