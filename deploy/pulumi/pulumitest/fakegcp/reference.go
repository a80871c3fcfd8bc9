package fakegcp

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// referenceJSON is the hand-written description of the real resources
// (testdata/pulumi-gcp.json), written from the reference and pulumi-gcp's
// documentation, never from slurmspec's own types.
//
//go:embed testdata/pulumi-gcp.json
var referenceJSON []byte

// Field is one input or output of a resource, as the real provider has it.
type Field struct {
	// Type is string, integer, boolean, array, object or map (of strings).
	Type string `json:"type"`
	// Required: the provider refuses the resource without it.
	Required bool `json:"required"`
	// ForceNew: changing it (or anything below it) replaces the resource.
	ForceNew bool `json:"forceNew"`
	// Computed: optional, the provider fills it in when absent.
	Computed bool `json:"computed"`
	// Items is the element of an array.
	Items *Field `json:"items"`
	// Properties are the fields of an object.
	Properties map[string]*Field `json:"properties"`
	// Value is an output's value as a template over the inputs
	// ("{accountId}@{project}.iam.gserviceaccount.com").
	Value string `json:"value"`
}

// ResourceSpec describes one resource type.
type ResourceSpec struct {
	// ID is the resource id as a template over the inputs.
	ID string `json:"id"`
	// SlowOperations: create, update and delete are long-running
	// operations (120 minutes for the cluster); the double's delay knob
	// applies to them.
	SlowOperations bool              `json:"slowOperations"`
	Inputs         map[string]*Field `json:"inputs"`
	Outputs        map[string]*Field `json:"outputs"`
}

// Reference is the whole description.
type Reference struct {
	Package   string                   `json:"package"`
	Version   string                   `json:"version"`
	Resources map[string]*ResourceSpec `json:"resources"`
}

// LoadReference reads the embedded description.
var LoadReference = sync.OnceValues(func() (*Reference, error) {
	return ParseReference(referenceJSON)
})

// ParseReference reads a description and checks its own consistency.
func ParseReference(data []byte) (*Reference, error) {
	var r Reference
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	var raw struct {
		Comment string `json:"comment"`
		Reference
	}
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("reading the provider description: %w", err)
	}
	r = raw.Reference
	for token, res := range r.Resources {
		for name, f := range res.Inputs {
			if err := f.check(token + "." + name); err != nil {
				return nil, err
			}
		}
	}
	return &r, nil
}

func (f *Field) check(path string) error {
	switch f.Type {
	case "string", "integer", "boolean", "map":
	case "array":
		if f.Items == nil {
			return fmt.Errorf("provider description: %s: an array needs items", path)
		}
		return f.Items.check(path + "[]")
	case "object":
		for name, p := range f.Properties {
			if err := p.check(path + "." + name); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("provider description: %s: unknown type %q", path, f.Type)
	}
	return nil
}

// Leaf is a field of a resource with its path ("nodePools[].machineSpec.machineType")
// and whether a change of it replaces the resource: it or an enclosing
// object is ForceNew.
type Leaf struct {
	Path     string
	Field    *Field
	Replaces bool
}

// Leaves lists every field of a resource's inputs, objects and arrays
// included, sorted by path.
func (r *ResourceSpec) Leaves() []Leaf {
	var out []Leaf
	var walk func(prefix string, f *Field, replaces bool)
	walk = func(prefix string, f *Field, replaces bool) {
		replaces = replaces || f.ForceNew
		out = append(out, Leaf{Path: prefix, Field: f, Replaces: replaces})
		switch f.Type {
		case "array":
			walk(prefix+"[]", f.Items, replaces)
		case "object":
			for name, p := range f.Properties {
				walk(prefix+"."+name, p, replaces)
			}
		}
	}
	for name, f := range r.Inputs {
		walk(name, f, false)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// Created returns the id a resource gets from plain inputs and its
// outputs: the inputs plus every output the description gives a value
// (a cluster's name and a resource's selfLink are its id).
func (r *ResourceSpec) Created(inputs map[string]any) (string, map[string]any) {
	fill := func(tmpl string) string {
		return reTemplate.ReplaceAllStringFunc(tmpl, func(m string) string {
			s, _ := inputs[m[1:len(m)-1]].(string)
			return s
		})
	}
	id := fill(r.ID)
	out := make(map[string]any, len(inputs)+len(r.Outputs))
	for k, v := range inputs {
		out[k] = v
	}
	for name, f := range r.Outputs {
		switch {
		case name == "name" || name == "selfLink":
			out[name] = id
		case f.Value != "":
			out[name] = fill(f.Value)
		}
	}
	return id, out
}
