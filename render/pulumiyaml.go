package render

import (
	"fmt"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/compiler/yamlwrite"
	"github.com/slurmspec/slurmspec/render/pulumimodel"
)

// PulumiYAMLPath is where the Pulumi YAML project is rendered.
const PulumiYAMLPath = "pulumi/Pulumi.yaml"

// PulumiProject renders the Pulumi YAML project of a cluster: the
// deployment model (render/pulumimodel) built from the canonical request body,
// written as pulumi/Pulumi.yaml. It returns an error wrapping
// pulumimodel.ErrIdentity when the cluster's project or region is unknown.
func PulumiProject(c *ir.Cluster, opt pulumimodel.Options) (Set, error) {
	body, err := CanonicalBody(c)
	if err != nil {
		return nil, err
	}
	m, err := pulumimodel.New(c, body, opt)
	if err != nil {
		return nil, err
	}
	data, err := PulumiYAML(m)
	if err != nil {
		return nil, err
	}
	return Set{{Path: PulumiYAMLPath, Data: data, Mode: 0o644}}, nil
}

// PulumiYAML writes a deployment model as a Pulumi YAML project
// (runtime: yaml, the program inline in Pulumi.yaml). Every resource pins
// the provider version; references between resources are ${name.property}
// interpolations; every other string is escaped so that a "$" in a script
// never becomes an interpolation. Map keys are sorted, so the output is
// deterministic.
func PulumiYAML(m *pulumimodel.Model) ([]byte, error) {
	resources := mapping()
	for _, r := range m.Resources {
		props, err := yamlValue(r.Inputs)
		if err != nil {
			return nil, fmt.Errorf("resource %s: %w", r.Name, err)
		}
		res := mapping()
		add(res, "type", str(r.Type))
		add(res, "properties", props)
		opts := mapping()
		add(opts, "version", str(m.ProviderVersion))
		if len(r.Options.DependsOn) > 0 {
			deps := &yaml.Node{Kind: yaml.SequenceNode}
			for _, d := range r.Options.DependsOn {
				deps.Content = append(deps.Content, str("${"+d+"}"))
			}
			add(opts, "dependsOn", deps)
		}
		if r.Options.DeleteBeforeReplace {
			add(opts, "deleteBeforeReplace", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"})
		}
		if r.Options.Protect {
			add(opts, "protect", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"})
		}
		add(res, "options", opts)
		add(resources, r.Name, res)
	}
	outputs := mapping()
	for _, o := range m.Outputs {
		v, err := yamlValue(o.Value)
		if err != nil {
			return nil, fmt.Errorf("output %s: %w", o.Name, err)
		}
		add(outputs, o.Name, v)
	}
	root := mapping()
	add(root, "name", str(m.Project))
	add(root, "description", str(m.Description))
	add(root, "runtime", str("yaml"))
	add(root, "resources", resources)
	add(root, "outputs", outputs)
	root.HeadComment = "Rendered by slurmspec: the Pulumi YAML project of " + m.ClusterName() + ".\n" +
		"Do not edit; render again. Deploy with `pulumi up` in this directory\n" +
		"(pulumi-gcp " + m.ProviderVersion + "; see docs/deploy.md)."
	out, err := yamlwrite.Encode(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}})
	if err != nil {
		return nil, fmt.Errorf("encoding Pulumi.yaml: %w", err)
	}
	return out, nil
}

func mapping() *yaml.Node { return &yaml.Node{Kind: yaml.MappingNode} }

func add(m *yaml.Node, key string, v *yaml.Node) {
	m.Content = append(m.Content, str(key), v)
}

// str is a string scalar that reads back as exactly s.
func str(s string) *yaml.Node { return yamlwrite.StrStrict(s) }

// yamlValue converts model plain data to a YAML node.
func yamlValue(v any) (*yaml.Node, error) {
	switch v := v.(type) {
	case string:
		return str(EscapePulumiYAML(v)), nil
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: fmt.Sprint(v)}, nil
	case int64:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: fmt.Sprint(v)}, nil
	case float64:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: fmt.Sprint(v)}, nil
	case pulumimodel.Ref:
		return str("${" + v.Resource + "." + v.Property + "}"), nil
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode}
		for _, e := range v {
			c, err := yamlValue(e)
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, c)
		}
		return n, nil
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		n := mapping()
		for _, k := range keys {
			if strings.HasPrefix(k, "fn::") {
				return nil, fmt.Errorf("key %q would be read as a Pulumi YAML function", k)
			}
			c, err := yamlValue(v[k])
			if err != nil {
				return nil, err
			}
			add(n, k, c)
		}
		return n, nil
	}
	return nil, fmt.Errorf("unsupported value %T", v)
}

// EscapePulumiYAML escapes a literal string for Pulumi YAML, which reads
// "${...}" as an interpolation and "$$" as "$": a "$" followed by "$" or
// "{" is doubled, any other "$" is already literal.
func EscapePulumiYAML(s string) string {
	if !strings.Contains(s, "$") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteByte(s[i])
		if s[i] == '$' && i+1 < len(s) && (s[i+1] == '$' || s[i+1] == '{') {
			b.WriteByte('$')
		}
	}
	return b.String()
}
