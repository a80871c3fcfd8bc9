package driver

import (
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
)

// Step is what a preview plans for one resource.
type Step struct {
	// Name and Type are the resource's logical name and type token.
	Name, Type string
	// Op is update, replace, delete, create, ... (apitype.OpType); a
	// replacement is "replace".
	Op apitype.OpType
	// DeleteFirst: the replacement deletes the old resource before it
	// creates the new one.
	DeleteFirst bool
	// Keys are the inputs that cause a replacement.
	Keys []string
}

// Plan is what a preview plans.
type Plan struct {
	Summary ChangeSummary
	// Steps are the resources that change, in the engine's order.
	Steps []Step
}

// Destroys returns the steps that delete a resource: replacements and
// deletions.
func (p *Plan) Destroys() []Step {
	var out []Step
	for _, s := range p.Steps {
		if s.Op == apitype.OpReplace || s.Op == apitype.OpDelete {
			out = append(out, s)
		}
	}
	return out
}

// Step returns the step of a resource, or nil when it does not change.
func (p *Plan) Step(name string) *Step {
	for i := range p.Steps {
		if p.Steps[i].Name == name {
			return &p.Steps[i]
		}
	}
	return nil
}

// FoldSteps folds the engine's step events into one Step per resource: the
// steps of a replacement (create-replacement, replace, delete-replaced)
// become one "replace", deleting first when delete-replaced comes before
// create-replacement.
func FoldSteps(evs []apitype.StepEventMetadata) []Step {
	var out []Step
	index := map[string]int{}
	for _, m := range evs {
		if m.Op == apitype.OpSame || m.Op == apitype.OpRead || strings.HasSuffix(m.Type, "pulumi:providers:gcp") || m.Type == "pulumi:pulumi:Stack" {
			continue
		}
		i, seen := index[m.URN]
		if !seen {
			name := m.URN[strings.LastIndex(m.URN, "::")+2:]
			out = append(out, Step{Name: name, Type: m.Type, Op: m.Op})
			i = len(out) - 1
			index[m.URN] = i
		}
		st := &out[i]
		switch m.Op {
		case apitype.OpDeleteReplaced:
			if !seen {
				st.DeleteFirst = true
			}
			st.Op = apitype.OpReplace
		case apitype.OpCreateReplacement, apitype.OpReplace:
			st.Op = apitype.OpReplace
		}
		if len(m.Keys) > 0 {
			st.Keys = m.Keys
		}
	}
	return out
}
