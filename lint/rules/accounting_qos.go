package rules

import (
	"strings"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/schema/accounting"
)

// AccountingPartitionNoQOS reports, under enforced QOS, a partition whose
// AllowQos and DenyQos leave no QOS to any association that may run there.
var AccountingPartitionNoQOS = &lint.Rule{
	ID:       "accounting-partition-no-qos",
	Severity: diag.Warning,
	Summary:  "Under AccountingStorageEnforce=qos no user of the accounting file has a QOS the partition allows",
	Doc: doc("With AccountingStorageEnforce holding qos (or all) a job's QOS must be in the QOS list of the user's "+
		"association, and a partition's AllowQos (or DenyQos) then filters it: a job in the partition runs only for "+
		"a user whose association, in an account the partition allows, has a QOS AllowQos names (or, without "+
		"AllowQos, one DenyQos does not name: slurmctld ignores DenyQos when AllowQos is set). An association's QOS list is the user's qos, or else the nearest account up the tree that sets qos, "+
		"or else root's: normal. When no association that can run in the partition has such a QOS, no job runs "+
		"there: one without --qos pends for ever (\"Job's QOS not permitted to use this partition\"), one asking "+
		"for an allowed QOS is refused (\"Invalid qos specification\").",
		"config: {AccountingStorageEnforce: \"associations,limits,qos\"}\npartitions:\n- {id: urgent, nodePoolIds: [cpu], config: {AllowQos: high}}\n"+
			"# accounting file\nqos: [{name: high}]\naccounts: [{name: research, qos: [normal]}]\nusers: [{name: alice, defaultAccount: research}]",
		"config: {AccountingStorageEnforce: \"associations,limits,qos\"}\npartitions:\n- {id: urgent, nodePoolIds: [cpu], config: {AllowQos: high}}\n"+
			"# accounting file\nqos: [{name: high}]\naccounts: [{name: research, qos: [normal, high]}]\nusers: [{name: alice, defaultAccount: research}]"),
	Check: func(p *lint.Pass) {
		f := p.Options.Accounting
		if f == nil || len(f.Users) == 0 || p.Cluster.PartitionsUnknown() {
			return
		}
		e := effective(p)
		if e.user("AccountingStorageEnforce") == nil || !e.has("AccountingStorageEnforce", "qos", "all") {
			return
		}
		n := declared(f)
		for _, part := range p.Cluster.Slurm.Partitions {
			allowQ, denyQ := lookupKV(part.Config, "AllowQos"), lookupKV(part.Config, "DenyQos")
			allowA, denyA := lookupKV(part.Config, "AllowAccounts"), lookupKV(part.Config, "DenyAccounts")
			if allowQ == nil && denyQ == nil || anyUnknown(allowQ, denyQ, allowA, denyA) {
				continue
			}
			allowedQ, deniedQ := nameSet(allowQ), nameSet(denyQ)
			allowedA, deniedA := nameSet(allowA), nameSet(denyA)
			// slurm.conf(5): with AllowQos (AllowAccounts) set, DenyQos
			// (DenyAccounts) is not enforced.
			if allowedQ != nil {
				deniedQ = nil
			}
			if allowedA != nil {
				deniedA = nil
			}
			if !allDeclared(allowedQ, n.qos) || !allDeclared(deniedQ, n.qos) || !allDeclared(allowedA, n.accounts) {
				continue // accounting-partition-name reports it
			}
			assocs, usable := 0, false
			qos := map[string]bool{}
			for _, u := range f.Users {
				if !userInPartition(u, part.ID.Value) {
					continue
				}
				for _, a := range u.Accounts {
					if allowedA != nil && !allowedA[a.Text] || deniedA[a.Text] {
						continue
					}
					assocs++
					for _, q := range associationQOS(f, u, a.Text) {
						qos[q] = true
						usable = usable || (allowedQ == nil || allowedQ[q]) && !deniedQ[q]
					}
				}
			}
			if assocs == 0 || usable {
				continue // accounting-partition-no-user reports the former
			}
			kv := allowQ
			if allowedQ == nil {
				kv = denyQ
			}
			reportValue(p, kv, "add an allowed QOS to the qos of a user (or of an account up the tree) in "+f.Name+", or allow one of their QOS",
				"partition %q: %s=%s, and the %d association(s) of %s that can run there have only QOS %s: under AccountingStorageEnforce=%s no job runs there (without --qos it pends, with an allowed --qos sbatch refuses it)",
				part.ID.Value, kv.Key.Value, kv.Value.Value, assocs, f.Name, strings.Join(sortedKeys(qos), ","), e.val("AccountingStorageEnforce"))
		}
	},
}

// anyUnknown reports whether a present pair's value is unknown.
func anyUnknown(kvs ...*ir.KV) bool {
	for _, kv := range kvs {
		if kv != nil && kv.Value.Unknown {
			return true
		}
	}
	return false
}

// nameSet is a partition list of QOS or accounts in lower case (slurmdbd's
// spelling); nil for an absent pair or ALL.
func nameSet(kv *ir.KV) map[string]bool {
	if kv == nil || strings.EqualFold(kv.Value.Value, "ALL") {
		return nil
	}
	out := map[string]bool{}
	for _, a := range strings.Split(kv.Value.Value, ",") {
		if a = strings.ToLower(strings.TrimSpace(a)); a != "" {
			out[a] = true
		}
	}
	return out
}

// allDeclared reports whether every name of set is known.
func allDeclared(set, known map[string]bool) bool {
	for a := range set {
		if !known[a] {
			return false
		}
	}
	return true
}

// userInPartition reports whether the user's associations cover the
// partition (an association without a partition covers them all).
func userInPartition(u accounting.User, part string) bool {
	if len(u.Partitions) == 0 {
		return true
	}
	for _, p := range u.Partitions {
		if p.Text == part {
			return true
		}
	}
	return false
}

// associationQOS is the QOS list of the user's association with the
// account as sacctmgr fills it: the user's qos, else that of the nearest
// account up the tree that sets one, else root's (normal).
func associationQOS(f *accounting.File, u accounting.User, account string) []string {
	if len(u.QOS) > 0 {
		return texts(u.QOS)
	}
	byName := map[string]*accounting.Account{}
	for i := range f.Accounts {
		byName[f.Accounts[i].Name.Text] = &f.Accounts[i]
	}
	seen := map[string]bool{}
	for a := byName[account]; a != nil && !seen[a.Name.Text]; a = byName[a.Parent.Text] {
		seen[a.Name.Text] = true
		if len(a.QOS) > 0 {
			return texts(a.QOS)
		}
	}
	return []string{defaultQOS}
}

func texts(vs []accounting.Value) []string {
	out := make([]string, 0, len(vs))
	for _, v := range vs {
		out = append(out, strings.ToLower(v.Text))
	}
	return out
}
