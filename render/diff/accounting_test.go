package diff

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/schema/accounting"
)

func acctFile(t *testing.T, text string) *accounting.File {
	t.Helper()
	f, l := accounting.LoadBytes("spec.accounting.yaml", []byte(text))
	if f == nil {
		t.Fatal(l)
	}
	return f
}

const acctOld = `qos:
  - {name: scavenger, preemptMode: requeue}
  - {name: urgent, preempt: [scavenger], limits: {MaxWall: "1-00:00:00"}}
accounts:
  - {name: research, qos: [normal, scavenger, urgent]}
  - {name: vision, parent: research}
users:
  - {name: alice, defaultAccount: vision}
  - {name: carol, defaultAccount: research}
`

const acctNew = `qos:
  - {name: scavenger, preemptMode: requeue}
  - {name: urgent, preempt: [scavenger], limits: {MaxWall: "12:00:00"}}
accounts:
  - {name: research, qos: [normal, urgent]}
  - {name: vision, parent: research}
users:
  - {name: alice, defaultAccount: vision, partitions: [train]}
`

// TestAccountingBesideConf: an accounting change shows beside the
// slurm.conf change in every format, with who loses access and which
// limit tightens; it counts as a change but not for the impact.
func TestAccountingBesideConf(t *testing.T) {
	r := newRenderer(t)
	old := r.render(base, "24.11")
	new := r.render(edit(t, base, `PriorityTier: "10"`, `PriorityTier: "20"`), "24.11")
	rep, err := CompareWith(old, new, Options{SlurmVersion: "24.11", OldAccounting: acctFile(t, acctOld), NewAccounting: acctFile(t, acctNew)})
	if err != nil {
		t.Fatal(err)
	}
	var md, txt, js bytes.Buffer
	if err := rep.Markdown(&md); err != nil {
		t.Fatal(err)
	}
	if err := rep.Text(&txt); err != nil {
		t.Fatal(err)
	}
	if err := rep.JSON(&js); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| changed | `qos urgent` | `MaxWall` | `1-00:00:00` | `12:00:00` | ⚠️ lower limit |",
		"| changed | `account research` | `QOS` | `normal,scavenger,urgent` | `normal,urgent` | ⚠️ loses QOS scavenger |",
		"| removed | `user carol` |  |  |  | ⚠️ carol loses every association",
		"| removed | `association alice/vision` |  |  |  | ⚠️ alice keeps account vision only in partition train |",
		"| added | `association alice/vision/train` |",
		"**Accounting** (applied by a Slurm administrator",
		"partition `train` `PriorityTier`",
	} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md.String())
		}
	}
	if !strings.Contains(txt.String(), "  changed qos urgent MaxWall: 1-00:00:00 -> 12:00:00 (lower limit)") {
		t.Errorf("text lacks the tightened MaxWall:\n%s", txt.String())
	}
	if s := rep.Summary(); !strings.Contains(s, "accounting changes (sacctmgr), 4 restrict someone") {
		t.Errorf("summary %q", s)
	}
	var out struct {
		Accounting []AccountingChange `json:"accounting"`
	}
	if err := json.Unmarshal(js.Bytes(), &out); err != nil || len(out.Accounting) != len(rep.Accounting) {
		t.Errorf("json accounting: %v, %d changes, want %d", err, len(out.Accounting), len(rep.Accounting))
	}
	if rep.MaxImpact() != Reconfigure && rep.MaxImpact() != Restart {
		t.Errorf("max impact %s: the accounting changes must not raise it", rep.MaxImpact())
	}

	// Only the accounting file changes: still a change, with no empty
	// cluster table.
	only, err := CompareWith(old, old, Options{SlurmVersion: "24.11", OldAccounting: acctFile(t, acctOld), NewAccounting: acctFile(t, acctNew)})
	if err != nil {
		t.Fatal(err)
	}
	md.Reset()
	_ = only.Markdown(&md)
	if !only.HasChanges() || strings.Contains(md.String(), "| impact | change |") || !strings.Contains(md.String(), "**Accounting**") {
		t.Errorf("accounting-only report:\n%s", md.String())
	}
	if same, _ := CompareWith(old, old, Options{OldAccounting: acctFile(t, acctOld), NewAccounting: acctFile(t, acctOld)}); same.HasChanges() {
		t.Errorf("the same accounting file on both sides is a change: %+v", same.Accounting)
	}
}
