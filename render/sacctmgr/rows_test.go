package sacctmgr_test

import (
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/render/sacctmgr"
)

// TestFromRows: a state built from rows is a whole database, like a
// dump's: a field a row leaves out has Slurm's default (so the plan sets
// Fairshare where the file declares one, and nothing where the default is
// declared), an account's parent comes from its own association, and
// associations of two clusters are refused.
func TestFromRows(t *testing.T) {
	row := func(k sacctmgr.Kind, kv ...string) sacctmgr.Row {
		r := sacctmgr.Row{Kind: k, Fields: map[string]string{}}
		for i := 0; i+1 < len(kv); i += 2 {
			r.Fields[kv[i]] = kv[i+1]
		}
		return r
	}
	rows := []sacctmgr.Row{
		row(sacctmgr.KindQOS, "Name", "normal"),
		row(sacctmgr.KindAccount, "Account", "root", "Description", "default root account"),
		row(sacctmgr.KindAccount, "Account", "ops", "Description", "ops"),
		row(sacctmgr.KindAssoc, "Cluster", "train", "Account", "root"),
		row(sacctmgr.KindAssoc, "Cluster", "train", "Account", "ops", "Parent", "root"),
		row(sacctmgr.KindUser, "User", "root", "DefaultAccount", "root", "AdminLevel", "Administrator"),
		row(sacctmgr.KindAssoc, "Cluster", "train", "Account", "root", "User", "root"),
	}
	cur, err := sacctmgr.FromRows(rows)
	if err != nil {
		t.Fatal(err)
	}
	want, err := sacctmgr.FromRows(append(rows[:4:4],
		row(sacctmgr.KindAssoc, "Cluster", "train", "Account", "ops", "Parent", "root", "Fairshare", "10"),
		rows[5], rows[6]))
	if err != nil {
		t.Fatal(err)
	}
	p, err := sacctmgr.Compare(cur, want)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Ops) != 1 || p.Ops[0].Entity != "account ops" || len(p.Ops[0].Changes) != 1 || p.Ops[0].Changes[0].Field != "Fairshare" {
		t.Errorf("plan %+v, want account ops's Fairshare alone", p.Ops)
	}
	if e := cur.Get(sacctmgr.Key{Kind: sacctmgr.KindAccount, Name: "ops"}); e == nil || e.Fields["Parent"] != "root" || e.Fields["Description"] != "ops" {
		t.Errorf("account ops: %+v", e)
	}
	_, err = sacctmgr.FromRows(append(rows, row(sacctmgr.KindAssoc, "Cluster", "other", "Account", "root")))
	if err == nil || !strings.Contains(err.Error(), "associations of 2 clusters (other, train)") {
		t.Errorf("two clusters: %v", err)
	}
	if _, err := sacctmgr.FromRows([]sacctmgr.Row{row(sacctmgr.KindQOS)}); err == nil {
		t.Error("a QOS without a name: no error")
	}
}
