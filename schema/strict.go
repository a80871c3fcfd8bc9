package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strings"
)

// EditorKeywords are the keywords the exported JSON Schema carries for
// editors (VS Code's JSON language service and yaml-language-server read
// them for hover text, enum hints and pattern messages). They are no JSON
// Schema vocabulary's, so a validator in strict mode, ajv's default,
// refuses the schema over them.
var EditorKeywords = []string{"markdownDescription", "enumDescriptions", "markdownEnumDescriptions", "patternErrorMessage"}

// StrictJSON returns the JSON Schema b rewritten for validators in strict
// mode (ajv's default); it validates exactly what b validates. It drops
// EditorKeywords; moves a property that one of its object's
// patternProperties also matches (the case-insensitive spellings of a
// slurm.conf key, the snake_case spelling of a field) to $defs, where the
// pattern refers to it, since strict mode refuses the overlap although
// both name the same schema; and drops a prefixItems whose entries all
// equal items.
func StrictJSON(b []byte) ([]byte, error) {
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("decoding JSON Schema: %w", err)
	}
	dropEditorKeywords(doc)
	defs, _ := doc["$defs"].(map[string]any)
	if defs == nil {
		defs = map[string]any{}
		doc["$defs"] = defs
	}
	moved := map[string]string{}
	names := make([]string, 0, len(defs))
	for name := range defs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := splitOverlaps(defs[name], "#/$defs/"+name, name, defs, moved); err != nil {
			return nil, err
		}
	}
	if err := splitOverlaps(doc, "#", "root", defs, moved); err != nil {
		return nil, err
	}
	rewriteRefs(doc, moved)
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("encoding JSON Schema: %w", err)
	}
	return out.Bytes(), nil
}

// dropEditorKeywords removes EditorKeywords from schema s and the schemas
// inside it. The members of properties, $defs and patternProperties are
// names, not keywords (a property may be called markdownDescription), and
// the values of enum, const, examples, default and required are data.
func dropEditorKeywords(s any) {
	switch s := s.(type) {
	case map[string]any:
		for _, k := range EditorKeywords {
			delete(s, k)
		}
		for k, v := range s {
			switch k {
			case "properties", "$defs", "definitions", "patternProperties", "dependentSchemas":
				if named, ok := v.(map[string]any); ok {
					for _, sub := range named {
						dropEditorKeywords(sub)
					}
				}
			case "enum", "const", "examples", "default", "required", "dependentRequired":
			default:
				dropEditorKeywords(v)
			}
		}
	case []any:
		for _, e := range s {
			dropEditorKeywords(e)
		}
	}
}

// splitOverlaps moves each property of schema s (at JSON pointer ptr) that
// one of its patternProperties matches by a $ref to that very property
// into defs, under name.PROPERTY, recording old → new pointers in moved.
// It recurses into properties, items and the applicators.
func splitOverlaps(s any, ptr, name string, defs map[string]any, moved map[string]string) error {
	m, ok := s.(map[string]any)
	if !ok {
		return nil
	}
	props, _ := m["properties"].(map[string]any)
	pats, _ := m["patternProperties"].(map[string]any)
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		own := ptr + "/properties/" + pointerEscape(k)
		if err := splitOverlaps(props[k], own, name+"."+k, defs, moved); err != nil {
			return err
		}
		for p, v := range pats {
			re, err := regexp.Compile(p)
			if err != nil {
				return fmt.Errorf("patternProperties %q: %w", p, err)
			}
			if !re.MatchString(k) {
				continue
			}
			if ref, _ := v.(map[string]any)["$ref"].(string); ref != own {
				return fmt.Errorf("%s: property %q matches pattern %q, which names another schema", ptr, k, p)
			}
			def := name + "." + k
			if _, taken := defs[def]; taken {
				return fmt.Errorf("%s: $defs already has %s", ptr, def)
			}
			defs[def] = props[k]
			moved[own] = "#/$defs/" + pointerEscape(def)
			delete(props, k)
			break
		}
	}
	if items, ok := m["items"].(map[string]any); ok {
		if pre, ok := m["prefixItems"].([]any); ok && allEqual(pre, items) {
			delete(m, "prefixItems")
		}
		if err := splitOverlaps(items, ptr+"/items", name+"[]", defs, moved); err != nil {
			return err
		}
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		for i, e := range asList(m[k]) {
			if err := splitOverlaps(e, fmt.Sprintf("%s/%s/%d", ptr, k, i), fmt.Sprintf("%s.%s%d", name, k, i), defs, moved); err != nil {
				return err
			}
		}
	}
	return nil
}

// allEqual reports whether every element of list equals v.
func allEqual(list []any, v any) bool {
	for _, e := range list {
		if !reflect.DeepEqual(e, v) {
			return false
		}
	}
	return true
}

// rewriteRefs points every $ref in s that names a moved schema, or a
// schema inside one, at its new place.
func rewriteRefs(s any, moved map[string]string) {
	switch s := s.(type) {
	case map[string]any:
		if ref, ok := s["$ref"].(string); ok {
			// The longest moved pointer that ref lies in: a property moved
			// out of a property that moved too.
			best := ""
			for old := range moved {
				if (ref == old || strings.HasPrefix(ref, old+"/")) && len(old) > len(best) {
					best = old
				}
			}
			if best != "" {
				s["$ref"] = moved[best] + strings.TrimPrefix(ref, best)
			}
		}
		for _, v := range s {
			rewriteRefs(v, moved)
		}
	case []any:
		for _, e := range s {
			rewriteRefs(e, moved)
		}
	}
}
