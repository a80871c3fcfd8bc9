package schema

// One round: what a validation leaves unsound, for the compiler to build
// the IR of the rest and lint to run on it (compiler.CompilePartial).

import (
	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/compiler/load"
)

// Result is what a validation found: every problem, and which parts of the
// spec they leave without a meaning.
type Result struct {
	// Diags are the schema's diagnostics.
	Diags diag.List
	// Unsound holds the path of every error (a value refused, a field
	// missing or unknown; a list or object of the wrong type covers all
	// below it) and, for an unknown field that is a likely misspelling,
	// the path of the field it probably meant, which the spec then does
	// not set as intended. Empty when Diags has no error; the root path ""
	// when the spec is not an object at all.
	Unsound *ir.Unsound
}

// Validate validates a loaded document: Check, with the unsound paths that
// let the compiler build the IR of the rest (compiler.CompilePartial) and
// lint run on what is sound.
func (s *Schema) Validate(doc *load.Document) Result {
	c := s.run(doc, true)
	u := &ir.Unsound{}
	type valueAt struct {
		path string
		key  diag.Pos
	}
	var values []valueAt
	for _, d := range c.diags {
		if d.Severity != diag.Error {
			continue
		}
		if key, ok := s.pairKey(doc, d); ok {
			values = append(values, valueAt{d.Path, key})
			continue
		}
		u.Add(d.Path) // an unknown field too: nothing below it was checked
		if d.Rule == "schema-provisioning" {
			// The constraint ties a pool's provisioningModel to its
			// reservationAffinity and flexStartMaxDuration: which is
			// wrong is not known.
			if p, err := load.ParsePath(d.Path); err == nil && len(p) >= 2 {
				u.Add(p[:2].Key("provisioningModel").String())
			}
		}
	}
	for _, p := range c.meant {
		u.Add(p)
	}
	for _, v := range values {
		u.AddValue(v.path, v.key) // unless the key was refused too
	}
	return Result{Diags: c.diags, Unsound: u}
}

// pairKey returns the position of the key of the map pair (a slurm.conf
// config or labels entry) whose value alone an error refuses; ok is false
// for any other error.
func (s *Schema) pairKey(doc *load.Document, d diag.Diagnostic) (key diag.Pos, ok bool) {
	if d.Rule == "schema-key" {
		return diag.Pos{}, false
	}
	p, err := load.ParsePath(d.Path)
	if err != nil || len(p) == 0 || p[len(p)-1].IsIndex || !s.Verbatim(p[:len(p)-1]) {
		return diag.Pos{}, false
	}
	parent, matched := doc.Root.Lookup(p[:len(p)-1])
	f := parent.Field(p[len(p)-1].Name)
	if matched != len(p)-1 || f == nil || f.Value.Kind == load.Object || f.Value.Kind == load.Array {
		return diag.Pos{}, false
	}
	return f.KeyPos, true
}

// uncovered drops the reference errors about a value that already has an
// error (an id of the wrong form cannot be declared either): one mistake,
// one report.
func (c *checker) uncovered(raw []rawError) []rawError {
	if len(raw) == 0 {
		return raw
	}
	has := map[string]bool{}
	for _, d := range c.diags {
		if d.Severity == diag.Error {
			has[d.Path] = true
		}
	}
	out := raw[:0]
	for _, r := range raw {
		if !has[r.path.String()] {
			out = append(out, r)
		}
	}
	return out
}
