package rules

import (
	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/lint"
)

// nodeAddressKeys are the NodeName keys that give each node its own
// address or host name.
var nodeAddressKeys = []string{"NodeAddr", "NodeHostname", "BcastAddr"}

// NodeAddressSet reports nodeSets config that sets a node's address or
// host name, which the service assigns to every node itself.
var NodeAddressSet = &lint.Rule{
	ID:       "node-address-set",
	Severity: diag.Error,
	Summary:  "A nodeSets config sets NodeAddr, NodeHostname or BcastAddr, which the service assigns per node",
	Doc: doc("NodeAddr, NodeHostname and BcastAddr on a NodeName line name each node's address, one entry per "+
		"node of the line. The service creates the nodes and gives each its address (cloud_dns), so a value in "+
		"nodeSets either gives every node of the pool the same address or, as a list whose length is not the "+
		"number of nodes, stops slurmctld (\"BcastAddr count must equal that of NodeName records or there must "+
		"be no more than one\", fatal on slurmctld 26.05).",
		"nodeSets:\n- {nodePoolId: a4, config: {NodeAddr: \"10.0.0.5\"}}",
		"nodeSets:\n- {nodePoolId: a4, config: {Features: b200}}"),
	Check: func(p *lint.Pass) {
		for _, ns := range p.Cluster.Slurm.NodeSets {
			for _, key := range nodeAddressKeys {
				if kv := lookupKV(ns.Config, key); kv != nil {
					reportKey(p, kv, "remove "+key+": the service assigns every node its address and name",
						"nodeSets entry for %q sets %s=%s, but the service assigns each node its own address and name: slurmctld gives every node this one, or exits when the count differs from the nodes'", ns.NodePoolID.Value, key, kv.Value.Value)
				}
			}
		}
	},
}
