package specgen

import (
	"fmt"
	"strings"
)

// Pool is a compute node pool of a Small spec, in zone us-central1-b.
type Pool struct {
	ID, MachineType string
	Min, Max        int // scalingSpec's minNodeCount and maxNodeCount
	// Spot makes the nodes SPOT VMs with the hyperdisk-balanced boot disk
	// of 200 GB that A4 machines need.
	Spot bool
}

// A4Pool is a pool of a4-highgpu-8g nodes (8 GPUs, 224 vCPUs each), SPOT,
// with the boot disk the machine type needs.
func A4Pool(id string, min, max int) Pool {
	return Pool{ID: id, MachineType: "a4-highgpu-8g", Min: min, Max: max, Spot: true}
}

// Small is a small spec, written by YAML, the shared fixture of the job
// shape tests and the oracles: a project's network, its compute pools, a
// login pool of one n2-standard-8 node (id login), and a slurmSpec whose
// home directory is the project's instance "home".
type Small struct {
	Project string // the GCP project of the cluster, its network and home directory
	Name    string // the cluster's id; "" writes no name
	Pools   []Pool // the compute pools; the login pool follows them
	// DefaultPartition is defaultPartitionId; "" writes none.
	DefaultPartition string
	// Partitions and NodeSets are the entries of their lists, each one
	// YAML flow mapping ({id: gpu, nodePoolIds: [a4], config: {...}}).
	Partitions, NodeSets []string
	// Config is the global config, a YAML flow mapping; "" writes none.
	Config string
}

// YAML returns the spec. The same Small gives the same bytes.
func (s Small) YAML() string {
	var b strings.Builder
	if s.Name != "" {
		fmt.Fprintf(&b, "name: projects/%s/locations/us-central1/modelDevelopmentClusters/%s\n", s.Project, s.Name)
	}
	fmt.Fprintf(&b, "network: {network: projects/%s/global/networks/net}\nnodePools:\n", s.Project)
	login := Pool{ID: "login", MachineType: "n2-standard-8", Min: 1, Max: 1}
	for _, p := range append(append([]Pool(nil), s.Pools...), login) {
		fmt.Fprintf(&b, "- id: %s\n  machineSpec: {machineType: %s}\n", p.ID, p.MachineType)
		if p.Spot {
			b.WriteString("  provisioningModel: SPOT\n  bootDisk: {bootDiskType: hyperdisk-balanced, bootDiskSizeGb: 200}\n")
		}
		fmt.Fprintf(&b, "  scalingSpec: {minNodeCount: %d, maxNodeCount: %d}\n  zone: us-central1-b\n", p.Min, p.Max)
	}
	fmt.Fprintf(&b, "orchestratorSpec:\n  slurmSpec:\n    loginNodePoolId: login\n"+
		"    homeDirectoryStorage: projects/%s/locations/us-central1-b/instances/home\n", s.Project)
	if s.DefaultPartition != "" {
		fmt.Fprintf(&b, "    defaultPartitionId: %s\n", s.DefaultPartition)
	}
	list := func(key string, items []string) {
		if len(items) > 0 {
			fmt.Fprintf(&b, "    %s:\n", key)
		}
		for _, it := range items {
			fmt.Fprintf(&b, "    - %s\n", it)
		}
	}
	list("partitions", s.Partitions)
	list("nodeSets", s.NodeSets)
	if s.Config != "" {
		fmt.Fprintf(&b, "    config: %s\n", s.Config)
	}
	return b.String()
}
