package rules

import (
	"slices"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// ShapePartitionClosed reports a partition whose state or access flags
// stop every job of a user (the workload oracle's seed 20262001, issue 26).
var ShapePartitionClosed = &lint.Rule{
	ID:       "shape-partition-closed",
	Severity: diag.Warning,
	Summary:  "A partition's State, RootOnly or ReqResv stops every user's job",
	Doc: doc("A partition of State=DOWN accepts jobs and starts none (they pend, reason PartitionDown); one of "+
		"State=DRAIN or INACTIVE refuses every job at submit (\"Required partition not available (inactive or "+
		"drain)\"); RootOnly=YES refuses the job of every user but root, and ReqResv=YES every job that names no "+
		"advanced reservation (22.05, 24.11, 26.05). A warning: a site may close a partition on purpose, but the "+
		"spec then deploys a partition where no user's job runs.",
		"partitions:\n- {id: gpu, nodePoolIds: [a4], config: {State: DRAIN}}",
		"partitions:\n- {id: gpu, nodePoolIds: [a4]}"),
	Check: func(p *lint.Pass) {
		yes, _ := catalog.BoolWords()
		isYes := func(v string) bool {
			return slices.ContainsFunc(yes, func(w string) bool { return strings.EqualFold(w, strings.TrimSpace(v)) })
		}
		for _, part := range p.Cluster.Slurm.Partitions {
			if p.Cluster.ConfigUnknown(part.Path+".config", part.Config) {
				continue
			}
			if kv := lookupKV(part.Config, "State"); kv != nil {
				switch strings.ToUpper(strings.TrimSpace(kv.Value.Value)) {
				case "DOWN":
					reportValue(p, kv, "set State=UP (or leave it out) when the partition should run jobs",
						"partition %q: State=DOWN: jobs are accepted but none starts (pending, reason PartitionDown)", part.ID.Value)
				case "DRAIN", "INACTIVE":
					reportValue(p, kv, "set State=UP (or leave it out) when the partition should run jobs",
						"partition %q: State=%s: every job is refused at submit (\"Required partition not available (inactive or drain)\")",
						part.ID.Value, kv.Value.Value)
				}
			}
			if kv := lookupKV(part.Config, "RootOnly"); kv != nil && isYes(kv.Value.Value) {
				reportValue(p, kv, "leave RootOnly out unless only root submits here",
					"partition %q: RootOnly=%s: every job of a user but root is refused at submit (\"Access/permission denied\")", part.ID.Value, kv.Value.Value)
			}
			if kv := lookupKV(part.Config, "ReqResv"); kv != nil && isYes(kv.Value.Value) {
				reportValue(p, kv, "leave ReqResv out unless every job here runs in a reservation",
					"partition %q: ReqResv=%s: every job without --reservation is refused at submit (\"Access/permission denied\")", part.ID.Value, kv.Value.Value)
			}
		}
	},
}
