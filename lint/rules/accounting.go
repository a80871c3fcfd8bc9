package rules

import (
	"strings"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/schema/accounting"
)

// Rules over the accounting file (schema/accounting) and the cluster spec
// together. They run only when the spec has an accounting file.

// rootAccount is the account every slurmdbd has; defaultQOS the QOS.
const rootAccount = "root"

// names is what the accounting file declares, with what every database has.
type names struct {
	qos, accounts map[string]bool
}

func declared(f *accounting.File) names {
	n := names{qos: map[string]bool{defaultQOS: true}, accounts: map[string]bool{rootAccount: true}}
	for _, q := range f.QOS {
		n.qos[q.Name.Text] = true
	}
	for _, a := range f.Accounts {
		n.accounts[a.Name.Text] = true
	}
	return n
}

// AccountingPartitionName reports partition names of QOS and accounts that
// the accounting file does not declare.
var AccountingPartitionName = &lint.Rule{
	ID:       "accounting-partition-name",
	Severity: diag.Error,
	Summary:  "A partition names a QOS or account that the accounting file does not declare",
	Doc: doc("With an accounting file (docs/accounting.md) the QOS and accounts of the cluster are declared: a partition's "+
		"QOS=, AllowQos and DenyQos must name a declared QOS (or normal), and AllowAccounts and DenyAccounts a declared "+
		"account (or root). slurmctld refuses an unknown QOS= or, from 25.11, AllowQos entry when it starts, and an "+
		"unknown account in AllowAccounts admits nobody. (Without an accounting file partition-qos-unknown applies.)",
		"# a4.accounting.yaml\nqos: [{name: high}]\n# a4.yaml\npartitions:\n- {id: urgent, nodePoolIds: [a4], config: {QOS: urgent, AllowAccounts: vision}}",
		"# a4.accounting.yaml\nqos: [{name: high}]\naccounts: [{name: vision}]\n# a4.yaml\npartitions:\n- {id: urgent, nodePoolIds: [a4], config: {QOS: high, AllowAccounts: vision}}"),
	Check: func(p *lint.Pass) {
		f := p.Options.Accounting
		if f == nil {
			return
		}
		n := declared(f)
		for _, part := range p.Cluster.Slurm.Partitions {
			for _, key := range []string{"QOS", "AllowQos", "DenyQos", "AllowAccounts", "DenyAccounts"} {
				kv := lookupKV(part.Config, key)
				if kv == nil || kv.Value.Unknown || strings.EqualFold(kv.Value.Value, "ALL") {
					continue
				}
				known, kind := n.qos, "QOS"
				if strings.HasSuffix(key, "Accounts") {
					known, kind = n.accounts, "account"
				}
				var missing []string
				for _, name := range strings.Split(kv.Value.Value, ",") {
					// slurmdbd stores these names in lower case.
					if name = strings.ToLower(strings.TrimSpace(name)); name != "" && !known[name] {
						missing = append(missing, name)
					}
				}
				if len(missing) > 0 {
					reportValue(p, kv, "declare it in "+f.Name+", or correct the name",
						"partition %q: %s names %s %s, which %s does not declare", part.ID.Value, kv.Key.Value, kind, strings.Join(missing, ", "), f.Name)
				}
			}
		}
	},
}

// AccountingReference reports names in the accounting file that it does not
// declare, and names declared twice.
var AccountingReference = &lint.Rule{
	ID:       "accounting-reference",
	Severity: diag.Error,
	Summary:  "The accounting file refers to a QOS, account or partition it does not declare, or declares a name twice",
	Doc: doc("An account's parent, a user's accounts and default account, every qos list, defaultQos and QOS preempt "+
		"list must name something declared (root and normal always exist); a user's partitions must be partitions of "+
		"the cluster; a defaultQos must be in the qos list it goes with. sacctmgr refuses the rest part-way through "+
		"(\"Parent account … doesn't exist\", \"Unknown QOS\"), leaving the database half applied.",
		"accounts: [{name: vision, parent: research}]\nusers: [{name: alice, defaultAccount: vison}]",
		"accounts: [{name: research}, {name: vision, parent: research}]\nusers: [{name: alice, defaultAccount: vision}]"),
	Check: func(p *lint.Pass) {
		f := p.Options.Accounting
		if f == nil {
			return
		}
		n := declared(f)
		ref := func(v accounting.Value, known map[string]bool, kind string) {
			if v.Set && !known[v.Text] {
				p.Report(v.Pos, v.Path, "declare the "+kind+" in the file, or correct the name", "%s %q is not declared", kind, v.Text)
			}
		}
		refs := func(vs []accounting.Value, known map[string]bool, kind string) {
			for _, v := range vs {
				ref(v, known, kind)
			}
		}
		inList := func(def accounting.Value, list []accounting.Value) {
			if !def.Set || len(list) == 0 {
				return
			}
			for _, v := range list {
				if v.Text == def.Text {
					return
				}
			}
			p.Report(def.Pos, def.Path, "add it to the qos list", "default QOS %q is not in the qos list", def.Text)
		}
		seen := map[string]bool{}
		dup := func(v accounting.Value, kind string) {
			if seen[kind+"\x00"+v.Text] {
				p.Report(v.Pos, v.Path, "remove one of the two", "%s %q is declared twice", kind, v.Text)
			}
			seen[kind+"\x00"+v.Text] = true
		}
		for _, q := range f.QOS {
			dup(q.Name, "QOS")
			refs(q.Preempt, n.qos, "QOS")
		}
		for _, a := range f.Accounts {
			dup(a.Name, "account")
			if a.Name.Text == rootAccount {
				p.Report(a.Name.Pos, a.Name.Path, "remove it: root exists in every database", "account root is declared")
			}
			if a.Parent.Set {
				ref(a.Parent, n.accounts, "account")
			}
			refs(a.QOS, n.qos, "QOS")
			ref(a.DefaultQOS, n.qos, "QOS")
			inList(a.DefaultQOS, a.QOS)
		}
		parts := map[string]bool{}
		for _, part := range p.Cluster.Slurm.Partitions {
			parts[part.ID.Value] = true
		}
		for _, u := range f.Users {
			dup(u.Name, "user")
			refs(u.Accounts, n.accounts, "account")
			refs(u.QOS, n.qos, "QOS")
			ref(u.DefaultQOS, n.qos, "QOS")
			inList(u.DefaultQOS, u.QOS)
			if p.Cluster.PartitionsUnknown() {
				continue
			}
			refs(u.Partitions, parts, "partition")
		}
	},
}
