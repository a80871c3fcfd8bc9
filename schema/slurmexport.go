package schema

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/slurmspec/slurmspec/schema/catalog"
)

// configDefNames are the names of the exported definitions of the three
// config maps, in configScopes order.
var configDefNames = [...]string{"GlobalConfig", "PartitionConfig", "NodeConfig"}

// configHomes are the CUE definitions and fields that hold the maps.
var configHomes = [...]string{"#SlurmSpec", "#Partition", "#NodeSet"}

// keyPattern matches a key name in any letter case, anchored.
func keyPattern(name string) string { return "^" + reCI(name) + "$" }

// cueSlurmConfig writes the CUE definitions of the three config maps for
// release v, to be appended to cluster.cue. A map's keys are looked up, in
// lower case as Slurm compares them, in a definition that holds each key's
// value constraint and, for a reserved key, its reason (as a string no
// slurm.conf value can equal): an unknown key is an undefined field, a
// reserved key a conflict that states why. The canonical spellings are
// declared too, with their descriptions. One pattern per map keeps cue vet
// fast: CUE compares every pattern constraint with every other.
func cueSlurmConfig(v catalog.Version) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "\n// slurm.conf keys and values of Slurm %s, generated from the catalog\n", v)
	fmt.Fprintf(&b, "// (schema/catalog) by `slurmspec schema --format cue --slurm-version %s`.\n", v)
	b.WriteString("// Keys match in any letter case, as in slurm.conf.\n")
	for i := range configScopes {
		fmt.Fprintf(&b, "%s: config?: #%s\n", configHomes[i], configDefNames[i])
	}
	for i, scope := range configScopes {
		cs := buildConfigScope(scope, v)
		fmt.Fprintf(&b, "\n#%s: {\n", configDefNames[i])
		for _, k := range cs.Keys {
			if d := KeyDescription(k.Param); d != "" {
				fmt.Fprintf(&b, "\t// %s\n", d)
			}
			fmt.Fprintf(&b, "\t%s?: _\n", k.Param.Name)
		}
		fmt.Fprintf(&b, "\t[K=string]: #%sValues[strings.ToLower(K)]\n}\n", configDefNames[i])
		fmt.Fprintf(&b, "\n#%sValues: {\n", configDefNames[i])
		for _, k := range cs.Keys {
			fmt.Fprintf(&b, "\t%s: %s\n", cueString(strings.ToLower(k.Param.Name)), cueRule(k.Rule))
		}
		for _, r := range cs.Reserved {
			msg := fmt.Sprintf("reserved-key: %s is reserved: %s", r.Name, r.Reason)
			fmt.Fprintf(&b, "\t%s: %s\n", cueString(strings.ToLower(r.Name)), cueString(msg))
		}
		b.WriteString("}\n")
	}
	return b.Bytes()
}

func cueRule(r valueRule) string {
	parts := []string{"string"}
	for _, m := range r.Match {
		parts = append(parts, "=~"+cueString(m))
	}
	for _, m := range r.NotMatch {
		parts = append(parts, "!~"+cueString(m))
	}
	return strings.Join(parts, " & ")
}

// cueString writes s as a CUE string literal (JSON escapes are valid CUE).
func cueString(s string) string {
	q := strconv.Quote(s)
	return q
}

// jsonSlurmConfig returns the JSON Schema $defs of the three config maps
// for release v, by definition name. Canonical key names are properties
// (what editors offer, with a description for hover); every spelling in
// another letter case is a patternProperties entry that refers to the
// same schema, so completion lists each key once; reserved keys are
// refused by pattern, with their reason as the description.
func jsonSlurmConfig(v catalog.Version) map[string]any {
	out := map[string]any{}
	for i, scope := range configScopes {
		def := configDefNames[i]
		cs := buildConfigScope(scope, v)
		props := map[string]any{}
		patterns := map[string]any{}
		for _, k := range cs.Keys {
			props[k.Param.Name] = jsonKeySchema(k)
			patterns[keyPattern(k.Param.Name)] = map[string]any{"$ref": "#/$defs/" + def + "/properties/" + k.Param.Name}
		}
		for _, r := range cs.Reserved {
			msg := fmt.Sprintf("%s is reserved: %s.", r.Name, r.Reason)
			// No value passes: every config value is 1-1024 characters
			// (SlurmConfig), and only "" matches ^$. A pattern rather than
			// a false schema, so that editors show the reason
			// (patternErrorMessage) instead of a generic "not allowed".
			patterns[keyPattern(r.Name)] = map[string]any{"type": "string", "pattern": "^$", "patternErrorMessage": msg,
				"description": msg, "markdownDescription": "**Reserved.** " + msg}
		}
		out[def] = map[string]any{
			"type":                 "object",
			"description":          fmt.Sprintf("slurm.conf keys of %s (Slurm %s). Keys match in any letter case.", scopeWhere(scope), v),
			"allOf":                []any{map[string]any{"$ref": "#/$defs/SlurmConfig"}},
			"properties":           props,
			"patternProperties":    patterns,
			"additionalProperties": false,
		}
	}
	return out
}

func scopeWhere(s catalog.Scope) string {
	switch s {
	case catalog.ScopePartition:
		return "a PartitionName line"
	case catalog.ScopeNode:
		return "a NodeName line"
	}
	return "the global part of slurm.conf"
}

func jsonKeySchema(k configKey) map[string]any {
	s := map[string]any{"type": "string"}
	desc := KeyDescription(k.Param)
	md := KeyMarkdown(k.Param, k.Status)
	if k.Status.Problem() {
		desc = strings.TrimSpace(desc + " (" + k.Status.String() + ")")
		s["deprecated"] = true
	}
	if desc != "" {
		s["description"] = desc
	}
	s["markdownDescription"] = md
	s["patternErrorMessage"] = fmt.Sprintf("%s takes %s in Slurm %s (slurmspec explain %s)", k.Param.Name, valueWords(k.Param), k.Status.Version, k.Param.Name)
	var all []any
	for i, m := range k.Rule.Match {
		if i == 0 {
			s["pattern"] = m
			continue
		}
		all = append(all, map[string]any{"pattern": m})
	}
	for _, m := range k.Rule.NotMatch {
		all = append(all, map[string]any{"not": map[string]any{"pattern": m}})
	}
	if len(all) > 0 {
		s["allOf"] = all
	}
	if len(k.Rule.Examples) > 0 {
		ex := make([]any, len(k.Rule.Examples))
		for i, e := range k.Rule.Examples {
			ex[i] = e
		}
		s["examples"] = ex
	}
	return s
}

// valueWords says briefly what a key's value is.
func valueWords(p *catalog.Param) string {
	switch p.Kind {
	case catalog.KindEnum:
		return "one of its values"
	case catalog.KindPlugin:
		return "one of its plugins"
	case catalog.KindList:
		return "a comma-separated list of its values"
	}
	return kindText(p)
}
