package rules

import (
	"strconv"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/lint"
)

// flexStartMax is the longest a Flex-start VM runs: 7 days
// (/work/shared/reference/pulumi-gcp-model-development-cluster.md, the
// server-side checks: flexStartMaxDuration ≤ 604800s).
const flexStartMax = 7 * 24 * 3600

// FlexStartDuration reports a flexStartMaxDuration over 7 days, which the
// API refuses when the cluster is created.
var FlexStartDuration = &lint.Rule{
	ID:       "flex-start-duration",
	Severity: diag.Error,
	Summary:  "A Flex-start pool's flexStartMaxDuration is longer than 7 days",
	Doc: "Flex-start VMs run for at most 7 days (604800s); the API refuses a longer " +
		"flexStartMaxDuration, but only server-side, after `deploy up` has started.\n\n" +
		"Bad:\n\n```yaml\n- id: a4\n  machineSpec: {machineType: a4-highgpu-8g}\n  provisioningModel: FLEX_START\n  flexStartMaxDuration: 864000s\n  bootDisk: {bootDiskType: hyperdisk-balanced}\n```\n\n" +
		"Good:\n\n```yaml\n- id: a4\n  machineSpec: {machineType: a4-highgpu-8g}\n  provisioningModel: FLEX_START\n  flexStartMaxDuration: 604800s\n  bootDisk: {bootDiskType: hyperdisk-balanced}\n```\n",
	Check: func(p *lint.Pass) {
		for _, pool := range p.Cluster.NodePools {
			d := pool.FlexStartMaxDuration
			if !d.Set {
				continue
			}
			secs, err := strconv.ParseFloat(strings.TrimSuffix(d.Value, "s"), 64)
			if err != nil || secs <= flexStartMax {
				continue // the schema reports a malformed duration
			}
			p.Report(d.Pos, pool.Path+".flexStartMaxDuration", "use at most 604800s (7 days)",
				"node pool %q: flexStartMaxDuration %s is %.1f days; Flex-start VMs run for at most 7 days", pool.ID.Value, d.Value, secs/86400)
		}
	},
}
