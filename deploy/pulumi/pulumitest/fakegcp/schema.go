package fakegcp

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Schema is the package schema the double serves (what Pulumi YAML type
// checks a program against), built from the provider description.
func Schema() ([]byte, error) {
	ref, err := LoadReference()
	if err != nil {
		return nil, err
	}
	types := map[string]any{}
	res := map[string]any{}
	for token, r := range ref.Resources {
		parts := strings.Split(token, ":")
		if len(parts) != 3 {
			return nil, fmt.Errorf("resource token %q is not pkg:module/name:Type", token)
		}
		module := strings.Split(parts[1], "/")[0]
		g := &schemaGen{pkg: ref.Package, module: module, types: types}
		props, required := g.object(parts[2], r.Inputs)
		outProps := map[string]any{}
		for k, v := range props {
			outProps[k] = v
		}
		for k, f := range r.Outputs {
			outProps[k] = g.typ(parts[2]+title(k), f)
		}
		res[token] = map[string]any{
			"description":     "Test double of " + token,
			"inputProperties": props,
			"requiredInputs":  required,
			"properties":      outProps,
			"required":        required,
		}
	}
	return json.MarshalIndent(map[string]any{
		"name":      ref.Package,
		"version":   ref.Version,
		"meta":      map[string]any{"moduleFormat": "(.*)(?:/[^/]*)"},
		"resources": res,
		"types":     types,
	}, "", "  ")
}

type schemaGen struct {
	pkg, module string
	types       map[string]any
}

func (g *schemaGen) object(name string, fields map[string]*Field) (map[string]any, []string) {
	props := map[string]any{}
	required := []string{}
	for k, f := range fields {
		props[k] = g.typ(name+title(k), f)
		if f.Required {
			required = append(required, k)
		}
	}
	sort.Strings(required)
	return props, required
}

func (g *schemaGen) typ(name string, f *Field) map[string]any {
	switch f.Type {
	case "string", "integer", "boolean":
		return map[string]any{"type": f.Type}
	case "map":
		return map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string"}}
	case "array":
		return map[string]any{"type": "array", "items": g.typ(name, f.Items)}
	}
	token := fmt.Sprintf("%s:%s/%s:%s", g.pkg, g.module, name, name)
	props, required := g.object(name, f.Properties)
	g.types[token] = map[string]any{"type": "object", "properties": props, "required": required}
	return map[string]any{"$ref": "#/types/" + token}
}

func title(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
