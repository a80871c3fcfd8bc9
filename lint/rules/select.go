package rules

import (
	"fmt"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// Resource selection (constraints.md S5-S8): the select plugin, its
// parameters and what depends on them. Memory limits are in memory.go, GRES
// in gres.go, node lines (N1-N8) in nodelines.go.

// maxSlurmNodes is Slurm's MAX_SLURM_NODES, the bound read_config.c puts
// on MaxNodeCount from 24.11.
const maxSlurmNodes = 65536

// maxNodeTable is the smallest MaxNodeCount whose node table slurmctld
// 22.05 cannot allocate (2^31 entries; truth13).
const maxNodeTable = 1 << 31

// MaxNodeCountSelect reports MaxNodeCount without select/cons_tres (S5).
var MaxNodeCountSelect = &lint.Rule{
	ID:       "max-node-count-select",
	Severity: diag.Error,
	Summary:  "MaxNodeCount is set but SelectType is not select/cons_tres, it is below the rendered node count, or above 65536",
	Doc: doc("MaxNodeCount works only with select/cons_tres (the service default); with another SelectType "+
		"slurmctld rejects the configuration. It must also cover every node the pools render (the sum of "+
		"maxNodeCount): slurmctld exits when the NodeName lines pass it. From 24.11 it may not exceed "+
		"MAX_SLURM_NODES (65536; UNLIMITED included): slurmctld refuses the configuration; 22.05 sizes its node table by it and aborts from 2^31 (UNLIMITED included). "+
		"MaxNodeCount=0 is below the nodes from 24.11 (slurmctld exits); 22.05 reads it as unset and counts the "+
		"nodes, so there it is only a warning.",
		`config: {SelectType: select/linear, MaxNodeCount: "2000"}`,
		`config: {MaxNodeCount: "2000"}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		kv := e.user("MaxNodeCount")
		if kv == nil {
			return
		}
		var nodes int64
		for _, pool := range computePools(p) {
			nodes += pool.MaxNodeCount.Value
		}
		if n, ok := slurmUint(kv); ok {
			switch {
			case e.v >= catalog.V2411 && n > maxSlurmNodes:
				// slurmctld 24.11 and 26.05: "Specified MaxNodeCount in
				// slurm.conf (-1) is higher than the maximum allowed (65536)".
				reportValue(p, kv, fmt.Sprintf("use at most %d", maxSlurmNodes),
					"MaxNodeCount=%s is above %d (MAX_SLURM_NODES): slurmctld %s refuses the configuration", kv.Value.Value, maxSlurmNodes, e.v)
			case n >= maxNodeTable:
				// slurmctld 22.05 sizes its node table by it and
				// aborts (seen: "signal: aborted (core dumped)" for
				// UNLIMITED, 2^32-2 and 2^31 on a 24 GiB host, random
				// seed 20265004; 2^24 starts: truth13).
				reportValue(p, kv, fmt.Sprintf("use at most %d", maxSlurmNodes),
					"MaxNodeCount=%s: slurmctld %s sizes its node table by it and aborts", kv.Value.Value, e.v)
			}
		}
		if n, ok := e.num("MaxNodeCount"); ok && n == 0 && e.v < catalog.V2302 {
			// slurmctld 22.05 reads 0 as unset and sizes the node table
			// by the nodes (scontrol: MaxNodeCount = 2; the oracle's seed
			// 20261224): the spec runs as without it, dropped. 24.11 and
			// 26.05 exit.
			sev := diag.Warning
			if catalog.PolicySeverity(catalog.TreatDropped) == catalog.SeverityError {
				sev = diag.Error
			}
			reportValueAs(p, sev, kv, "remove MaxNodeCount",
				"MaxNodeCount=0 is unset to slurmctld %s, which counts the nodes the node pools render (%d); from 24.11 slurmctld exits", e.v, nodes)
		} else if ok && n < nodes {
			// slurmctld 22.05: "Attempting to create node record past
			// MaxNodeCount", fatal.
			reportValue(p, kv, fmt.Sprintf("set MaxNodeCount to at least %d, or remove it", nodes),
				"MaxNodeCount=%d is below the %d nodes the node pools render: slurmctld exits", n, nodes)
		}
		if strings.Contains(strings.ToLower(e.val("SelectType")), "cons_tres") {
			return
		}
		reportKey(p, kv, "remove SelectType (the service default is select/cons_tres), or MaxNodeCount",
			"MaxNodeCount needs select/cons_tres, but SelectType=%s: slurmctld rejects it", e.val("SelectType"))
	},
}

// SelectLinearTopologyTree reports a combination fatal from 23.11 (S6).
var SelectLinearTopologyTree = &lint.Rule{
	ID:       "select-linear-topology-tree",
	Severity: diag.Error,
	Summary:  "SelectType=select/linear with TopologyPlugin=topology/tree",
	Doc: doc("From 23.11 slurmctld exits when select/linear is combined with topology/tree.",
		`config: {SelectType: select/linear, TopologyPlugin: topology/tree}`,
		`config: {SelectType: select/cons_tres}  # topology/tree also needs a topology.conf (plugin-needs-file)`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		if e.v < catalog.V2311 || !pluginIs(e.val("SelectType"), "select/linear") || !pluginIs(e.val("TopologyPlugin"), "topology/tree") {
			return
		}
		kv, _ := e.userAnchor("SelectType", "TopologyPlugin")
		reportValue(p, kv, "use select/cons_tres (the service default)",
			"select/linear with topology/tree is fatal from Slurm 23.11 (target %s)", e.v)
	},
}

// partitionUnits are the SelectTypeParameters a partition may override
// (S7).
var partitionUnits = []string{"cr_core", "cr_core_memory", "cr_socket", "cr_socket_memory"}

// PartitionSelectParamsIgnored reports partition SelectTypeParameters that
// the global setting makes Slurm ignore (S7).
var PartitionSelectParamsIgnored = &lint.Rule{
	ID:       "partition-select-params-ignored",
	Severity: diag.Warning,
	Summary:  "A partition sets SelectTypeParameters but the global value is not CR_Core* or CR_Socket*",
	Doc: doc("A partition's SelectTypeParameters replaces the global one only when the global value is CR_Core, "+
		"CR_Core_Memory (the service default), CR_Socket or CR_Socket_Memory; otherwise it is ignored.",
		"config: {SelectTypeParameters: CR_CPU_Memory}\npartitions:\n- {id: batch, nodePoolIds: [cpu], config: {SelectTypeParameters: CR_Socket_Memory}}",
		"partitions:\n- {id: batch, nodePoolIds: [cpu], config: {SelectTypeParameters: CR_Socket_Memory}}"),
	Check: func(p *lint.Pass) {
		e := effective(p)
		global := e.val("SelectTypeParameters")
		if hasToken(global, partitionUnits...) {
			return
		}
		for _, part := range p.Cluster.Slurm.Partitions {
			if kv := lookupKV(part.Config, "SelectTypeParameters"); kv != nil {
				reportKey(p, kv, "set the global SelectTypeParameters to CR_Core_Memory (or another CR_Core*/CR_Socket* unit)",
					"partition %q: SelectTypeParameters is ignored because the global SelectTypeParameters=%s is not CR_Core* or CR_Socket*", part.ID.Value, global)
			}
		}
	},
}

// CloudDNSDropped reports a SlurmctldParameters that replaces the service's
// cloud_dns default while nodes may be powered down.
var CloudDNSDropped = &lint.Rule{
	ID:       "cloud-dns-dropped",
	Severity: diag.Warning,
	Summary:  "SlurmctldParameters replaces the service default cloud_dns while some nodes may be powered down",
	Doc: doc("When a pool can scale (minNodeCount < maxNodeCount) the service writes SlurmctldParameters=cloud_dns, "+
		"because powered-down nodes have no DNS entry. A SlurmctldParameters in the spec replaces that default, "+
		"so it must list cloud_dns itself.",
		"nodePools:\n- {id: cpu, scalingSpec: {minNodeCount: 0, maxNodeCount: 4}, ...}\nconfig: {SlurmctldParameters: enable_configless}",
		"nodePools:\n- {id: cpu, scalingSpec: {minNodeCount: 0, maxNodeCount: 4}, ...}\nconfig: {SlurmctldParameters: \"cloud_dns,enable_configless\"}"),
	Check: func(p *lint.Pass) {
		e := effective(p)
		kv := e.user("SlurmctldParameters")
		if kv == nil || hasToken(kv.Value.Value, "cloud_dns") {
			return
		}
		for _, pool := range computePools(p) {
			if pool.MinNodeCount.Unknown || pool.MaxNodeCount.Unknown {
				continue // the schema refused a count
			}
			if pool.MinNodeCount.Value < pool.MaxNodeCount.Value {
				reportValue(p, kv, "add cloud_dns: SlurmctldParameters: cloud_dns,"+kv.Value.Value,
					"SlurmctldParameters=%s drops the service default cloud_dns, but node pool %q scales %d..%d", kv.Value.Value, pool.ID.Value, pool.MinNodeCount.Value, pool.MaxNodeCount.Value)
				return
			}
		}
	},
}

// crUnits are the SelectTypeParameters tokens that set CR_CPU, CR_CORE or
// CR_SOCKET. CR_CORE_DEFAULT_DIST_BLOCK is a flag of its own, not a unit.
var crUnits = map[string]bool{
	"cr_cpu": true, "cr_cpu_memory": true, "cr_core": true, "cr_core_memory": true, "cr_socket": true, "cr_socket_memory": true,
}

// setsNoBit reports whether every token of a SelectTypeParameters value is
// one that Slurm of series v accepts without setting anything:
// CR_ALLOCATE_FULL_SOCKET up to 22.05 ("CR_ALLOCATE_FULL_SOCKET is
// deprecated. It is now the default for CR_SOCKET*"; 23.02 refuses it).
func setsNoBit(toks map[string]string, v catalog.Version) bool {
	for name := range toks {
		if name != "cr_allocate_full_socket" || v > catalog.V2205 {
			return false
		}
	}
	return true
}

// SelectParamsNoUnit reports consumable-resource selection without a CPU,
// core or socket unit.
var SelectParamsNoUnit = &lint.Rule{
	ID:       "select-params-no-unit",
	Severity: diag.Error,
	Summary:  "SelectTypeParameters lacks a CR_CPU, CR_Core or CR_Socket unit (cons_tres, cons_res), or has one (linear)",
	Doc: doc("The consumable-resource select plugins allocate CPUs, cores or sockets; slurmctld exits when the "+
		"global SelectTypeParameters names none of CR_CPU*, CR_Core* and CR_Socket* (\"You need at least "+
		"CR_(CPU|CORE|SOCKET)*\", seen on 24.11; CR_Memory alone is only for select/linear). select/linear is "+
		"the opposite: a unit is fatal, and the service default CR_Core_Memory has one (seen on 26.05); so is "+
		"select/cray_aries (22.05-23.11) without OTHER_CONS_RES or OTHER_CONS_TRES, which runs linear (seen on 22.05). A spec "+
		"that sets SelectTypeParameters replaces the default. A value that sets nothing, CR_ALLOCATE_FULL_SOCKET (which 22.05 "+
		"accepts and ignores), is a warning up to 23.11: those releases then run CR_Core_Memory (seen on 22.05).",
		`config: {SelectTypeParameters: "CR_LLN,CR_ONE_TASK_PER_CORE"}`,
		`config: {SelectTypeParameters: "CR_Core_Memory,CR_LLN"}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		kv := e.user("SelectTypeParameters")
		st := strings.ToLower(e.val("SelectType"))
		// select/cray_aries (22.05-23.11) runs linear unless the
		// parameters name OTHER_CONS_RES or OTHER_CONS_TRES
		// (select.c select_running_linear_based, SELECT_PLUGIN_CRAY_LINEAR).
		crayLinear := strings.Contains(st, "cray_aries") && !hasToken(e.val("SelectTypeParameters"), "other_cons_res", "other_cons_tres")
		if strings.Contains(st, "linear") || crayLinear {
			// select/linear: "Invalid SelectTypeParameters for
			// select/linear: ... it can't contain CR_(CPU|CORE|SOCKET)".
			for name := range tokenList(e.val("SelectTypeParameters")) {
				if crUnits[name] {
					at := kv
					if at == nil {
						at = e.user("SelectType")
					}
					if at != nil {
						hint := "set SelectTypeParameters: CR_Memory (or nothing but CR_Memory/CR_LLN) with select/linear"
						if crayLinear {
							hint = "add OTHER_CONS_TRES to SelectTypeParameters (select/cray_aries then runs cons_tres), or use CR_Memory"
						}
						reportValue(p, at, hint,
							"SelectType=%s cannot take SelectTypeParameters=%s (the service default is CR_Core_Memory): slurmctld exits", e.val("SelectType"), e.val("SelectTypeParameters"))
					}
					return
				}
			}
			return
		}
		if kv == nil || !(strings.Contains(st, "cons_tres") || strings.Contains(st, "cons_res")) {
			return
		}
		toks := tokenList(kv.Value.Value)
		for name := range toks {
			if crUnits[name] {
				return
			}
		}
		if e.v <= catalog.V2311 && len(toks) > 0 && setsNoBit(toks, e.v) {
			// cons_common (22.05, 23.02) and cons_tres (23.11) run
			// CR_Core_Memory when the parameters set nothing at all;
			// 24.05 and later exit (slurm.conf's value is read as
			// written).
			reportValueAs(p, diag.Warning, kv, "remove SelectTypeParameters (the service default is CR_Core_Memory)",
				"SelectTypeParameters=%s sets nothing (Slurm %s ignores CR_ALLOCATE_FULL_SOCKET), so %s runs its default, CR_Core_Memory, as without the setting",
				kv.Value.Value, e.v, e.val("SelectType"))
			return
		}
		reportValue(p, kv, "add a unit: CR_Core_Memory (the service default), CR_CPU_Memory or CR_Socket_Memory",
			"SelectTypeParameters=%s has no CR_CPU, CR_Core or CR_Socket unit, which %s needs: slurmctld exits", kv.Value.Value, e.val("SelectType"))
	},
}
