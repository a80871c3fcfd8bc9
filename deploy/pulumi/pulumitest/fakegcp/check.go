package fakegcp

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// DefaultsKey is the reserved key a bridged provider's Check adds to the
// checked inputs, at the top level and in every nested object, and which
// the engine stores in state (reference: "Checked inputs carry
// __defaults").
const DefaultsKey = "__defaults"

// CheckInputs validates plain inputs against a resource's description:
// unknown fields, wrong types and missing required fields are failures,
// as they are against the real schema. Keys starting with "__" are
// reserved and skipped. Unknown values ("<unknown>") pass.
func (r *ResourceSpec) CheckInputs(inputs map[string]any) []string {
	var fails []string
	checkObject("", r.Inputs, inputs, &fails)
	sort.Strings(fails)
	return fails
}

func checkObject(prefix string, fields map[string]*Field, obj map[string]any, fails *[]string) {
	for k, v := range obj {
		if strings.HasPrefix(k, "__") {
			continue
		}
		f := fields[k]
		if f == nil {
			*fails = append(*fails, fmt.Sprintf("%s: unknown input %q%s", join(prefix, k), k, suggest(k, fields)))
			continue
		}
		checkValue(join(prefix, k), f, v, fails)
	}
	for k, f := range fields {
		if _, ok := obj[k]; f.Required && !ok {
			*fails = append(*fails, fmt.Sprintf("%s: missing required input", join(prefix, k)))
		}
	}
}

func checkValue(path string, f *Field, v any, fails *[]string) {
	if v == nil || v == unknown {
		return
	}
	bad := func() { *fails = append(*fails, fmt.Sprintf("%s: want %s, got %T", path, f.Type, v)) }
	switch f.Type {
	case "string":
		if _, ok := v.(string); !ok {
			bad()
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			bad()
		}
	case "integer":
		n, ok := v.(float64)
		if !ok || n != float64(int64(n)) {
			bad()
		}
	case "map":
		m, ok := v.(map[string]any)
		if !ok {
			bad()
			return
		}
		for k, e := range m {
			if _, ok := e.(string); !ok && e != unknown {
				*fails = append(*fails, fmt.Sprintf("%s.%s: want string, got %T", path, k, e))
			}
		}
	case "array":
		l, ok := v.([]any)
		if !ok {
			bad()
			return
		}
		for i, e := range l {
			checkValue(fmt.Sprintf("%s[%d]", path, i), f.Items, e, fails)
		}
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			bad()
			return
		}
		checkObject(path, f.Properties, m, fails)
	}
}

func join(prefix, k string) string {
	if prefix == "" {
		return k
	}
	return prefix + "." + k
}

// suggest names a field that differs from k only in a trailing "s" (the
// bridge's pluralised list names) or in case.
func suggest(k string, fields map[string]*Field) string {
	for name := range fields {
		if name == k+"s" || name+"s" == k || strings.EqualFold(name, k) {
			return fmt.Sprintf(" (the provider's input is %q)", name)
		}
	}
	return ""
}

// unknown is how plain() writes a value unknown during preview.
const unknown = "<unknown>"

// WithDefaults returns a copy of plain inputs with DefaultsKey (an empty
// list: the double applies no defaults) added to the top level and to
// every nested object the description types as an object (not to maps).
func (r *ResourceSpec) WithDefaults(inputs map[string]any) map[string]any {
	return withDefaults(r.Inputs, inputs)
}

func withDefaults(fields map[string]*Field, obj map[string]any) map[string]any {
	out := make(map[string]any, len(obj)+1)
	for k, v := range obj {
		out[k] = v
		f := fields[k]
		if f == nil {
			continue
		}
		out[k] = defaultsValue(f, v)
	}
	out[DefaultsKey] = []any{}
	return out
}

func defaultsValue(f *Field, v any) any {
	switch f.Type {
	case "object":
		if m, ok := v.(map[string]any); ok {
			return withDefaults(f.Properties, m)
		}
	case "array":
		if l, ok := v.([]any); ok {
			out := make([]any, len(l))
			for i, e := range l {
				out[i] = defaultsValue(f.Items, e)
			}
			return out
		}
	}
	return v
}

// Change is one difference between old and new inputs.
type Change struct {
	// Path is where the values differ ("nodePools[1].machineSpec.machineType",
	// or "nodePools" when elements were added or removed).
	Path string
	// Replaces: the real provider replaces the resource for it.
	Replaces bool
}

// DiffInputs compares old and new plain inputs the way a Terraform SDKv2
// provider bridged into Pulumi plans them: a change of a ForceNew field,
// or anywhere below a ForceNew object, replaces the resource; lists are
// compared element by element, so adding, removing or reordering elements
// whose type has ForceNew fields replaces it too. Reserved "__" keys are
// ignored.
func (r *ResourceSpec) DiffInputs(olds, news map[string]any) []Change {
	var out []Change
	diffObject("", r.Inputs, olds, news, false, &out)
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

func diffObject(prefix string, fields map[string]*Field, o, n map[string]any, replaces bool, out *[]Change) {
	keys := map[string]bool{}
	for k := range o {
		keys[k] = true
	}
	for k := range n {
		keys[k] = true
	}
	for k := range keys {
		if strings.HasPrefix(k, "__") {
			continue
		}
		f := fields[k]
		if f == nil {
			f = &Field{Type: "unknown"}
		}
		diffValue(join(prefix, k), f, o[k], n[k], replaces, out)
	}
}

func diffValue(path string, f *Field, o, n any, replaces bool, out *[]Change) {
	replaces = replaces || f.ForceNew
	if n == unknown {
		*out = append(*out, Change{Path: path, Replaces: replaces})
		return
	}
	if isEmpty(o) && isEmpty(n) {
		return
	}
	switch f.Type {
	case "object":
		om, ok1 := o.(map[string]any)
		nm, ok2 := n.(map[string]any)
		if (ok1 || o == nil) && (ok2 || n == nil) {
			diffObject(path, f.Properties, om, nm, replaces, out)
			return
		}
	case "array":
		ol, ok1 := o.([]any)
		nl, ok2 := n.([]any)
		if (ok1 || o == nil) && (ok2 || n == nil) {
			if len(ol) != len(nl) {
				*out = append(*out, Change{Path: path, Replaces: replaces || f.Items.hasForceNew()})
				return
			}
			for i := range ol {
				diffValue(fmt.Sprintf("%s[%d]", path, i), f.Items, ol[i], nl[i], replaces, out)
			}
			return
		}
	case "map":
		om, _ := o.(map[string]any)
		nm, _ := n.(map[string]any)
		if len(om) == len(nm) {
			same := true
			for k, v := range om {
				if w, ok := nm[k]; !ok || w != v {
					same = false
				}
			}
			if same {
				return
			}
		}
		*out = append(*out, Change{Path: path, Replaces: replaces})
		return
	}
	if !reflect.DeepEqual(o, n) {
		*out = append(*out, Change{Path: path, Replaces: replaces})
	}
}

// hasForceNew reports whether a field or anything below it is ForceNew.
func (f *Field) hasForceNew() bool {
	if f == nil {
		return false
	}
	if f.ForceNew {
		return true
	}
	for _, p := range f.Properties {
		if p.hasForceNew() {
			return true
		}
	}
	return f.Items.hasForceNew()
}

func isEmpty(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case []any:
		return len(v) == 0
	case map[string]any:
		for k := range v {
			if !strings.HasPrefix(k, "__") {
				return false
			}
		}
		return true
	}
	return false
}
