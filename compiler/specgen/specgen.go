// Package specgen generates valid cluster specs: large ones for benchmarks
// and resource-limit tests (JSON: n compute node pools and n partitions,
// each partition over four pools, plus a login pool), and small ones built
// from their parts (Small), the one fixture of the job shape tests and the
// specs of the oracles in lab/. The output is deterministic.
package specgen

import (
	"fmt"
	"strings"
)

// machineTypes cycles through real catalog entries so that node lines get
// CPUs, memory and GRES.
var machineTypes = [...]struct{ typ, model, disk string }{
	{"a4-highgpu-8g", "SPOT", "hyperdisk-balanced"},
	{"a3-megagpu-8g", "SPOT", "pd-ssd"},
	{"n2-standard-32", "ON_DEMAND", "pd-ssd"},
	{"c3-standard-44", "ON_DEMAND", "pd-ssd"},
}

// JSON returns a spec with n compute pools and n partitions, as JSON.
func JSON(n int) []byte {
	var b strings.Builder
	b.WriteString("{\n  \"name\": \"projects/acme-ml-prod/locations/us-central1/modelDevelopmentClusters/big\",\n")
	b.WriteString("  \"network\": {\"network\": \"projects/acme-ml-prod/global/networks/ml-vpc\"},\n")
	b.WriteString("  \"nodePools\": [\n")
	for i := range n {
		m := machineTypes[i%len(machineTypes)]
		fmt.Fprintf(&b, "    {\"id\": \"p%d\", \"machineSpec\": {\"machineType\": %q}, \"provisioningModel\": %q, "+
			"\"scalingSpec\": {\"minNodeCount\": %d, \"maxNodeCount\": %d}, \"zone\": \"us-central1-b\", "+
			"\"bootDisk\": {\"bootDiskType\": %q, \"bootDiskSizeGb\": 200}},\n",
			i, m.typ, m.model, i%3, 4+i%5, m.disk)
	}
	b.WriteString("    {\"id\": \"login\", \"machineSpec\": {\"machineType\": \"n2-standard-8\"}, \"scalingSpec\": {\"minNodeCount\": 1, \"maxNodeCount\": 1}, \"zone\": \"us-central1-b\"}\n")
	b.WriteString("  ],\n  \"orchestratorSpec\": {\"slurmSpec\": {\n")
	b.WriteString("    \"loginNodePoolId\": \"login\",\n")
	b.WriteString("    \"homeDirectoryStorage\": \"projects/acme-ml-prod/locations/us-central1-b/instances/home\",\n")
	b.WriteString("    \"defaultPartitionId\": \"q0\",\n")
	b.WriteString("    \"config\": {\"PriorityType\": \"priority/multifactor\", \"PriorityWeightAge\": \"1000\", \"PreemptType\": \"preempt/partition_prio\", \"PreemptMode\": \"REQUEUE\", \"PreemptExemptTime\": \"00:10:00\"},\n")
	b.WriteString("    \"partitions\": [\n")
	for i := range n {
		refs := make([]string, 0, 4)
		for j := range min(4, n) {
			refs = append(refs, fmt.Sprintf("%q", fmt.Sprintf("p%d", (i+j)%n)))
		}
		sep := ","
		if i == n-1 {
			sep = ""
		}
		fmt.Fprintf(&b, "      {\"id\": \"q%d\", \"nodePoolIds\": [%s], \"config\": {\"PriorityTier\": \"%d\", \"MaxTime\": \"%d-00:00:00\"}}%s\n",
			i, strings.Join(refs, ", "), 1+i%10, 1+i%7, sep)
	}
	b.WriteString("    ],\n    \"nodeSets\": [\n")
	for i := range n {
		sep := ","
		if i == n-1 {
			sep = ""
		}
		fmt.Fprintf(&b, "      {\"nodePoolId\": \"p%d\", \"config\": {\"Features\": \"f%d\", \"Weight\": \"%d\"}}%s\n", i, i%16, 1+i%100, sep)
	}
	b.WriteString("    ]\n  }}\n}\n")
	return []byte(b.String())
}
