package accounting

import (
	"bytes"
	"encoding/json"
	"fmt"

	"cuelang.org/go/cue"
	"cuelang.org/go/encoding/jsonschema"

	"github.com/slurmspec/slurmspec/compiler/cuectx"
	"github.com/slurmspec/slurmspec/compiler/escape"
)

// JSONSchemaID is the $id of the exported JSON Schema.
const JSONSchemaID = "https://slurmspec.dev/schema/accounting.schema.json"

// JSONSchema exports the schema of the accounting file as JSON Schema
// (draft 2020-12), for editors. Fields are camelCase, as the schema states
// them; the loader also accepts snake_case, which this export does not.
func JSONSchema() ([]byte, error) {
	v := cuectx.New().CompileString(cueSource, cue.Filename("accounting.cue"))
	if err := v.Err(); err != nil {
		return nil, fmt.Errorf("compile the accounting schema: %w", err)
	}
	expr, err := jsonschema.Generate(v.LookupPath(cue.ParsePath("#Accounting")), &jsonschema.GenerateConfig{})
	if err != nil {
		return nil, fmt.Errorf("generate the accounting JSON Schema: %w", err)
	}
	raw, err := cuectx.New().BuildExpr(expr).MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("encode the accounting JSON Schema: %w", err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("decode the generated JSON Schema: %w", err)
	}
	doc["$id"] = JSONSchemaID
	doc["title"] = "slurmspec accounting file (QOS, accounts and users)"
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("encode the accounting JSON Schema: %w", err)
	}
	// The patterns name control, bidirectional and zero-width characters
	// (the description's): written as \u escapes, which JSON reads back
	// the same, so that the file shows what it holds.
	var out bytes.Buffer
	for _, r := range b.String() {
		if r != '\n' && escape.Hidden(r) {
			fmt.Fprintf(&out, `\u%04x`, r)
			continue
		}
		out.WriteRune(r)
	}
	return out.Bytes(), nil
}
