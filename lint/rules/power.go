package rules

import (
	"fmt"
	"strconv"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// maxNodeRate is power_save.c's MAX_NODE_RATE, the largest SuspendRate and
// ResumeRate (nodes per minute).
const maxNodeRate = 60000

// PowerSaveDisabled reports settings with which slurmctld turns power
// saving off while node pools rely on it (power_save.c, 24.05+).
var PowerSaveDisabled = &lint.Rule{
	ID:       "power-save-disabled",
	Severity: diag.Error,
	Summary:  "SuspendRate or ResumeRate above 60000, or a power save interval above 60 s: slurmctld turns power saving off",
	Doc: doc("From 24.05 slurmctld turns power saving off, with an error line, when SuspendRate or ResumeRate is above "+
		"60000 (\"selected suspend/resume rate exceeds maximum\"), or when SlurmctldParameters power_save_interval= "+
		"or power_save_min_interval= is above 60 seconds while a rate is set (\"power save module can not work "+
		"effectively with interval > 60 seconds\"). Node pools that scale then never power idle nodes down.",
		"nodePools:\n- {id: cpu, scalingSpec: {minNodeCount: 0, maxNodeCount: 4}, ...}\nconfig: {SuspendRate: \"65534\"}",
		"nodePools:\n- {id: cpu, scalingSpec: {minNodeCount: 0, maxNodeCount: 4}, ...}\nconfig: {SuspendRate: \"600\"}"),
	Check: func(p *lint.Pass) {
		e := effective(p)
		if e.v < catalog.V2405 {
			return
		}
		scaling := false
		for _, pool := range computePools(p) {
			known := !pool.MinNodeCount.Unknown && !pool.MaxNodeCount.Unknown // else the schema refused a count
			scaling = scaling || known && pool.MinNodeCount.Value < pool.MaxNodeCount.Value
		}
		if !scaling {
			return
		}
		for _, key := range []string{"SuspendRate", "ResumeRate"} {
			if kv := e.user(key); kv != nil {
				if n, ok := slurmUint(kv); ok && n > maxNodeRate {
					reportValue(p, kv, fmt.Sprintf("use at most %d", maxNodeRate),
						"%s=%s is above %d: slurmctld %s logs an error and turns power saving off", key, kv.Value.Value, maxNodeRate, e.v)
				}
			}
		}
		suspend, _ := e.num("SuspendRate")
		resume, _ := e.num("ResumeRate")
		kv := e.user("SlurmctldParameters")
		if kv == nil || (suspend == 0 && resume == 0) {
			return
		}
		toks := tokenList(kv.Value.Value)
		for _, opt := range []string{"power_save_interval", "power_save_min_interval"} {
			if arg, ok := toks[opt]; ok {
				if n, err := strconv.Atoi(arg); err == nil && n > 60 {
					reportValue(p, kv, "use 60 seconds or less",
						"SlurmctldParameters %s=%d is above 60 seconds: slurmctld %s logs an error and turns power saving off", opt, n, e.v)
				}
			}
		}
	},
}
