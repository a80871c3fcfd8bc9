package rules

// Partition lines: constraints.md Q1-Q7, and what slurmctld resolves
// for a partition line (groups, accounts). The communication and
// controller limits, C1-C6 and L1-L21, are in limits.go.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// AllowDenyConflict reports partition Allow*/Deny* pairs (Q1).
var AllowDenyConflict = &lint.Rule{
	ID:       "allow-deny-conflict",
	Severity: diag.Error,
	Summary:  "A partition sets both AllowAccounts and DenyAccounts, or AllowQos and DenyQos",
	Doc: doc("When both are set Slurm ignores the Deny* list with an error.",
		"partitions:\n- {id: batch, nodePoolIds: [cpu], config: {AllowAccounts: \"physics\", DenyAccounts: \"guest\"}}",
		"partitions:\n- {id: batch, nodePoolIds: [cpu], config: {AllowAccounts: \"physics\"}}"),
	Check: func(p *lint.Pass) {
		for _, part := range p.Cluster.Slurm.Partitions {
			for _, pair := range [][2]string{{"AllowAccounts", "DenyAccounts"}, {"AllowQos", "DenyQos"}} {
				allow, deny := lookupKV(part.Config, pair[0]), lookupKV(part.Config, pair[1])
				if allow != nil && deny != nil {
					reportKey(p, deny, "keep one of the two lists", "partition %q: %s is ignored because %s is set", part.ID.Value, deny.Key.Value, allow.Key.Value)
				}
			}
		}
	},
}

// OversubscribeCount reports OverSubscribe counts Slurm rejects (Q3).
var OversubscribeCount = &lint.Rule{
	ID:       "oversubscribe-count",
	Severity: diag.Error,
	Summary:  "OverSubscribe=YES:n with n below 2, or FORCE:n with n below 1",
	Doc: doc("YES:n needs n of at least 2 and FORCE:n at least 1; otherwise Slurm falls back to OverSubscribe=NO "+
		"with an error.",
		"partitions:\n- {id: batch, nodePoolIds: [cpu], config: {OverSubscribe: \"YES:1\"}}",
		"partitions:\n- {id: batch, nodePoolIds: [cpu], config: {OverSubscribe: \"YES:2\"}}"),
	Check: func(p *lint.Pass) {
		for _, part := range p.Cluster.Slurm.Partitions {
			kv := lookupKV(part.Config, "OverSubscribe")
			if kv == nil {
				kv = lookupKV(part.Config, "Shared")
			}
			if kv == nil {
				continue
			}
			mode, count, found := strings.Cut(kv.Value.Value, ":")
			if !found {
				continue
			}
			n, err := strconv.ParseInt(count, 10, 64)
			if err != nil {
				continue
			}
			min := int64(1)
			if strings.EqualFold(mode, "YES") {
				min = 2
			}
			if n < min {
				reportValue(p, kv, fmt.Sprintf("use %s:%d or more", strings.ToUpper(mode), min),
					"partition %q: %s=%s needs a count of at least %d; Slurm falls back to NO", part.ID.Value, kv.Key.Value, kv.Value.Value, min)
			}
		}
	},
}

// ExclusiveOverrides reports Exclusive overriding OverSubscribe (Q4).
var ExclusiveOverrides = &lint.Rule{
	ID:       "exclusive-overrides",
	Severity: diag.Warning,
	Summary:  "A partition sets Exclusive together with OverSubscribe",
	Doc: doc("In 26.05 Exclusive is processed after OverSubscribe and overrides it; NODE and TOPO force "+
		"node-exclusive allocation whatever OverSubscribe says.",
		"partitions:\n- {id: batch, nodePoolIds: [cpu], config: {Exclusive: NODE, OverSubscribe: FORCE}}",
		"partitions:\n- {id: batch, nodePoolIds: [cpu], config: {Exclusive: NODE}}"),
	Check: func(p *lint.Pass) {
		for _, part := range p.Cluster.Slurm.Partitions {
			ex := lookupKV(part.Config, "Exclusive")
			if ex == nil || strings.EqualFold(ex.Value.Value, "NO") || strings.EqualFold(ex.Value.Value, "NONE") {
				continue
			}
			os := lookupKV(part.Config, "OverSubscribe")
			if os == nil {
				os = lookupKV(part.Config, "Shared")
			}
			if os != nil {
				reportKey(p, os, "remove OverSubscribe, or Exclusive",
					"partition %q: Exclusive=%s overrides %s=%s", part.ID.Value, ex.Value.Value, os.Key.Value, os.Value.Value)
			}
		}
	},
}

// ExclusiveUserTopo reports a partition that sets both ExclusiveUser and
// ExclusiveTopo to true from 26.05 (Q4): slurmctld drops USER with an
// error ("Exclusive=USER ignored, since it's mutually exclusive with
// Exclusive=TOPO", _parse_partitionname), whatever Exclusive= then says.
// 24.11 and 25.11 have no such check.
var ExclusiveUserTopo = &lint.Rule{
	ID:       "exclusive-user-topo",
	Severity: diag.Error,
	Summary:  "A partition sets both ExclusiveUser and ExclusiveTopo (26.05+)",
	Doc: doc("From 26.05 the two exclude each other: slurmctld ignores ExclusiveUser with an error and allocates "+
		"topology-exclusive. Both keys are deprecated there in favour of Exclusive=USER or Exclusive=TOPO, one of them.",
		"partitions:\n- {id: batch, nodePoolIds: [cpu], config: {ExclusiveUser: \"YES\", ExclusiveTopo: \"YES\"}}",
		"partitions:\n- {id: batch, nodePoolIds: [cpu], config: {Exclusive: TOPO}}"),
	Check: func(p *lint.Pass) {
		if targetVersion(p.Options) < catalog.V2605 {
			return
		}
		for _, part := range p.Cluster.Slurm.Partitions {
			user, topo := lookupKV(part.Config, "ExclusiveUser"), lookupKV(part.Config, "ExclusiveTopo")
			if user == nil || topo == nil || !boolTrue(user.Value.Value) || !boolTrue(topo.Value.Value) {
				continue
			}
			reportKey(p, user, "keep one: Exclusive=USER or Exclusive=TOPO",
				"partition %q: ExclusiveUser=%s is ignored: it is mutually exclusive with ExclusiveTopo=%s (slurmctld logs an error)",
				part.ID.Value, user.Value.Value, topo.Value.Value)
		}
	},
}

// boolTrue reports whether S_P_BOOLEAN reads the value as true.
func boolTrue(v string) bool {
	yes, _ := catalog.BoolWords()
	for _, w := range yes {
		if strings.EqualFold(strings.TrimSpace(v), w) {
			return true
		}
	}
	return false
}

// PartitionPriorityAlias reports Priority together with the keys it sets
// (Q5).
var PartitionPriorityAlias = &lint.Rule{
	ID:       "partition-priority-alias",
	Severity: diag.Warning,
	Summary:  "A partition sets Priority together with PriorityTier or PriorityJobFactor",
	Doc: doc("Priority is an old alias that sets both PriorityJobFactor and PriorityTier, and it is applied "+
		"after them, so it silently replaces their values.",
		"partitions:\n- {id: urgent, nodePoolIds: [a4], config: {Priority: \"5\", PriorityTier: \"10\"}}",
		"partitions:\n- {id: urgent, nodePoolIds: [a4], config: {PriorityJobFactor: \"5\", PriorityTier: \"10\"}}"),
	Check: func(p *lint.Pass) {
		for _, part := range p.Cluster.Slurm.Partitions {
			pr := lookupKV(part.Config, "Priority")
			if pr == nil {
				continue
			}
			for _, k := range []string{"PriorityTier", "PriorityJobFactor"} {
				if kv := lookupKV(part.Config, k); kv != nil {
					reportKey(p, kv, "remove Priority and set PriorityTier and PriorityJobFactor",
						"partition %q: %s=%s is replaced by Priority=%s", part.ID.Value, kv.Key.Value, kv.Value.Value, pr.Value.Value)
				}
			}
		}
	},
}

// PartitionGroups reports partition AllowGroups, whose groups slurmctld
// resolves on the controller, where lint cannot see them.
var PartitionGroups = &lint.Rule{
	ID:       "partition-groups",
	Severity: diag.Warning,
	Summary:  "A partition's AllowGroups names groups the controller must know",
	Doc: doc("slurmctld resolves AllowGroups with getgrnam on the controller (groups.c). A group the "+
		"controller's image or directory service does not know is logged as an error (\"Could not find "+
		"configured group NAME\") and admits nobody; when no group is found, only root may use the "+
		"partition. lint cannot see the controller's groups, so it warns; ALL admits everyone.",
		"partitions:\n- {id: gpu, nodePoolIds: [a4], config: {AllowGroups: \"ml-team\"}}",
		"partitions:\n- {id: gpu, nodePoolIds: [a4], config: {AllowGroups: ALL}}"),
	Check: func(p *lint.Pass) {
		for _, part := range p.Cluster.Slurm.Partitions {
			kv := lookupKV(part.Config, "AllowGroups")
			if kv == nil || strings.EqualFold(kv.Value.Value, "ALL") {
				continue
			}
			reportValue(p, kv, "make sure the controller resolves each group (getent group NAME), or use ALL",
				"partition %q: AllowGroups=%s: slurmctld looks the groups up on the controller and ignores, with an error line, any it cannot find", part.ID.Value, kv.Value.Value)
		}
	},
}

// PartitionAccounts reports partition AllowAccounts and DenyAccounts while
// associations are enforced: slurmctld looks the accounts up in the
// accounting database when it reads slurm.conf.
var PartitionAccounts = &lint.Rule{
	ID:       "partition-accounts",
	Severity: diag.Warning,
	Summary:  "A partition's AllowAccounts or DenyAccounts names accounts the accounting database must hold",
	Doc: doc("With associations enforced (AccountingStorageEnforce associations, limits, safe, qos, wckeys or all), "+
		"slurmctld looks each AllowAccounts and DenyAccounts account up when it reads slurm.conf "+
		"(read_config.c accounts_list_build) and logs one it cannot find (\"No association for account NAME\"), "+
		"leaving it out. A new cluster's database has only root: create the accounts with sacctmgr, then "+
		"reconfigure.",
		"config: {AccountingStorageEnforce: \"associations,limits\"}\npartitions:\n- {id: gpu, nodePoolIds: [a4], config: {AllowAccounts: ml}}",
		"partitions:\n- {id: gpu, nodePoolIds: [a4], config: {AllowAccounts: ml}}"),
	Check: func(p *lint.Pass) {
		if !effective(p).has("AccountingStorageEnforce", "associations", "limits", "safe", "qos", "wckeys", "all") {
			return
		}
		for _, part := range p.Cluster.Slurm.Partitions {
			for _, key := range []string{"AllowAccounts", "DenyAccounts"} {
				kv := lookupKV(part.Config, key)
				if kv == nil || (key == "AllowAccounts" && strings.EqualFold(kv.Value.Value, "ALL")) {
					continue
				}
				reportValue(p, kv, "create the accounts with sacctmgr before slurmctld reads slurm.conf, or reconfigure after",
					"partition %q: %s=%s: with associations enforced slurmctld looks the accounts up in the accounting database and leaves out, with an error line, any it cannot find", part.ID.Value, key, kv.Value.Value)
			}
		}
	},
}
