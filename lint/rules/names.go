package rules

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/hostlist"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/compiler/managed"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// Names that slurmctld looks up when it starts: QOS in the accounting
// database, nodes and partitions of slurm.conf, and the switches of
// topology.conf.

// defaultQOS is the only QOS the accounting database of a new cluster has.
const defaultQOS = "normal"

// PartitionQOSUnknown reports partition QOS names a new cluster lacks.
var PartitionQOSUnknown = &lint.Rule{
	ID:       "partition-qos-unknown",
	Severity: diag.Error,
	Summary:  "A partition names a QOS that a new cluster's accounting database does not have",
	Doc: doc("A new cluster's accounting database has one QOS, normal, and a spec cannot create others. "+
		"slurmctld looks up a partition's QOS=, AllowQos and DenyQos when it starts. From Slurm 25.11 a "+
		"missing one is fatal (\"Partition … has an invalid qos\", \"… invalid AllowQOS\"; seen on 26.05). "+
		"Before 25.11 a missing QOS= is fatal only when AccountingStorageEnforce has qos or all (seen on 22.05 "+
		"and 24.11), otherwise the partition runs without it; missing AllowQos/DenyQos entries are dropped "+
		"with an error, and an AllowQos of only missing QOS admits no job (warnings). With an accounting file, which "+
		"declares the QOS, accounting-partition-name checks these names instead; a QOS the file declares still does "+
		"not exist when a new cluster's slurmctld first starts (the file is applied once the cluster is up), so "+
		"naming one is a warning: before 25.11 slurmctld ignores it until `scontrol reconfigure` after the apply, "+
		"from 25.11 it exits (seen on 22.05, 24.11 and 26.05). Deploy without the key, apply the file, then add it.",
		"partitions:\n- {id: urgent, nodePoolIds: [a4], config: {QOS: high}}",
		"partitions:\n- {id: urgent, nodePoolIds: [a4], config: {QOS: normal}}\n# then: sacctmgr add qos high; scontrol update PartitionName=urgent QOS=high"),
	Check: func(p *lint.Pass) {
		e := effective(p)
		if p.Options.Accounting != nil {
			firstStart(p, e.v)
			return // the accounting file declares the rest: accounting-partition-name
		}
		// 25.11 made a missing QOS fatal whatever AccountingStorageEnforce
		// says, for QOS= and for AllowQos/DenyQos (read_config.c).
		strict := e.v >= catalog.V2511
		enforced := strict || e.has("AccountingStorageEnforce", "qos", "all")
		for _, part := range p.Cluster.Slurm.Partitions {
			if kv := lookupKV(part.Config, "QOS"); kv != nil && kv.Value.Value != "" && !strings.EqualFold(kv.Value.Value, defaultQOS) {
				hint := "use QOS=normal, or create the QOS with sacctmgr and set it with scontrol update after the cluster is up"
				if enforced {
					reportValue(p, kv, hint, "partition %q: QOS %q does not exist in a new cluster's accounting database (only %s does): slurmctld %s exits (\"has an invalid qos\")",
						part.ID.Value, kv.Value.Value, defaultQOS, e.v)
				} else {
					reportValueAs(p, diag.Warning, kv, hint, "partition %q: QOS %q does not exist in a new cluster's accounting database (only %s does): slurmctld runs the partition without it",
						part.ID.Value, kv.Value.Value, defaultQOS)
				}
			}
			for _, key := range []string{"AllowQos", "DenyQos"} {
				kv := lookupKV(part.Config, key)
				if kv == nil || strings.EqualFold(kv.Value.Value, "ALL") {
					continue
				}
				var missing []string
				for _, q := range strings.Split(kv.Value.Value, ",") {
					if q = strings.TrimSpace(q); q != "" && !strings.EqualFold(q, defaultQOS) {
						missing = append(missing, q)
					}
				}
				if len(missing) > 0 && strict {
					reportValue(p, kv, "create the QOS with sacctmgr first, then add it to the partition with scontrol update",
						"partition %q: %s names QOS %s, which a new cluster's accounting database lacks: slurmctld %s exits (\"has an invalid %s\")",
						part.ID.Value, kv.Key.Value, strings.Join(missing, ", "), e.v, kv.Key.Value)
				} else if len(missing) > 0 {
					reportValueAs(p, diag.Warning, kv, "create the QOS with sacctmgr before jobs use the partition",
						"partition %q: %s names QOS %s, which a new cluster's accounting database lacks: slurmctld ignores %s until it is created",
						part.ID.Value, kv.Key.Value, strings.Join(missing, ", "), plural(len(missing), "it", "them"))
				}
			}
		}
	},
}

// firstStart warns, with an accounting file, of the partition QOS names
// only that file declares: they do not exist when a new cluster's slurmctld
// first starts, since the file is applied once the cluster is up.
func firstStart(p *lint.Pass, v catalog.Version) {
	n := declared(p.Options.Accounting)
	for _, part := range p.Cluster.Slurm.Partitions {
		for _, key := range []string{"QOS", "AllowQos", "DenyQos"} {
			kv := lookupKV(part.Config, key)
			if kv == nil || kv.Value.Unknown || strings.EqualFold(kv.Value.Value, "ALL") {
				continue
			}
			var later []string
			for _, q := range strings.Split(kv.Value.Value, ",") {
				// slurmdbd stores these names in lower case.
				if q = strings.ToLower(strings.TrimSpace(q)); q != "" && q != defaultQOS && n.qos[q] {
					later = append(later, q)
				}
			}
			if len(later) == 0 {
				continue
			}
			what := fmt.Sprintf("slurmctld %s ignores %s until `scontrol reconfigure` after the apply", v, plural(len(later), "it", "them"))
			if v >= catalog.V2511 {
				what = fmt.Sprintf("slurmctld %s exits at its first start", v)
			}
			reportValueAs(p, diag.Warning, kv, "deploy without "+kv.Key.Value+", apply the accounting file, then add it",
				"partition %q: %s names QOS %s, which %s declares but a new cluster's database lacks until the file is applied, after slurmctld starts: %s",
				part.ID.Value, kv.Key.Value, strings.Join(later, ", "), p.Options.Accounting.Name, what)
		}
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// PluginNeedsFile reports plugins that need a file or tool on the
// controller that the service does not provide.
var PluginNeedsFile = &lint.Rule{
	ID:       "plugin-needs-file",
	Severity: diag.Error,
	Summary:  "A plugin needs a file or tool on the controller that the service does not provide",
	Doc: doc("Some plugins read a file next to slurm.conf or call a tool: job_submit/lua (job_submit.lua), "+
		"burst_buffer/lua, jobcomp/lua, node_features/helpers (helpers.conf), topology/tree, block, hypercube and "+
		"ring (topology.conf), burst_buffer/datawarp (Cray DataWarp), topology/3d_torus (3-D node names), "+
		"jobcomp/script without JobCompLoc, jobcomp/mysql without JobCompHost; energy plugins read hardware "+
		"counters a Compute Engine VM lacks (ipmi, xcc, rapl, pm_counters, ibmaem). The service writes none of these "+
		"files and a spec cannot supply them: slurmctld or slurmd exits (topology.conf after waiting 60 s) or logs "+
		"errors, as seen on Slurm 22.05, 24.11 and 26.05; where a release starts without an error (22.05's "+
		"jobcomp/elasticsearch without JobCompLoc) the plugin delivers nothing, which is an error too. "+
		"The facts are the catalog's (schema/catalog/data/overrides.tsv, needs).",
		"config: {TopologyPlugin: topology/tree, JobSubmitPlugins: lua}",
		"config: {JobCompType: jobcomp/script, JobCompLoc: /usr/bin/logger}"),
	Check: func(p *lint.Pass) {
		e := effective(p)
		for _, k := range catalogKeys(p.Cluster) {
			if k.scope != "global" || len(k.param.Values) == 0 {
				continue
			}
			toks := []string{k.kv.Value.Value}
			if k.param.IsList() {
				toks = strings.Split(k.kv.Value.Value, ",")
			}
			for _, tok := range toks {
				ev, ok := k.param.Token(e.v, tok)
				if !ok || ev.Needs == "" || needsMet(e, ev) {
					continue
				}
				hint := "remove it; the service provides no such file"
				if key, toks := ev.NeedsTokens(); len(toks) > 0 {
					hint = "set " + strings.Join(toks, "=, ") + "= in " + key + ", or remove it"
				} else if key != "" {
					hint = "set " + key + ", or remove it"
				}
				effect := "slurmctld or slurmd exits or logs errors"
				if ev.NeedsSilentIn.Has(e.v) {
					effect = fmt.Sprintf("slurmctld %s starts without it and logs no error, but the plugin delivers nothing", e.v)
				}
				reportValue(p, k.kv, hint, "%s=%s needs %s, which the service does not provide: %s",
					k.kv.Key.Value, strings.TrimSpace(tok), ev.Needs, effect)
			}
		}
	},
}

// needsMet reports whether the spec sets the key that provides what a
// plugin token needs, with every token the catalog names in it
// (certmgr/script's four scripts in CertmgrParameters).
func needsMet(e *conf, ev catalog.EnumValue) bool {
	key, toks := ev.NeedsTokens()
	if key == "" {
		return false
	}
	kv := e.user(key)
	if kv == nil {
		return false
	}
	for _, t := range toks {
		if !hasToken(kv.Value.Value, t) {
			return false
		}
	}
	return true
}

// SuspendExcUnknown reports SuspendExcNodes and SuspendExcParts entries
// that name no rendered node or partition.
var SuspendExcUnknown = &lint.Rule{
	ID:       "suspend-exc-unknown",
	Severity: diag.Error,
	Summary:  "SuspendExcNodes or SuspendExcParts names a node or partition the cluster does not have",
	Doc: doc("Nodes are named <cluster id>-<node pool id>-<index> (index below maxNodeCount) and partitions by their "+
		"id. slurmctld drops the whole SuspendExcNodes value when one name is unknown (\"Invalid SuspendExcNodes "+
		"… ignored\") and each unknown SuspendExcParts entry, so the nodes meant to stay powered up are "+
		"suspended. Node set names (pool ids) are not node names here.",
		"# cluster c, pool a4 with maxNodeCount 4\nconfig: {SuspendExcNodes: \"a4-[0-1]\", SuspendExcParts: gpu}",
		"config: {SuspendExcNodes: \"c-a4-[0-1]\", SuspendExcParts: train}"),
	Check: func(p *lint.Pass) {
		e := effective(p)
		c := p.Cluster
		if kv := e.user("SuspendExcNodes"); kv != nil && c.ID.Value != "" {
			if nodeNamesUnknown(p) {
				return
			}
			bad, err := unknownNodes(c, kv.Value.Value)
			switch {
			case err != nil:
				reportValue(p, kv, "write a host list such as "+managed.NodeName(c.ID.Value, "POOL", 0), "SuspendExcNodes=%s: %v: slurmctld ignores it", kv.Value.Value, err)
			case len(bad) > 0:
				reportValue(p, kv, "node names are "+managed.NodeName(c.ID.Value, "<pool id>", 0)+"…; index below the pool's maxNodeCount",
					"SuspendExcNodes names %s, which %s not a node of this cluster: slurmctld ignores the whole value", strings.Join(bad, ", "), plural(len(bad), "is", "are"))
			}
		}
		if kv := e.user("SuspendExcParts"); kv != nil {
			if c.PartitionsUnknown() {
				p.ReadUnknown()
				return
			}
			ids := map[string]bool{}
			var all []string
			for _, part := range c.Slurm.Partitions {
				ids[part.ID.Value] = true
				all = append(all, part.ID.Value)
			}
			var bad []string
			for _, name := range strings.Split(kv.Value.Value, ",") {
				if name = strings.TrimSpace(name); name != "" && !ids[name] {
					bad = append(bad, name)
				}
			}
			if len(bad) > 0 {
				reportValue(p, kv, "partitions: "+strings.Join(all, ", "),
					"SuspendExcParts names %s, which %s not a partition of this cluster: slurmctld ignores %s", strings.Join(bad, ", "), plural(len(bad), "is", "are"), plural(len(bad), "it", "them"))
			}
		}
	},
}

// nodeNamesUnknown reports, and records in the pass, that the rendered
// node names are not known: the schema refused a pool, the login pool's id
// or a maxNodeCount.
func nodeNamesUnknown(p *lint.Pass) bool {
	unknown := p.Cluster.ComputePoolsUnknown()
	for _, pool := range p.Cluster.NodePools {
		unknown = unknown || pool.MaxNodeCount.Unknown
	}
	if unknown {
		p.ReadUnknown()
	}
	return unknown
}

// maxExcHosts bounds how many names a SuspendExcNodes host list may expand
// to before the rule gives up on it.
const maxExcHosts = 1 << 16

// unknownNodes returns the names in a SuspendExcNodes value that are not
// nodes of the cluster (at most 5), or an error for a value Slurm cannot
// read. The value is a host list, or host lists each with a ":count" of how
// many of its nodes to keep up ("c-a4-[0-3]:2,c-cpu-0:1").
func unknownNodes(c *ir.Cluster, value string) ([]string, error) {
	lists := []string{value}
	if strings.Contains(value, ":") {
		lists = nil
		for _, part := range strings.Split(value, ":") {
			// "hosts:count,hosts:count": after the first ':' each piece
			// is "count,hosts" (the last is a bare count).
			if len(lists) > 0 {
				n, hosts, _ := strings.Cut(part, ",")
				if k, err := strconv.Atoi(n); err != nil || k < 1 {
					return nil, fmt.Errorf("%q is not a node count", n)
				}
				part = hosts
			}
			if part != "" {
				lists = append(lists, part)
			}
		}
	}
	var bad []string
	budget := hostlist.NewBudget(maxExcHosts)
	for _, l := range lists {
		names, err := hostlist.Expand(l, budget)
		if tooMany := (*hostlist.TooManyError)(nil); errors.As(err, &tooMany) {
			return nil, fmt.Errorf("host list %q is too long to check", l)
		}
		if err != nil {
			return nil, err
		}
		for _, n := range names {
			if !isNodeName(c, n) && len(bad) < 5 {
				bad = append(bad, n)
			}
		}
	}
	return bad, nil
}

// isNodeName reports whether name is a rendered node: <cluster>-<pool>-<i>
// with i below the pool's maxNodeCount, written without leading zeros.
func isNodeName(c *ir.Cluster, name string) bool {
	for _, pool := range c.ComputePools() {
		prefix := managed.NodeName(c.ID.Value, pool.ID.Value, 0)
		prefix = prefix[:len(prefix)-1]
		rest, ok := strings.CutPrefix(name, prefix)
		if !ok || rest == "" || (len(rest) > 1 && rest[0] == '0') {
			continue
		}
		if i, err := strconv.ParseInt(rest, 10, 64); err == nil && i >= 0 && i < pool.MaxNodeCount.Value {
			return true
		}
	}
	return false
}
