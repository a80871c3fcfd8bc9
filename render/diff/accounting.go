package diff

// Accounting changes: the QOS, accounts, users and associations of the
// accounting file beside the spec (docs/accounting.md), which sacctmgr
// applies, not the API: they are listed apart from the cluster's changes,
// with who loses access and which limits tighten.

import (
	"fmt"
	"strings"

	"github.com/slurmspec/slurmspec/render/sacctmgr"
)

// AccountingChange is one change of the accounting file: an entity added
// or removed, or one field of an entity modified.
type AccountingChange struct {
	// Op is added, removed or changed.
	Op Op `json:"op"`
	// Entity names it: "qos urgent", "account vision", "user bob",
	// "association bob/vision/train".
	Entity string `json:"entity"`
	// Field is the sacctmgr field of a change (MaxWall, QOS, Parent …).
	Field string `json:"field,omitempty"`
	// Old and New are the values as the files write them; for an added
	// entity New lists its fields.
	Old string `json:"old,omitempty"`
	New string `json:"new,omitempty"`
	// Impact says who loses access (a removal, a QOS taken away) or
	// which limit tightens; empty when the change restricts no one.
	Impact string `json:"impact,omitempty"`
}

// accountingAppliedBy says who applies accounting changes.
const accountingAppliedBy = "a Slurm administrator on the login node, with sacctmgr: render's accounting/apply.sh, or the script of `slurmspec accounting plan`, which also removes"

// accountingChanges lists the changes between the two accounting files.
func accountingChanges(opt Options) []AccountingChange {
	if opt.OldAccounting == nil && opt.NewAccounting == nil {
		return nil
	}
	p := sacctmgr.Between(opt.OldAccounting, opt.NewAccounting)
	var out []AccountingChange
	for _, op := range p.Ops {
		switch op.Action {
		case sacctmgr.Add:
			var fields []string
			for _, c := range op.Changes {
				fields = append(fields, c.Field+"="+c.New)
			}
			out = append(out, AccountingChange{Op: OpAdded, Entity: op.Entity, New: strings.Join(fields, " ")})
		case sacctmgr.Remove:
			out = append(out, AccountingChange{Op: OpRemoved, Entity: op.Entity, Impact: op.Loses})
		case sacctmgr.Modify:
			for _, c := range op.Changes {
				out = append(out, AccountingChange{Op: OpChanged, Entity: op.Entity, Field: c.Field, Old: c.Old, New: c.New, Impact: c.Tightens})
			}
		}
	}
	return out
}

// accountingSummary is the summary's part for the accounting changes.
func (r *Report) accountingSummary() string {
	n := len(r.Accounting)
	s := fmt.Sprintf("%d accounting changes (sacctmgr)", n)
	if n == 1 {
		s = "1 accounting change (sacctmgr)"
	}
	if k := r.accountingImpacts(); k > 0 {
		s += fmt.Sprintf(", %d restrict someone", k)
	}
	return s
}

func (r *Report) accountingImpacts() int {
	k := 0
	for _, c := range r.Accounting {
		if c.Impact != "" {
			k++
		}
	}
	return k
}

// accountingMarkdown writes the accounting changes as a table.
func (r *Report) accountingMarkdown(b *strings.Builder) {
	if len(r.Accounting) == 0 {
		return
	}
	fmt.Fprintf(b, "\n**Accounting** (applied by %s)\n\n| change | entity | field | old | new | impact |\n|---|---|---|---|---|---|\n", cell(accountingAppliedBy))
	for _, c := range r.Accounting {
		impact := ""
		if c.Impact != "" {
			impact = "⚠️ " + cell(c.Impact)
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s |\n", c.Op, code(c.Entity), code(c.Field), code(c.Old), code(c.New), impact)
	}
}

// accountingText writes the accounting changes for a terminal.
func (r *Report) accountingText(b *strings.Builder) {
	if len(r.Accounting) == 0 {
		return
	}
	fmt.Fprintf(b, "\naccounting (applied by %s):\n", accountingAppliedBy)
	for _, c := range r.Accounting {
		line := string(c.Op) + " " + c.Entity
		switch {
		case c.Op == OpChanged:
			line += " " + c.Field + ": " + orQuotes(c.Old) + " -> " + orQuotes(c.New)
		case c.New != "":
			line += ": " + c.New
		}
		if c.Impact != "" {
			line += " (" + c.Impact + ")"
		}
		b.WriteString("  " + oneLine(line) + "\n")
	}
}

func orQuotes(s string) string {
	if s == "" {
		return `""`
	}
	return s
}
