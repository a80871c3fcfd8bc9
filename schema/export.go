package schema

import (
	"bytes"
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
	"github.com/slurmspec/slurmspec/schema/slurmconf"
)

// JSONSchemaID is the $id of the exported JSON Schema.
const JSONSchemaID = "https://github.com/slurmspec/slurmspec/schema/cluster.schema.json"

// JSONSchema exports #Cluster as a JSON Schema (draft 2020-12), for editors,
// with the slurm.conf keys and values of Slurm release v (an invalid v
// means the newest) in the three config maps. Every property is offered
// in the API's camelCase and accepted in snake_case too, as the loader
// accepts both, and a "$schema" property is allowed so that a spec can
// name the schema.
func JSONSchema(release slurmconf.Version) ([]byte, error) {
	if !release.Valid() {
		release = slurmconf.Newest()
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
	addSnakeCase(doc)
	doc["$id"] = JSONSchemaID
	doc["title"] = "slurmspec cluster spec (ModelDevelopmentCluster)"
	if props, ok := doc["properties"].(map[string]any); ok {
		props["$schema"] = map[string]any{"type": "string", "description": "The JSON Schema this spec follows."}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("encoding JSON Schema: %w", err)
	}
	return b.Bytes(), nil
}

// addSnakeCase adds the snake_case spelling of every camelCase property,
// recursively, and relaxes "required" so that either spelling satisfies it.
func addSnakeCase(node any) {
	switch n := node.(type) {
	case []any:
		for _, it := range n {
			addSnakeCase(it)
		}
	case map[string]any:
		for _, v := range n {
			addSnakeCase(v)
		}
		props, ok := n["properties"].(map[string]any)
		if !ok {
			return
		}
		names := make([]string, 0, len(props))
		for name := range props {
			names = append(names, name)
		}
		sort.Strings(names)
		snakeOf := map[string]string{}
		for _, name := range names {
			if s := SnakeCase(name); s != name {
				props[s] = props[name]
				snakeOf[name] = s
			}
		}
		req, ok := n["required"].([]any)
		if !ok {
			return
		}
		var keep []any
		var anyOf []any
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
// with the slurm.conf keys and values of Slurm release v (an invalid v means
// the newest) in the three config maps. As the loader does, it accepts every
// field in snake_case too (node_pool_ids), and it checks the cross
// references (#References) on the spec itself, which slurmspec evaluates
// in Go instead.
func CUESource(v slurmconf.Version) ([]byte, error) {
	if !v.Valid() {
		v = slurmconf.Newest()
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
