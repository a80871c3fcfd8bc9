package pulumimodel

import (
	"sort"
	"strings"
)

// renamed maps the cluster.json (REST) path of every field whose
// pulumi-gcp input name differs to the provider's name. Paths use "[]" for
// list elements. The bridge pluralises list-typed names (Terraform
// days_of_week becomes daysOfWeeks); a program that sends daysOfWeek fails
// the provider's type check. This is the one list of such names.
var renamed = map[string]string{
	"lustreExportConfig.daysOfWeek": "daysOfWeeks",
}

// PulumiPath returns the provider's path of a cluster.json path
// ("lustreExportConfig.daysOfWeek" → "lustreExportConfig.daysOfWeeks").
func PulumiPath(rest string) string {
	if n, ok := renamed[rest]; ok {
		return parent(rest) + n
	}
	return rest
}

// RESTPath is the inverse of PulumiPath.
func RESTPath(pulumi string) string {
	for rest, n := range renamed {
		if pulumi == parent(rest)+n {
			return rest
		}
	}
	return pulumi
}

func parent(path string) string {
	if i := strings.LastIndex(path, "."); i >= 0 {
		return path[:i+1]
	}
	return ""
}

// Renamed lists the cluster.json paths whose provider name differs.
func Renamed() []string {
	var out []string
	for k := range renamed {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// rename returns a deep copy of plain data with keys renamed by name,
// which maps a path (with "[]" for list elements) to the new key; keys
// for which drop returns true are left out.
func rename(v any, path string, name func(string) string, drop func(string) bool) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			if drop(k) {
				continue
			}
			p := k
			if path != "" {
				p = path + "." + k
			}
			np := name(p)
			out[np[strings.LastIndex(np, ".")+1:]] = rename(e, p, name, drop)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = rename(e, path+"[]", name, drop)
		}
		return out
	}
	return v
}

func keepAll(string) bool { return false }

// reserved reports the keys the engine or a bridged provider adds to
// recorded inputs ("__defaults"); they are never spec fields.
func reserved(k string) bool { return strings.HasPrefix(k, "__") }

// ToPulumi renames a request body's fields to the provider's input names.
func ToPulumi(body map[string]any) map[string]any {
	return rename(body, "", PulumiPath, keepAll).(map[string]any)
}

// FromPulumi turns inputs recorded in a stack's state back into request
// body fields: "__"-prefixed keys are dropped (a bridged provider's Check
// adds "__defaults" at every level) and provider names become API names.
func FromPulumi(inputs map[string]any) map[string]any {
	return rename(inputs, "", RESTPath, reserved).(map[string]any)
}
