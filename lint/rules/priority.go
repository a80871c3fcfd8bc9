package rules

import (
	"fmt"
	"math"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// Priority, fair share and accounting: constraints.md R1-R6 and A1-A7.

// multifactorKeys are read only by priority/multifactor (R1).
var multifactorKeys = []string{
	"PriorityWeightAge", "PriorityWeightAssoc", "PriorityWeightFairshare", "PriorityWeightJobSize",
	"PriorityWeightPartition", "PriorityWeightQOS", "PriorityWeightTRES",
	"PriorityDecayHalfLife", "PriorityFavorSmall", "PriorityMaxAge", "PriorityUsageResetPeriod",
	"PriorityFlags", "PriorityCalcPeriod",
}

// PriorityWithoutMultifactor reports multifactor settings that the
// effective PriorityType never reads (R1).
var PriorityWithoutMultifactor = &lint.Rule{
	ID:       "priority-without-multifactor",
	Severity: diag.Warning,
	Summary:  "PriorityWeight* or another multifactor setting is set but PriorityType is not priority/multifactor",
	Doc: doc("Only priority/multifactor reads the PriorityWeight* factors and the decay, age and fair-share "+
		"settings. The default PriorityType is priority/basic in 22.05 and 23.02 and priority/multifactor "+
		"from 23.11, so a spec that relies on the default loses its weights on an older cluster.",
		"# --slurm-version 22.05\nconfig: {PriorityWeightFairshare: \"10000\"}",
		"# --slurm-version 22.05\nconfig: {PriorityType: priority/multifactor, PriorityWeightFairshare: \"10000\"}"),
	Check: func(p *lint.Pass) {
		e := effective(p)
		pt := e.val("PriorityType")
		if pluginIs(pt, "priority/multifactor") {
			return
		}
		why := "PriorityType=" + pt
		hint := "set PriorityType: priority/multifactor, or remove it"
		if e.user("PriorityType") == nil {
			why = fmt.Sprintf("PriorityType defaults to %s in Slurm %s", pt, e.v)
			hint = "set PriorityType: priority/multifactor explicitly"
		}
		for _, k := range multifactorKeys {
			if kv := e.user(k); kv != nil {
				reportKey(p, kv, hint, "%s is read only by priority/multifactor, but %s: it has no effect", kv.Key.Value, why)
			}
		}
	},
}

// integerWeights are the integer PriorityWeight* keys whose sum Slurm checks
// (R3).
var integerWeights = []string{"PriorityWeightAge", "PriorityWeightAssoc", "PriorityWeightFairshare",
	"PriorityWeightJobSize", "PriorityWeightPartition", "PriorityWeightQOS"}

// PriorityWeightOverflow reports weights whose sum overflows 32 bits (R3).
var PriorityWeightOverflow = &lint.Rule{
	ID:       "priority-weight-overflow",
	Severity: diag.Warning,
	Summary:  "The PriorityWeight* factors add up to more than 4294967295",
	Doc: doc("A job's priority is a 32-bit number. When the six integer weights add up to more than 2^32-1 "+
		"slurmctld warns that priorities may overflow, and jobs at the top wrap to low priorities.",
		`config: {PriorityType: priority/multifactor, PriorityWeightAge: "4000000000", PriorityWeightFairshare: "1000000000"}`,
		`config: {PriorityType: priority/multifactor, PriorityWeightAge: "1000", PriorityWeightFairshare: "100000"}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		var sum uint64
		var last = e.user(integerWeights[0])
		for _, k := range integerWeights {
			kv := e.user(k)
			if kv == nil {
				continue
			}
			if n, ok := slurmUint(kv); ok && n > 0 {
				sum += n
				last = kv
			}
		}
		if sum > math.MaxUint32 && last != nil {
			reportValue(p, last, "scale the weights down; only their ratios matter",
				"the PriorityWeight* factors add up to %d, more than 4294967295: job priorities may overflow", sum)
		}
	},
}

// PriorityDecayNeedsReset reports a zero half-life without a usage reset
// (R4).
var PriorityDecayNeedsReset = &lint.Rule{
	ID:       "priority-decay-needs-reset",
	Severity: diag.Error,
	Summary:  "PriorityDecayHalfLife is 0 and PriorityUsageResetPeriod is unset or NONE",
	Doc: doc("With a half-life of 0 past usage never decays, so it must be reset periodically. slurmctld "+
		"refuses PriorityDecayHalfLife=0 without a PriorityUsageResetPeriod; with NONE usage grows until "+
		"it rolls over.",
		`config: {PriorityType: priority/multifactor, PriorityDecayHalfLife: "0"}`,
		`config: {PriorityType: priority/multifactor, PriorityDecayHalfLife: "0", PriorityUsageResetPeriod: MONTHLY}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		hl := e.user("PriorityDecayHalfLife")
		if hl == nil {
			return
		}
		if mins, ok := catalog.ParseTime(hl.Value.Value); !ok || mins != 0 {
			return
		}
		reset := e.user("PriorityUsageResetPeriod")
		switch {
		case reset == nil:
			reportValue(p, hl, "set PriorityUsageResetPeriod (e.g. MONTHLY), or a non-zero half-life",
				"PriorityDecayHalfLife=%s without PriorityUsageResetPeriod: slurmctld rejects it (usage would roll over)", hl.Value.Value)
		case strings.EqualFold(reset.Value.Value, "NONE"):
			reportValueAs(p, diag.Warning, reset, "use DAILY, WEEKLY, MONTHLY, QUARTERLY or YEARLY",
				"PriorityUsageResetPeriod=NONE with PriorityDecayHalfLife=0: usage never decays nor resets and eventually rolls over")
		}
	},
}

// AccountingEnforceImplied notes the settings AccountingStorageEnforce
// turns on without saying so (A1).
var AccountingEnforceImplied = &lint.Rule{
	ID:       "accounting-enforce-implied",
	Severity: diag.Info,
	Summary:  "AccountingStorageEnforce implies values it does not list (safe ⇒ limits ⇒ associations)",
	Doc: doc("Each AccountingStorageEnforce value turns on others: limits adds associations, safe adds limits "+
		"and associations, qos and wckeys add associations, nojobs adds nosteps. With associations enforced "+
		"a user without an association in slurmdbd cannot submit; listing the implied values states that.",
		`config: {AccountingStorageEnforce: safe}`,
		`config: {AccountingStorageEnforce: "associations,limits,safe"}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		kv := e.user("AccountingStorageEnforce")
		if kv == nil {
			return
		}
		toks := tokenList(kv.Value.Value)
		if _, all := toks["all"]; all {
			return
		}
		implied := map[string][]string{
			"safe": {"limits", "associations"}, "limits": {"associations"}, "2": {"associations"},
			"qos": {"associations"}, "wckeys": {"associations"}, "nojobs": {"nosteps"},
		}
		missing := map[string]bool{}
		for t := range toks {
			for _, imp := range implied[t] {
				if _, listed := toks[imp]; !listed {
					missing[imp] = true
				}
			}
		}
		if len(missing) == 0 {
			return
		}
		names := sortedKeys(missing)
		reportValue(p, kv, "write "+kv.Value.Value+","+strings.Join(names, ",")+" to make it explicit",
			"AccountingStorageEnforce=%s also enforces %s", kv.Value.Value, strings.Join(names, " and "))
	},
}

// TrackWCKeyOverridden reports TrackWCKey=NO that enforcement turns on
// anyway (A4).
var TrackWCKeyOverridden = &lint.Rule{
	ID:       "trackwckey-overridden",
	Severity: diag.Warning,
	Summary:  "TrackWCKey=NO while AccountingStorageEnforce includes wckeys or all",
	Doc: doc("AccountingStorageEnforce=wckeys (or all) turns wckey tracking on whatever TrackWCKey says.",
		`config: {TrackWCKey: "NO", AccountingStorageEnforce: "associations,wckeys"}`,
		`config: {AccountingStorageEnforce: "associations,wckeys"}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		tw := e.user("TrackWCKey")
		if tw == nil || !isFalse(tw.Value.Value) || !e.has("AccountingStorageEnforce", "wckeys", "all") {
			return
		}
		reportValue(p, tw, "remove TrackWCKey, or drop wckeys/all from AccountingStorageEnforce",
			"TrackWCKey=%s has no effect: AccountingStorageEnforce=%s turns wckey tracking on", tw.Value.Value, e.val("AccountingStorageEnforce"))
	},
}

// isFalse reports whether a Slurm boolean is false.
func isFalse(v string) bool {
	switch strings.ToLower(v) {
	case "no", "false", "down", "0":
		return true
	}
	return false
}

// AccountingTRESGPU reports GPU pools whose GPU use is not accounted.
var AccountingTRESGPU = &lint.Rule{
	ID:       "accounting-tres-gpu",
	Severity: diag.Warning,
	Summary:  "AccountingStorageTRES is set without gres/gpu while GPU node pools render Gres=gpu",
	Doc: doc("AccountingStorageTRES is merged with the built-in list cpu,mem,energy,node,billing,fs/disk,vmem,"+
		"pages, which has no GPUs. A spec that lists TRES to account but leaves out gres/gpu does not account "+
		"the GPUs its pools provide (and fair share and limits cannot use them).",
		"nodePools:\n- {id: a4, machineSpec: {machineType: a4-highgpu-8g}, ...}\nconfig: {AccountingStorageTRES: \"cpu,mem,node\"}",
		"nodePools:\n- {id: a4, machineSpec: {machineType: a4-highgpu-8g}, ...}\nconfig: {AccountingStorageTRES: \"cpu,mem,node,gres/gpu\"}"),
	Check: func(p *lint.Pass) {
		e := effective(p)
		kv := e.user("AccountingStorageTRES")
		if kv == nil {
			return
		}
		pool := firstWholeGPUPool(p)
		if pool == "" {
			return
		}
		for _, t := range strings.Split(strings.ToLower(kv.Value.Value), ",") {
			if t == "gres/gpu" || strings.HasPrefix(t, "gres/gpu:") {
				return
			}
		}
		reportValue(p, kv, "add gres/gpu", "AccountingStorageTRES=%s does not account GPUs, but node pool %q has them", kv.Value.Value, pool)
	},
}

// firstWholeGPUPool returns the id of the first compute pool for which a
// Gres=gpu is rendered, or "".
func firstWholeGPUPool(p *lint.Pass) string {
	for _, pool := range computePools(p) {
		if m := pool.Machine; m != nil && m.HasGPU() {
			if _, whole := m.WholeGPUs(); whole {
				return pool.ID.Value
			}
		}
	}
	return ""
}
