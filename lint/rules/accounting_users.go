package rules

import (
	"strings"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/schema/accounting"
)

// AccountingPartitionNoUser reports, under enforced associations, a
// partition in which no user of the accounting file can run a job.
var AccountingPartitionNoUser = &lint.Rule{
	ID:       "accounting-partition-no-user",
	Severity: diag.Warning,
	Summary:  "Under AccountingStorageEnforce no user of the accounting file can run a job in a partition",
	Doc: doc("With AccountingStorageEnforce holding associations (or limits, qos, safe or all) a job runs in a partition "+
		"only for a user with an association in an account the partition allows (AllowAccounts, DenyAccounts) and, when "+
		"the user's associations name partitions, in that partition. A partition none of the file's users can use runs "+
		"only root's jobs.",
		"config: {AccountingStorageEnforce: associations}\npartitions:\n- {id: urgent, nodePoolIds: [cpu], config: {AllowAccounts: ops}}\n"+
			"# accounting file\naccounts: [{name: ops}, {name: research}]\nusers: [{name: alice, defaultAccount: research}]",
		"config: {AccountingStorageEnforce: associations}\npartitions:\n- {id: urgent, nodePoolIds: [cpu], config: {AllowAccounts: ops}}\n"+
			"# accounting file\naccounts: [{name: ops}, {name: research}]\nusers: [{name: alice, defaultAccount: research, accounts: [ops]}]"),
	Check: func(p *lint.Pass) {
		f := p.Options.Accounting
		if f == nil || len(f.Users) == 0 || p.Cluster.PartitionsUnknown() {
			return
		}
		e := effective(p)
		if e.user("AccountingStorageEnforce") == nil || !e.has("AccountingStorageEnforce", "associations", "limits", "qos", "safe", "all") {
			return
		}
		n := declared(f)
		for _, part := range p.Cluster.Slurm.Partitions {
			allow, deny := lookupKV(part.Config, "AllowAccounts"), lookupKV(part.Config, "DenyAccounts")
			if allow != nil && allow.Value.Unknown || deny != nil && deny.Value.Unknown {
				continue
			}
			names := func(kv *ir.KV) map[string]bool {
				if kv == nil || strings.EqualFold(kv.Value.Value, "ALL") {
					return nil
				}
				out := map[string]bool{}
				for _, a := range strings.Split(kv.Value.Value, ",") {
					out[strings.ToLower(strings.TrimSpace(a))] = true
				}
				return out
			}
			allowed, denied := names(allow), names(deny)
			if allowed != nil {
				denied = nil // slurm.conf(5): DenyAccounts is not enforced with AllowAccounts
			}
			undeclared := false
			for a := range allowed {
				undeclared = undeclared || !n.accounts[a]
			}
			if undeclared {
				continue // accounting-partition-name reports it
			}
			if someUserCanRun(f.Users, part.ID.Value, allowed, denied) {
				continue
			}
			why := "no user has an association"
			if allowed != nil {
				why = "no user has an association with an account of AllowAccounts=" + allow.Value.Value
			}
			if allow != nil {
				reportValue(p, allow, "give a user of "+f.Name+" an association with an allowed account (and the partition), or allow their accounts",
					"partition %q: %s that can run there; only root's jobs run in it under AccountingStorageEnforce", part.ID.Value, why)
				continue
			}
			p.Report(part.ID.Pos, part.ID.Path, "give a user of "+f.Name+" an association that can run in the partition (partitions:, DenyAccounts)",
				"partition %q: %s that can run there; only root's jobs run in it under AccountingStorageEnforce", part.ID.Value, why)
		}
	},
}

// someUserCanRun reports whether a user has an association, in an
// account allowed and not denied, that covers the partition.
func someUserCanRun(users []accounting.User, part string, allowed, denied map[string]bool) bool {
	for _, u := range users {
		inPart := len(u.Partitions) == 0
		for _, p := range u.Partitions {
			inPart = inPart || p.Text == part
		}
		if !inPart {
			continue
		}
		for _, a := range u.Accounts {
			if (allowed == nil || allowed[a.Text]) && !denied[a.Text] {
				return true
			}
		}
	}
	return false
}
