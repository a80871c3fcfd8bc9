package rules

import (
	"strconv"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/schema/accounting"
)

// AccountCycle reports an account that is its own ancestor.
var AccountCycle = &lint.Rule{
	ID:       "account-cycle",
	Severity: diag.Error,
	Summary:  "Accounts' parents form a cycle",
	Doc: doc("The accounts form a tree under root. An account that is its own ancestor cannot be created: sacctmgr "+
		"needs the parent first, and no order of the file's accounts provides it.",
		"accounts: [{name: a, parent: b}, {name: b, parent: a}]",
		"accounts: [{name: a}, {name: b, parent: a}]"),
	Check: func(p *lint.Pass) {
		f := p.Options.Accounting
		if f == nil {
			return
		}
		parent := map[string]accounting.Value{}
		for _, a := range f.Accounts {
			parent[a.Name.Text] = a.Parent
		}
		for _, a := range f.Accounts {
			// Walk up at most len(accounts) steps: a longer walk is a cycle.
			cur, path := a.Name.Text, []string{a.Name.Text}
			for range len(f.Accounts) {
				par, ok := parent[cur]
				if !ok || !par.Set {
					break
				}
				cur = par.Text
				path = append(path, cur)
				if cur == a.Name.Text {
					p.Report(a.Parent.Pos, a.Parent.Path, "make one of them a child of root or of an account outside the cycle",
						"account %q is its own ancestor: %s", a.Name.Text, strings.Join(path, " → "))
					break
				}
			}
		}
	},
}

// QOSPreemptCycle reports QOS that preempt themselves or each other.
var QOSPreemptCycle = &lint.Rule{
	ID:       "qos-preempt-cycle",
	Severity: diag.Error,
	Summary:  "A QOS preempts itself, or QOS preempt lists form a cycle",
	Doc: doc("sacctmgr refuses a QOS that preempts itself (\"QOS can't preempt itself\") and a preempt list that "+
		"closes a cycle, QOS that can preempt each other (\"QOS Preemption loop detected\", whatever the "+
		"PreemptType; seen on 22.05 and 26.05), so the accounting file cannot be applied.",
		"config: {PreemptType: preempt/qos, PreemptMode: REQUEUE}\n# accounting file\nqos: [{name: high, preempt: [low]}, {name: low, preempt: [high]}]",
		"config: {PreemptType: preempt/qos, PreemptMode: REQUEUE}\n# accounting file\nqos: [{name: high, preempt: [low]}, {name: low}]"),
	Check: func(p *lint.Pass) {
		f := p.Options.Accounting
		if f == nil {
			return
		}
		edges := map[string][]string{}
		for _, q := range f.QOS {
			for _, v := range q.Preempt {
				edges[q.Name.Text] = append(edges[q.Name.Text], v.Text)
				if v.Text == q.Name.Text {
					p.Report(v.Pos, v.Path, "remove it from its own preempt list", "QOS %q preempts itself: sacctmgr refuses it", q.Name.Text)
				}
			}
		}
		for _, q := range f.QOS {
			for _, v := range q.Preempt {
				if v.Text != q.Name.Text && reaches(edges, v.Text, q.Name.Text) {
					p.Report(v.Pos, v.Path, "let preemption run one way: remove one of the two from the other's preempt list",
						"QOS %q preempts %q, which can preempt %q in turn: sacctmgr refuses it (\"QOS Preemption loop detected\")", q.Name.Text, v.Text, q.Name.Text)
				}
			}
		}
	},
}

// reaches reports whether to is reachable from from along edges.
func reaches(edges map[string][]string, from, to string) bool {
	seen := map[string]bool{}
	stack := []string{from}
	for len(stack) > 0 {
		cur := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if cur == to {
			return true
		}
		if seen[cur] {
			continue
		}
		seen[cur] = true
		stack = append(stack, edges[cur]...)
	}
	return false
}

// AccountingTRESUntracked reports limits on TRES the cluster does not track.
var AccountingTRESUntracked = &lint.Rule{
	ID:       "accounting-tres-untracked",
	Severity: diag.Error,
	Summary:  "A limit names a TRES the cluster does not track",
	Doc: doc("slurmdbd tracks cpu, mem, energy, node, billing, fs/disk, vmem and pages; any other TRES (gres/gpu, "+
		"license/…, bb/…) exists only when AccountingStorageTRES lists it. sacctmgr refuses a limit on a TRES that "+
		"does not exist (\"Invalid TRES\"), and a limit on one that is not tracked is never enforced.",
		"# accounting file\nqos: [{name: high, limits: {MaxTRESPerUser: \"gres/gpu=8\"}}]",
		"config: {AccountingStorageTRES: gres/gpu}\n# accounting file\nqos: [{name: high, limits: {MaxTRESPerUser: \"gres/gpu=8\"}}]"),
	Check: func(p *lint.Pass) {
		f := p.Options.Accounting
		if f == nil {
			return
		}
		tracked := configuredTRES(effective(p))
		check := func(ls []accounting.Limit) {
			for _, l := range ls {
				if !strings.HasSuffix(l.Key, "TRES") && !strings.Contains(l.Key, "TRESPer") {
					continue
				}
				for _, item := range strings.Split(l.Value.Text, ",") {
					name, _, _ := strings.Cut(item, "=")
					base, _, _ := strings.Cut(name, ":") // gres/gpu:b200 is tracked with gres/gpu
					if !tracked[name] && !tracked[base] {
						p.Report(l.Value.Pos, l.Value.Path, "add "+name+" to AccountingStorageTRES in the cluster spec's config",
							"%s limits %s, which the cluster does not track (AccountingStorageTRES)", l.Key, name)
					}
				}
			}
		}
		for _, q := range f.QOS {
			check(q.Limits)
		}
		for _, a := range f.Accounts {
			check(a.Limits)
		}
	},
}

// AccountingEnforceNoUser reports enforcement of associations when the
// accounting file declares no user.
var AccountingEnforceNoUser = &lint.Rule{
	ID:       "accounting-enforce-no-user",
	Severity: diag.Error,
	Summary:  "AccountingStorageEnforce needs associations, and the accounting file declares no user",
	Doc: doc("With AccountingStorageEnforce holding associations (or limits, qos, safe or all, which imply it) slurmctld "+
		"refuses every job of a user without an association (\"Invalid account or account/partition combination\"). "+
		"An accounting file without users leaves the cluster running no job at all.",
		"config: {AccountingStorageEnforce: \"associations,limits,qos\"}\n# accounting file\naccounts: [{name: research}]",
		"config: {AccountingStorageEnforce: \"associations,limits,qos\"}\n# accounting file\naccounts: [{name: research}]\nusers: [{name: alice, defaultAccount: research}]"),
	Check: func(p *lint.Pass) {
		f := p.Options.Accounting
		if f == nil || len(f.Users) > 0 {
			return
		}
		e := effective(p)
		if kv := e.user("AccountingStorageEnforce"); kv != nil && e.has("AccountingStorageEnforce", "associations", "limits", "qos", "safe", "all") {
			p.Report(f.Pos, "users", "declare the users who run jobs, each with a default account",
				"%s declares no user, and AccountingStorageEnforce=%s refuses every job without an association (%s)", f.Name, kv.Value.Value, kv.Value.Pos)
		}
	},
}

// QOSPriorityUnweighted reports QOS priorities that cannot matter.
var QOSPriorityUnweighted = &lint.Rule{
	ID:       "qos-priority-unweighted",
	Severity: diag.Warning,
	Summary:  "A QOS has a priority, and PriorityWeightQOS is 0 or the priority plugin is not multifactor",
	Doc: doc("A QOS's priority adds to a job's priority only through priority/multifactor's PriorityWeightQOS, "+
		"which is 0 unless set: the priorities of the accounting file then change nothing (preemption under "+
		"preempt/qos uses the preempt lists, not the priorities).",
		"# accounting file\nqos: [{name: high, priority: 1000}]",
		"config: {PriorityType: priority/multifactor, PriorityWeightQOS: \"10000\"}\n# accounting file\nqos: [{name: high, priority: 1000}]"),
	Check: func(p *lint.Pass) {
		f := p.Options.Accounting
		if f == nil {
			return
		}
		e := effective(p)
		w, _ := e.num("PriorityWeightQOS")
		multifactor := pluginIs(e.val("PriorityType"), "priority/multifactor")
		if w > 0 && multifactor {
			return
		}
		why := "PriorityWeightQOS is 0"
		if !multifactor {
			why = "PriorityType is " + e.val("PriorityType")
		}
		for _, q := range f.QOS {
			if n, err := strconv.ParseInt(q.Priority.Text, 10, 64); err == nil && n > 0 {
				p.Report(q.Priority.Pos, q.Priority.Path, "set PriorityType=priority/multifactor and PriorityWeightQOS in the cluster spec, or drop the priority",
					"QOS %q has priority %d, which changes no job's priority: %s", q.Name.Text, n, why)
			}
		}
	},
}

// FairshareWithoutMultifactor reports fairshare without the plugin that
// reads it.
var FairshareWithoutMultifactor = &lint.Rule{
	ID:       "fairshare-without-multifactor",
	Severity: diag.Warning,
	Summary:  "An account or user has a fairshare, and the priority plugin is not priority/multifactor",
	Doc: doc("Fairshare shares feed only priority/multifactor (the default from 23.11; priority/basic before). With "+
		"another plugin they are stored and ignored.",
		"config: {PriorityType: priority/basic}\n# accounting file\naccounts: [{name: research, fairshare: 10}]",
		"config: {PriorityType: priority/multifactor}\n# accounting file\naccounts: [{name: research, fairshare: 10}]"),
	Check: func(p *lint.Pass) {
		f := p.Options.Accounting
		if f == nil {
			return
		}
		e := effective(p)
		pt := e.val("PriorityType")
		if pluginIs(pt, "priority/multifactor") {
			return
		}
		report := func(name string, v accounting.Value) {
			if v.Set {
				p.Report(v.Pos, v.Path, "set PriorityType=priority/multifactor in the cluster spec, or drop the fairshare",
					"%s has fairshare %s, which PriorityType=%s ignores", name, v.Text, pt)
			}
		}
		for _, a := range f.Accounts {
			report("account "+strconv.Quote(a.Name.Text), a.Fairshare)
		}
		for _, u := range f.Users {
			report("user "+strconv.Quote(u.Name.Text), u.Fairshare)
		}
	},
}
