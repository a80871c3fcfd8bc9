// Package pulumitest holds test support for slurmspec's deployment: an
// evaluator of the rendered Pulumi YAML project as plain data, a test
// double of the pulumi-gcp provider plugin, and helpers that find (or
// build) the Pulumi CLI for the end-to-end tests.
package pulumitest

import (
	"fmt"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"
)

// YAMLResource is one resource of a Pulumi YAML project, evaluated.
type YAMLResource struct {
	Name, Type, Version string
	// DependsOn are the logical names of options.dependsOn.
	DependsOn []string
	// DeleteBeforeReplace and Protect are the options of that name.
	DeleteBeforeReplace, Protect bool
	// Properties are plain data (string, bool, int, float64, []any,
	// map[string]any) with interpolations resolved.
	Properties map[string]any
}

// YAMLProject is a Pulumi YAML project evaluated as plain data.
type YAMLProject struct {
	Name, Runtime string
	Resources     []YAMLResource
	Outputs       map[string]any
}

// EvalYAML reads a Pulumi YAML project (resources and outputs in
// Pulumi.yaml) and evaluates its values the way Pulumi YAML does:
// "$$" is "$", "${res.prop}" is the property of another resource, given by
// ref. A string that is exactly one interpolation takes the referenced
// value's type. Functions (fn::...) and variables are not supported.
func EvalYAML(data []byte, ref func(resource, property string) (any, error)) (*YAMLProject, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("the project file is not a YAML mapping")
	}
	p := &YAMLProject{Outputs: map[string]any{}}
	root := doc.Content[0]
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i].Value, root.Content[i+1]
		switch k {
		case "name":
			p.Name = v.Value
		case "runtime":
			p.Runtime = v.Value
		case "resources":
			for j := 0; j+1 < len(v.Content); j += 2 {
				r, err := evalResource(v.Content[j].Value, v.Content[j+1], ref)
				if err != nil {
					return nil, err
				}
				p.Resources = append(p.Resources, r)
			}
		case "outputs":
			for j := 0; j+1 < len(v.Content); j += 2 {
				val, err := evalNode(v.Content[j+1], ref)
				if err != nil {
					return nil, fmt.Errorf("output %s: %w", v.Content[j].Value, err)
				}
				p.Outputs[v.Content[j].Value] = val
			}
		case "description", "config", "backend", "options":
		default:
			return nil, fmt.Errorf("unsupported top-level key %q", k)
		}
	}
	return p, nil
}

func evalResource(name string, n *yaml.Node, ref func(string, string) (any, error)) (YAMLResource, error) {
	r := YAMLResource{Name: name}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i].Value, n.Content[i+1]
		switch k {
		case "type":
			r.Type = v.Value
		case "properties":
			props, err := evalNode(v, ref)
			if err != nil {
				return r, fmt.Errorf("resource %s: %w", name, err)
			}
			r.Properties, _ = props.(map[string]any)
		case "options":
			for j := 0; j+1 < len(v.Content); j += 2 {
				o := v.Content[j+1]
				switch v.Content[j].Value {
				case "version":
					r.Version = o.Value
				case "deleteBeforeReplace":
					r.DeleteBeforeReplace = o.Value == "true"
				case "protect":
					r.Protect = o.Value == "true"
				case "dependsOn":
					for _, d := range o.Content {
						m := reResource.FindStringSubmatch(d.Value)
						if m == nil {
							return r, fmt.Errorf("resource %s: dependsOn %q is not ${resource}", name, d.Value)
						}
						r.DependsOn = append(r.DependsOn, m[1])
					}
				default:
					return r, fmt.Errorf("resource %s: unsupported option %q", name, v.Content[j].Value)
				}
			}
		default:
			return r, fmt.Errorf("resource %s: unsupported key %q", name, k)
		}
	}
	return r, nil
}

var reResource = regexp.MustCompile(`^\$\{([A-Za-z_][A-Za-z0-9_-]*)\}$`)

var reAccess = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_-]*)\.([A-Za-z_][A-Za-z0-9_]*)\}`)

func evalNode(n *yaml.Node, ref func(string, string) (any, error)) (any, error) {
	switch n.Kind {
	case yaml.MappingNode:
		out := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i].Value
			if strings.HasPrefix(k, "fn::") {
				return nil, fmt.Errorf("function %s is not supported", k)
			}
			v, err := evalNode(n.Content[i+1], ref)
			if err != nil {
				return nil, err
			}
			out[k] = v
		}
		return out, nil
	case yaml.SequenceNode:
		out := []any{}
		for _, c := range n.Content {
			v, err := evalNode(c, ref)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.ScalarNode:
		var v any
		if err := n.Decode(&v); err != nil {
			return nil, err
		}
		if s, ok := v.(string); ok {
			return interpolate(s, ref)
		}
		return v, nil
	}
	return nil, fmt.Errorf("unsupported YAML node at line %d", n.Line)
}

// interpolate evaluates one string as pulumi-yaml's parseInterpolate does.
func interpolate(s string, ref func(string, string) (any, error)) (any, error) {
	var parts []any
	var text strings.Builder
	for len(s) > 0 {
		switch {
		case strings.HasPrefix(s, "$$"):
			text.WriteByte('$')
			s = s[2:]
		case strings.HasPrefix(s, "${"):
			m := reAccess.FindStringSubmatch(s[2:])
			if m == nil {
				return nil, fmt.Errorf("unsupported interpolation in %q", s)
			}
			v, err := ref(m[1], m[2])
			if err != nil {
				return nil, err
			}
			if text.Len() > 0 {
				parts = append(parts, text.String())
				text.Reset()
			}
			parts = append(parts, v)
			s = s[2+len(m[0]):]
		default:
			text.WriteByte(s[0])
			s = s[1:]
		}
	}
	if text.Len() > 0 || len(parts) == 0 {
		parts = append(parts, text.String())
	}
	if len(parts) == 1 {
		return parts[0], nil
	}
	var b strings.Builder
	for _, p := range parts {
		fmt.Fprint(&b, p)
	}
	return b.String(), nil
}
