package rules

import (
	"regexp"
	"slices"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/lint"
)

// defaultTRES are the TRES slurmctld always tracks; AccountingStorageTRES
// adds to them (constraints.md A5).
var defaultTRES = []string{"cpu", "mem", "energy", "node", "billing", "fs/disk", "vmem", "pages"}

// configuredTRES returns the TRES slurmctld tracks, lower-cased: the
// defaults and AccountingStorageTRES (gres/gpu brings gres/gpumem and
// gres/gpuutil).
func configuredTRES(e *conf) map[string]bool {
	out := map[string]bool{}
	for _, t := range defaultTRES {
		out[t] = true
	}
	for _, t := range strings.Split(strings.ToLower(e.val("AccountingStorageTRES")), ",") {
		if t = strings.TrimSpace(t); t != "" {
			out[t] = true
			if t == "gres/gpu" {
				out["gres/gpumem"], out["gres/gpuutil"] = true, true
			}
		}
	}
	return out
}

// TRESWeightUnknown reports TRES weights for TRES slurmctld does not track.
var TRESWeightUnknown = &lint.Rule{
	ID:       "tres-weight-unknown",
	Severity: diag.Error,
	Summary:  "A TRES weight names a TRES that AccountingStorageTRES does not configure, or is not a number",
	Doc: doc("TRESBillingWeights (partitions), PriorityWeightTRES (with priority/multifactor) and TRESWeights "+
		"(nodeSets) may weigh only tracked TRES: cpu, mem, energy, node, billing, fs/disk, vmem, pages and what "+
		"AccountingStorageTRES adds. A weight for anything else, such as GRES/gpu without gres/gpu in "+
		"AccountingStorageTRES, makes slurmctld exit (\"TRES weight 'GRES:gpu' is not a configured TRES "+
		"type\", Slurm 22.05). The service writes GresTypes=gpu for GPU pools but not AccountingStorageTRES, "+
		"so the spec must add the TRES it weighs. A weight is a number, with a unit K, M, G, T or P for memory "+
		"(Mem=0.25G); anything else makes slurmctld exit too (\"Invalid unit type\", \"failed to parse tres weights str\").",
		"partitions:\n- {id: gpu, nodePoolIds: [a4], config: {TRESBillingWeights: \"CPU=1.0,GRES/gpu=8.0\"}}",
		"config: {AccountingStorageTRES: gres/gpu}\npartitions:\n- {id: gpu, nodePoolIds: [a4], config: {TRESBillingWeights: \"CPU=1.0,GRES/gpu=8.0\"}}"),
	Check: func(p *lint.Pass) {
		e := effective(p)
		tracked := configuredTRES(e)
		check := func(kv *ir.KV, where string) {
			for _, item := range strings.Split(kv.Value.Value, ",") {
				item = strings.TrimSpace(item)
				if item == "" {
					continue
				}
				name, weight, ok := strings.Cut(item, "=")
				if !ok || weight == "" {
					reportValue(p, kv, "write TYPE=WEIGHT, such as CPU=1.0", "%s%s: %q is not a TRES weight (TYPE=WEIGHT): slurmctld exits", where, kv.Key.Value, item)
					continue
				}
				if !tresWeightNumber.MatchString(weight) {
					// slurm_get_tres_weight_array: strtod, then a unit of
					// KMGTP ("Invalid unit type 'a'", fatal; fidelity seed
					// 20261212, TRESWeights=CPU=abc).
					reportValue(p, kv, "write a number, with K, M, G, T or P after it for memory, such as Mem=0.25G",
						"%s%s: the weight %q of %s is not a number with an optional unit K, M, G, T or P: slurmctld exits", where, kv.Key.Value, weight, name)
					continue
				}
				if !tracked[strings.ToLower(name)] {
					reportValue(p, kv, "add "+strings.ToLower(name)+" to orchestratorSpec.slurmSpec.config.AccountingStorageTRES",
						"%s%s weighs %s, which is not a configured TRES (AccountingStorageTRES lacks %s): slurmctld exits",
						where, kv.Key.Value, name, strings.ToLower(name))
				}
			}
		}
		if kv := e.user("PriorityWeightTRES"); kv != nil && pluginIs(e.val("PriorityType"), "priority/multifactor") {
			check(kv, "")
		}
		for _, part := range p.Cluster.Slurm.Partitions {
			if kv := lookupKV(part.Config, "TRESBillingWeights"); kv != nil {
				check(kv, "partition "+part.ID.Value+": ")
			}
		}
		for _, ns := range p.Cluster.Slurm.NodeSets {
			if kv := lookupKV(ns.Config, "TRESWeights"); kv != nil {
				check(kv, "node pool "+ns.NodePoolID.Value+": ")
			}
		}
	},
}

// tresWeightNumber is a TRES weight as Slurm reads it: what strtod reads,
// then nothing or a unit whose first letter is K, M, G, T or P.
var tresWeightNumber = regexp.MustCompile(`^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?([KMGTPkmgtp].*)?$`)

// tresTypes are the TRES types slurmctld's _init_tres knows (controller.c,
// the same in 22.05, 24.11 and 26.05): names alone, and prefixes that need
// a name after the slash.
var (
	tresNames    = []string{"billing", "cpu", "energy", "mem", "node", "pages", "vmem"}
	tresPrefixes = []string{"bb/", "fs/", "gres/", "ic/", "license/"}
)

// AccountingTRESType reports AccountingStorageTRES items slurmctld does not
// know.
var AccountingTRESType = &lint.Rule{
	ID:       "accounting-tres-type",
	Severity: diag.Error,
	Summary:  "AccountingStorageTRES names a TRES type slurmctld does not know",
	Doc: doc("AccountingStorageTRES is a comma list of cpu, mem, energy, node, billing, vmem, pages, or a typed "+
		"TRES with a name: bb/NAME, fs/NAME, gres/NAME, ic/NAME, license/NAME. slurmctld exits on anything "+
		"else (\"Unknown tres type '...', acceptable types are Billing,CPU,Energy,FS/,Gres/,IC/,License/,Mem,"+
		"Node,Pages,VMem\"). A typed TRES without a name (gres/) tracks nothing.",
		`config: {AccountingStorageTRES: "gres/gpu,gpu"}`,
		`config: {AccountingStorageTRES: "gres/gpu,license/matlab"}`),
	Check: func(p *lint.Pass) {
		kv := effective(p).user("AccountingStorageTRES")
		if kv == nil {
			return
		}
		for _, item := range strings.Split(kv.Value.Value, ",") {
			item = strings.TrimSpace(item)
			if item == "" {
				continue
			}
			low := strings.ToLower(item)
			if slices.Contains(tresNames, low) {
				continue
			}
			known := false
			for _, pre := range tresPrefixes {
				if strings.HasPrefix(low, pre) {
					known = true
					if len(low) == len(pre) {
						reportValue(p, kv, "name it, such as "+pre+"gpu", "AccountingStorageTRES item %q has no name after %s: it tracks nothing", item, pre)
					}
				}
			}
			if !known {
				reportValue(p, kv, "use cpu, mem, energy, node, billing, vmem, pages, or bb/, fs/, gres/, ic/, license/ with a name",
					"AccountingStorageTRES item %q is not a TRES type: slurmctld exits (\"Unknown tres type\")", item)
			}
		}
	},
}
