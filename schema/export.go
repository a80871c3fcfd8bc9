package schema

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/format"
	"cuelang.org/go/cue/parser"
	"cuelang.org/go/cue/token"
	"cuelang.org/go/encoding/jsonschema"

	"github.com/slurmspec/slurmspec/compiler/cuectx"
	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// JSONSchemaID is the $id of the exported JSON Schema.
const JSONSchemaID = "https://github.com/slurmspec/slurmspec/schema/cluster.schema.json"

// JSONSchema exports #Cluster as a JSON Schema (draft 2020-12), for editors,
// with the slurm.conf keys and values of the newest Slurm release in the
// three config maps. Every property is offered
// in the API's camelCase and accepted in snake_case too, as the loader
// accepts both, and a "$schema" property is allowed so that a spec can
// name the schema.
func JSONSchema() ([]byte, error) { return JSONSchemaFor(catalog.Newest()) }

// JSONSchemaFor is JSONSchema with the slurm.conf keys and values of Slurm
// release v (an invalid v means the newest).
func JSONSchemaFor(release catalog.Version) ([]byte, error) {
	if !release.Valid() {
		release = catalog.Newest()
	}
	v := cuectx.New().CompileBytes(source, cue.Filename("schema/cluster.cue"))
	if err := v.Err(); err != nil {
		return nil, fmt.Errorf("compiling schema: %w", err)
	}
	expr, err := jsonschema.Generate(v.LookupPath(cue.ParsePath("#Cluster")), &jsonschema.GenerateConfig{})
	if err != nil {
		return nil, fmt.Errorf("generating JSON Schema: %w", err)
	}
	ctx := cuectx.New()
	gen := ctx.BuildExpr(expr)
	raw, err := gen.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("encoding JSON Schema: %w", err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("decoding generated JSON Schema: %w", err)
	}
	defs, _ := doc["$defs"].(map[string]any)
	if defs == nil {
		return nil, fmt.Errorf("generated JSON Schema has no $defs")
	}
	for i, home := range configHomes {
		d, _ := defs[strings.TrimPrefix(home, "#")].(map[string]any)
		props, _ := d["properties"].(map[string]any)
		if props == nil {
			return nil, fmt.Errorf("generated JSON Schema lacks %s", home)
		}
		props["config"] = map[string]any{"$ref": "#/$defs/" + configDefNames[i]}
	}
	for name, def := range jsonSlurmConfig(release) {
		defs[name] = def
	}
	if missing := decorate(doc, defs); len(missing) > 0 {
		return nil, fmt.Errorf("schema/fields.tsv lacks a description of %s", strings.Join(missing, ", "))
	}
	doc["$id"] = JSONSchemaID
	doc["title"] = "slurmspec cluster spec (ModelDevelopmentCluster)"
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("encoding JSON Schema: %w", err)
	}
	return b.Bytes(), nil
}

// fieldsTSV describes every field of the spec for the JSON Schema.
//
//go:embed fields.tsv
var fieldsTSV string

// fieldDescriptions reads fields.tsv: path (or path=VALUE) -> text.
func fieldDescriptions() map[string]string {
	m := map[string]string{}
	for _, line := range strings.Split(fieldsTSV, "\n") {
		path, text, ok := strings.Cut(line, "\t")
		if !ok || strings.HasPrefix(line, "#") || path == "path" {
			continue
		}
		m[path] = strings.TrimSpace(text)
	}
	return m
}

// Label patterns without \p{..} classes, which only some validators read:
// ASCII lower case and digits as the API states them, and any character
// from U+00DF up for the international letters it also allows (looser
// than the API; lint checks labels exactly).
const (
	jsonLabelKey   = "^[a-z\u00df-\uffff][a-z0-9\u00df-\uffff_-]{0,62}$"
	jsonLabelValue = "^[a-z0-9\u00df-\uffff_-]{0,63}$"
)

// decorate finishes the generated JSON Schema for editors: every field
// gets its description (and markdownDescription, and enumDescriptions for
// enums) from fields.tsv; the snake_case spelling of a field becomes a
// patternProperties entry that refers to the camelCase property, so that
// completion offers each field once while both spellings validate; and
// "required" accepts either spelling. It reports fields without a
// description.
func decorate(doc, defs map[string]any) []string {
	fields := fieldDescriptions()
	var missing []string
	for name, d := range defs {
		if m, ok := d.(map[string]any); ok && !isConfigDef(name) {
			delete(m, "description") // CUE comments, written for the schema's readers
		}
	}
	if lab, ok := defs["Labels"].(map[string]any); ok {
		pp, _ := lab["patternProperties"].(map[string]any)
		for k, v := range pp {
			delete(pp, k)
			pp[jsonLabelKey] = v
		}
	}
	if lv, ok := defs["LabelValue"].(map[string]any); ok {
		lv["pattern"] = jsonLabelValue
	}
	// CUE's generator turns a field that a condition may forbid (written
	// `if ... {field?: error(...)}`) into `false`, refusing it always;
	// the condition is lint's, the field's own type is this.
	if np, ok := defs["NodePool"].(map[string]any); ok {
		if props, ok := np["properties"].(map[string]any); ok && props["flexStartMaxDuration"] == false {
			props["flexStartMaxDuration"] = map[string]any{"$ref": "#/$defs/FlexDuration"}
		}
	}
	done := map[string]bool{}
	var walk func(s map[string]any, path, ptr string)
	walk = func(s map[string]any, path, ptr string) {
		if ref, ok := s["$ref"].(string); ok && strings.HasPrefix(ref, "#/$defs/") {
			name := strings.TrimPrefix(ref, "#/$defs/")
			if d, ok := defs[name].(map[string]any); ok && !done[name] && !isConfigDef(name) {
				done[name] = true
				walk(d, path, ref)
			}
		}
		for _, k := range []string{"allOf", "anyOf", "oneOf"} {
			for i, e := range asList(s[k]) {
				if m, ok := e.(map[string]any); ok {
					walk(m, path, fmt.Sprintf("%s/%s/%d", ptr, k, i))
				}
			}
		}
		if items, ok := s["items"].(map[string]any); ok {
			walk(items, path+"[]", ptr+"/items")
		}
		props, _ := s["properties"].(map[string]any)
		names := make([]string, 0, len(props))
		for name := range props {
			names = append(names, name)
		}
		sort.Strings(names)
		snakeOf := map[string]string{}
		for _, name := range names {
			if b, ok := props[name].(bool); ok {
				// A boolean schema cannot carry a description.
				props[name] = map[string]any{}
				if !b {
					props[name] = map[string]any{"not": map[string]any{}}
				}
			}
			p, ok := props[name].(map[string]any)
			if !ok {
				continue
			}
			fp := name
			if path != "" {
				fp = path + "." + name
			}
			if d := fields[fp]; d != "" {
				p["description"] = d
				p["markdownDescription"] = d + "\n\n`" + fp + "`"
			} else {
				missing = append(missing, fp)
			}
			if enum := enumOf(p); len(enum) > 0 {
				var descs []any
				for _, e := range enum {
					descs = append(descs, fields[fp+"="+fmt.Sprint(e)])
				}
				target := p
				if items, ok := p["items"].(map[string]any); ok && p["enum"] == nil {
					target = items
				}
				target["enumDescriptions"] = descs
				target["markdownEnumDescriptions"] = descs
			}
			walk(p, fp, ptr+"/properties/"+pointerEscape(name))
			if snake := SnakeCase(name); snake != name {
				snakeOf[name] = snake
				pp, _ := s["patternProperties"].(map[string]any)
				if pp == nil {
					pp = map[string]any{}
					s["patternProperties"] = pp
				}
				pp["^"+snake+"$"] = map[string]any{"$ref": ptr + "/properties/" + pointerEscape(name)}
			}
		}
		relaxRequired(s, snakeOf)
	}
	walk(doc, "", "#")
	sort.Strings(missing)
	return missing
}

func isConfigDef(name string) bool {
	for _, d := range configDefNames {
		if d == name {
			return true
		}
	}
	return name == "SlurmConfig"
}

func enumOf(p map[string]any) []any {
	if e := asList(p["enum"]); len(e) > 0 {
		return e
	}
	if items, ok := p["items"].(map[string]any); ok {
		return asList(items["enum"])
	}
	return nil
}

// pointerEscape escapes a property name for a JSON pointer (RFC 6901).
func pointerEscape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// relaxRequired lets either spelling of a required field satisfy it.
func relaxRequired(n map[string]any, snakeOf map[string]string) {
	req, ok := n["required"].([]any)
	if !ok {
		return
	}
	var keep, anyOf []any
	for _, r := range req {
		name, _ := r.(string)
		s, has := snakeOf[name]
		if !has {
			keep = append(keep, r)
			continue
		}
		anyOf = append(anyOf, map[string]any{"anyOf": []any{
			map[string]any{"required": []any{name}},
			map[string]any{"required": []any{s}},
		}})
	}
	if len(keep) > 0 {
		n["required"] = keep
	} else {
		delete(n, "required")
	}
	if len(anyOf) > 0 {
		n["allOf"] = append(asList(n["allOf"]), anyOf...)
	}
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// SnakeCase is the inverse of load.CamelCase for API field names.
func SnakeCase(name string) string {
	var b []byte
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c >= 'A' && c <= 'Z' {
			if i > 0 {
				b = append(b, '_')
			}
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	s := string(b)
	if load.CamelCase(s) != name {
		return name // not a plain camelCase name; keep it
	}
	return s
}

// CUESource returns the schema as CUE, formatted, for `cue vet -d '#Cluster'`,
// with the slurm.conf keys and values of the newest Slurm release in the
// three config maps. As the loader does, it accepts every
// field in snake_case too (node_pool_ids), and it checks the cross
// references (#References) on the spec itself, which slurmspec evaluates
// in Go instead.
func CUESource() ([]byte, error) { return CUESourceFor(catalog.Newest()) }

// CUESourceFor is CUESource with the slurm.conf keys and values of Slurm
// release v (an invalid v means the newest).
func CUESourceFor(v catalog.Version) ([]byte, error) {
	if !v.Valid() {
		v = catalog.Newest()
	}
	src := append(append([]byte(nil), source...), cueSlurmConfig(v)...)
	f, err := parser.ParseFile("cluster.cue", src, parser.ParseComments)
	if err != nil {
		return nil, fmt.Errorf("parsing schema: %w", err)
	}
	// The references read #Cluster's fields, so they go into its body.
	refs, err := parser.ParseFile("references.cue", cueReferences, parser.ParseComments)
	if err != nil {
		return nil, fmt.Errorf("parsing references: %w", err)
	}
	cluster := topStruct(f, "#Cluster")
	if cluster == nil {
		return nil, fmt.Errorf("the schema lacks #Cluster")
	}
	cluster.Elts = append(cluster.Elts, topStruct(refs, "#Cluster").Elts...)
	addSnakeAliases(f)
	out, err := format.Node(f)
	if err != nil {
		return nil, fmt.Errorf("formatting schema: %w", err)
	}
	return out, nil
}

// cueReferences states the cross references on the spec: the ids of
// #Cluster projected as #References wants them.
const cueReferences = `
#Cluster: {
// The cross references of #References, checked on the spec itself.
_references: #References & {
	pools: {for i, p in nodePools {"\(i)": p.id}}
	partitions: {for i, p in orchestratorSpec.slurmSpec.partitions {"\(i)": {id: p.id, nodePoolIds: {for j, r in p.nodePoolIds {"\(j)": r}}}}}
	if orchestratorSpec.slurmSpec.nodeSets != _|_ {
		nodeSets: {for i, s in orchestratorSpec.slurmSpec.nodeSets {"\(i)": s.nodePoolId}}
	}
	if orchestratorSpec.slurmSpec.loginNodePoolId != _|_ {
		loginNodePoolId: orchestratorSpec.slurmSpec.loginNodePoolId
	}
	if orchestratorSpec.slurmSpec.defaultPartitionId != _|_ {
		defaultPartitionId: orchestratorSpec.slurmSpec.defaultPartitionId
	}
}
}
`

// topStruct returns the struct of a top-level field of f, or nil.
func topStruct(f *ast.File, name string) *ast.StructLit {
	for _, d := range f.Decls {
		if fld, ok := d.(*ast.Field); ok {
			if n, _, _ := ast.LabelName(fld.Label); n == name {
				st, _ := fld.Value.(*ast.StructLit)
				return st
			}
		}
	}
	return nil
}

// addSnakeAliases gives every camelCase field of the spec's structs its
// snake_case spelling: `node_pool_ids?: _` and, when it is given,
// `nodePoolIds: node_pool_ids`, so that the camelCase field's constraints
// (and requiredness) apply to whichever spelling the spec uses.
func addSnakeAliases(f *ast.File) {
	generated := map[ast.Node]bool{}
	ast.Walk(f, func(n ast.Node) bool {
		if generated[n] {
			return false
		}
		switch n := n.(type) {
		case *ast.Field:
			if name, _, _ := ast.LabelName(n.Label); name == "#References" {
				return false // a projection of the ids, not the spec
			}
		case *ast.StructLit:
			var elts []ast.Decl
			for _, d := range n.Elts {
				elts = append(elts, d)
				fld, ok := d.(*ast.Field)
				if !ok {
					continue
				}
				name, isIdent, err := ast.LabelName(fld.Label)
				if err != nil || !isIdent || strings.HasPrefix(name, "#") || strings.HasPrefix(name, "_") {
					continue
				}
				snake := SnakeCase(name)
				if snake == name {
					continue
				}
				alias := &ast.Field{Label: ast.NewIdent(snake), Constraint: token.OPTION, Value: ast.NewIdent("_")}
				copyTo := &ast.Comprehension{
					Clauses: []ast.Clause{&ast.IfClause{Condition: &ast.BinaryExpr{X: ast.NewIdent(snake), Op: token.NEQ, Y: &ast.BottomLit{}}}},
					Value:   ast.NewStruct(ast.NewIdent(name), ast.NewIdent(snake)),
				}
				generated[alias], generated[copyTo] = true, true
				elts = append(elts, alias, copyTo)
			}
			n.Elts = elts
		}
		return true
	}, nil)
}
