package rules_test

import (
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/lint/rules"
	"github.com/slurmspec/slurmspec/schema/accounting"
)

// acctFile is the name of a case's accounting file in positions.
const acctFile = "spec.accounting.yaml"

// filePrefix marks the positions of findings in the accounting file.
func filePrefix(file string) string {
	if file == acctFile {
		return "acct:"
	}
	return ""
}

// allCases are the cases of every rule: the spec's and the accounting
// file's.
func allCases() []ruleCase {
	return append(append(append(append([]ruleCase(nil), cases...), accountingCases...), shapeCases...), wideShapeCases...)
}

// caseAccounting loads a case's accounting file; nil when it has none.
func caseAccounting(t *testing.T, text string) (*accounting.File, []string) {
	t.Helper()
	if text == "" {
		return nil, nil
	}
	text, want := stripMarkers(text)
	for i := range want {
		want[i] = "acct:" + want[i]
	}
	f, l := accounting.LoadBytes(acctFile, []byte(text))
	if f == nil {
		t.Fatalf("accounting file refused:\n%s\n%s", l, numbered(text))
	}
	return f, want
}

// lintTextWith is lintText with an accounting file.
func lintTextWith(t *testing.T, file, text, version string, acct *accounting.File) diag.List {
	t.Helper()
	c := compile(t, file, text)
	return lint.Run(c, rules.All(), lint.Config{Options: lint.Options{SlurmVersion: version, Accounting: acct}}).Sort()
}

const (
	acctTeams  = "qos:\n  - {name: high, priority: 0}\n  - {name: scavenger}\naccounts:\n  - {name: research}\n  - {name: vision, parent: research}\nusers:\n  - {name: alice, defaultAccount: vision}\n"
	enforce    = "AccountingStorageEnforce: \"associations,limits,qos\""
	qosPreempt = "PreemptType: preempt/qos\nPreemptMode: REQUEUE"
)

var accountingCases = []ruleCase{
	{rule: "accounting-partition-name", acct: acctTeams, spec: spec{Config: enforce,
		Partitions: "- {id: urgent, nodePoolIds: [cpu], config: {QOS: »urgent, AllowQos: »\"high,low\", AllowAccounts: »\"vision,nlp\", DenyAccounts: »ops}}\n- {id: batch, nodePoolIds: [cpu], config: {DenyQos: »Other}}", Default: "urgent"}},
	{rule: "accounting-partition-name", name: "declared", acct: acctTeams, spec: spec{Config: enforce,
		Partitions: "- {id: urgent, nodePoolIds: [cpu], config: {QOS: high, AllowQos: \"High,normal\", AllowAccounts: \"vision,root\", DenyQos: scavenger}}\n- {id: batch, nodePoolIds: [cpu], config: {AllowAccounts: ALL}}", Default: "urgent"}},
	// With the accounting file, a QOS it declares is still missing when a
	// new cluster's slurmctld first starts (the file is applied once the
	// cluster is up): a warning on every release (TestSpecsOnSlurm saw
	// 22.05 and 24.11 ignore it; 26.05 exits).
	{rule: "partition-qos-unknown", name: "accounting file", acct: acctTeams, spec: spec{Config: enforce, Partitions: "- {id: urgent, nodePoolIds: [cpu], config: {QOS: »high}}"}},
	{rule: "partition-qos-unknown", name: "accounting file, AllowQos, 26.05", version: "26.05", acct: acctTeams,
		spec: spec{Partitions: "- {id: urgent, nodePoolIds: [cpu], config: {AllowQos: »\"high,normal\"}}"}},
	{rule: "partition-qos-unknown", name: "accounting file, normal only", acct: acctTeams,
		spec: spec{Partitions: "- {id: urgent, nodePoolIds: [cpu], config: {AllowQos: normal, QOS: normal}}"}},

	{rule: "accounting-reference", acct: "qos:\n  - {name: high, preempt: [»low]}\n  - {name: »high}\naccounts:\n  - {name: vision, parent: »research, qos: [»gold], defaultQos: »high}\n  - {name: »root}\nusers:\n  - {name: alice, defaultAccount: »vison, accounts: [vision], partitions: [»gpu], qos: [normal], defaultQos: »high}\n"},
	{rule: "accounting-reference", acct: acctTeams + "  - {name: bob, defaultAccount: research, accounts: [vision], partitions: [debug], qos: [high, normal], defaultQos: high}\n"},

	{rule: "account-cycle", acct: "accounts:\n  - {name: a, parent: »b}\n  - {name: b, parent: »c}\n  - {name: c, parent: »a}\n  - {name: d, parent: »d}\n  - {name: e, parent: a}\n"},
	{rule: "account-cycle", acct: acctTeams},

	{rule: "qos-preempt-cycle", spec: spec{Config: qosPreempt}, acct: "qos:\n  - {name: high, preempt: [»low, »high]}\n  - {name: low, preempt: [»high]}\n"},
	{rule: "qos-preempt-cycle", name: "loop without preempt/qos", acct: "qos:\n  - {name: high, preempt: [»low, »high]}\n  - {name: low, preempt: [»high]}\n"},
	{rule: "qos-preempt-cycle", spec: spec{Config: qosPreempt}, acct: "qos:\n  - {name: high, preempt: [low, mid]}\n  - {name: mid, preempt: [low]}\n  - {name: low}\n"},

	{rule: "qos-preempt-mode-unset", spec: spec{Config: "PreemptType: preempt/qos\nPreemptMode: CANCEL", Partitions: "- {id: spot, nodePoolIds: [cpu], config: {PreemptMode: REQUEUE}}", Default: "spot"},
		acct: "qos:\n  - {name: urgent, preempt: [»scavenger, »normal, batch]}\n  - {name: scavenger, preemptMode: cluster}\n  - {name: batch, preemptMode: requeue}\n"},
	{rule: "qos-preempt-mode-unset", name: "partition as global", spec: spec{Config: "PreemptType: preempt/qos\nPreemptMode: REQUEUE", Partitions: "- {id: spot, nodePoolIds: [cpu], config: {PreemptMode: REQUEUE}}", Default: "spot"},
		acct: "qos:\n  - {name: urgent, preempt: [scavenger]}\n  - {name: scavenger}\n"},
	{rule: "qos-preempt-mode-unset", name: "partition_prio", spec: spec{Config: "PreemptType: preempt/partition_prio\nPreemptMode: CANCEL", Partitions: "- {id: spot, nodePoolIds: [cpu], config: {PreemptMode: REQUEUE}}", Default: "spot"},
		acct: "qos:\n  - {name: urgent, preempt: [scavenger]}\n  - {name: scavenger}\n"},

	{rule: "accounting-partition-no-user", spec: spec{Config: enforce,
		Partitions: "- {id: urgent, nodePoolIds: [cpu], config: {AllowAccounts: »research}}\n- {id: train, nodePoolIds: [cpu], config: {DenyAccounts: vision}}\n- {id: »batch, nodePoolIds: [cpu]}", Default: "train"},
		acct: "accounts:\n  - {name: research}\n  - {name: vision}\nusers:\n  - {name: alice, defaultAccount: vision, partitions: [urgent, train]}\n  - {name: bob, defaultAccount: research, partitions: [train]}\n"},
	{rule: "accounting-partition-no-user", name: "every partition reachable", spec: spec{Config: enforce,
		Partitions: "- {id: urgent, nodePoolIds: [cpu], config: {AllowAccounts: research}}\n- {id: batch, nodePoolIds: [cpu], config: {DenyAccounts: vision}}", Default: "batch"},
		acct: "accounts:\n  - {name: research}\n  - {name: vision}\nusers:\n  - {name: alice, defaultAccount: vision, accounts: [research]}\n"},
	{rule: "accounting-partition-no-user", name: "deny ignored under allow", spec: spec{Config: enforce,
		Partitions: "- {id: urgent, nodePoolIds: [cpu], config: {AllowAccounts: research, DenyAccounts: research}}", Default: "urgent"},
		acct: "accounts:\n  - {name: research}\nusers:\n  - {name: alice, defaultAccount: research}\n"},
	{rule: "accounting-partition-no-user", name: "no enforcement", spec: spec{
		Partitions: "- {id: urgent, nodePoolIds: [cpu], config: {AllowAccounts: research}}", Default: "urgent"},
		acct: "accounts:\n  - {name: research}\n  - {name: vision}\nusers:\n  - {name: alice, defaultAccount: vision}\n"},

	{rule: "accounting-partition-no-qos", spec: spec{Config: enforce,
		Partitions: "- {id: urgent, nodePoolIds: [cpu], config: {AllowQos: »High}}\n- {id: batch, nodePoolIds: [cpu], config: {DenyQos: »normal}}\n- {id: train, nodePoolIds: [cpu], config: {AllowQos: \"high,normal\", AllowAccounts: vision}}", Default: "train"},
		acct: "qos:\n  - {name: high}\naccounts:\n  - {name: research}\n  - {name: vision, parent: research}\nusers:\n  - {name: alice, defaultAccount: vision}\n  - {name: bob, defaultAccount: research, qos: [normal], partitions: [urgent, batch]}\n"},
	// The QOS comes from the user, or from the nearest account up the tree.
	{rule: "accounting-partition-no-qos", name: "inherited", spec: spec{Config: "AccountingStorageEnforce: all",
		Partitions: "- {id: urgent, nodePoolIds: [cpu], config: {AllowQos: high}}\n- {id: batch, nodePoolIds: [cpu], config: {DenyQos: high}}\n- {id: ops, nodePoolIds: [cpu], config: {AllowQos: scavenger, AllowAccounts: ops}}", Default: "batch"},
		acct: "qos:\n  - {name: high}\n  - {name: scavenger}\naccounts:\n  - {name: research, qos: [high, normal]}\n  - {name: vision, parent: research}\n  - {name: ops}\nusers:\n  - {name: alice, defaultAccount: vision}\n  - {name: bob, defaultAccount: ops, qos: [scavenger]}\n"},
	// With AllowQos (AllowAccounts) set, slurmctld does not enforce DenyQos (DenyAccounts).
	{rule: "accounting-partition-no-qos", name: "deny ignored under allow", spec: spec{Config: enforce,
		Partitions: "- {id: urgent, nodePoolIds: [cpu], config: {AllowQos: high, DenyQos: high, AllowAccounts: research, DenyAccounts: research}}", Default: "urgent"},
		acct: "qos:\n  - {name: high}\naccounts:\n  - {name: research, qos: [high]}\nusers:\n  - {name: alice, defaultAccount: research}\n"},
	{rule: "accounting-partition-no-qos", name: "qos not enforced", spec: spec{Config: "AccountingStorageEnforce: \"associations,limits,safe\"",
		Partitions: "- {id: urgent, nodePoolIds: [cpu], config: {AllowQos: high}}", Default: "urgent"},
		acct: "qos:\n  - {name: high}\naccounts:\n  - {name: research}\nusers:\n  - {name: alice, defaultAccount: research}\n"},

	{rule: "time-minutes-seconds", spec: spec{Config: "PriorityDecayHalfLife: »\"7:00\"",
		Partitions: "- {id: gpu, nodePoolIds: [cpu], config: {MaxTime: »\"12:00\", DefaultTime: »\"1:30\"}}", Default: "gpu"},
		acct: "qos:\n  - {name: short, limits: {MaxWall: »\"4:00\"}}\naccounts:\n  - {name: research, limits: {MaxWall: »\"12:00\"}}\n"},
	{rule: "time-minutes-seconds", spec: spec{Config: "PriorityDecayHalfLife: \"7-0\"\nPreemptExemptTime: \"0:30\"",
		Partitions: "- {id: gpu, nodePoolIds: [cpu], config: {MaxTime: \"12:00:00\", DefaultTime: \"30\"}}\n- {id: cpu, nodePoolIds: [cpu], config: {MaxTime: \"1-12:00\", DefaultTime: \"0-4\"}}", Default: "gpu"},
		acct: "qos:\n  - {name: short, limits: {MaxWall: \"4:00:00\"}}\naccounts:\n  - {name: research, limits: {MaxWall: UNLIMITED}}\n"},

	{rule: "accounting-tres-untracked", acct: "qos:\n  - {name: high, limits: {MaxTRESPerUser: »\"cpu=64,gres/gpu=8\", GrpTRES: »\"license/matlab=2\"}}\naccounts:\n  - {name: a, limits: {MaxTRES: »\"gres/gpu:b200=8\"}}\n"},
	{rule: "accounting-tres-untracked", spec: spec{Config: "AccountingStorageTRES: \"gres/gpu,license/matlab\""}, acct: "qos:\n  - {name: high, limits: {MaxTRESPerUser: \"cpu=64,gres/gpu=8,mem=1T\", GrpTRES: \"license/matlab=2\"}}\naccounts:\n  - {name: a, limits: {MaxTRES: \"gres/gpu:b200=8\"}}\n"},

	{rule: "accounting-enforce-no-user", spec: spec{Config: enforce}, acct: "»accounts:\n  - {name: research}\n"},
	{rule: "accounting-enforce-no-user", spec: spec{Config: "AccountingStorageEnforce: associations"}, acct: acctTeams},
	{rule: "accounting-enforce-no-user", name: "not enforced", acct: "accounts:\n  - {name: research}\n"},

	{rule: "qos-priority-unweighted", acct: "qos:\n  - {name: high, priority: »1000}\n  - {name: low, priority: 0}\n"},
	{rule: "qos-priority-unweighted", name: "basic", spec: spec{Config: "PriorityType: priority/basic\nPriorityWeightQOS: \"100\""}, acct: "qos:\n  - {name: high, priority: »1000}\n"},
	{rule: "qos-priority-unweighted", spec: spec{Config: "PriorityType: priority/multifactor\nPriorityWeightQOS: \"10000\""}, acct: "qos:\n  - {name: high, priority: 1000}\n"},

	{rule: "fairshare-without-multifactor", spec: spec{Config: "PriorityType: priority/basic"}, acct: "accounts:\n  - {name: research, fairshare: »10}\nusers:\n  - {name: alice, defaultAccount: research, fairshare: »2}\n"},
	{rule: "fairshare-without-multifactor", acct: "accounts:\n  - {name: research, fairshare: 10}\n"},
	{rule: "fairshare-without-multifactor", name: "22.05 default", version: "22.05", acct: "accounts:\n  - {name: research, fairshare: »10}\n"},
}
