package rules

import (
	"strings"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/managed"
	"github.com/slurmspec/slurmspec/lint"
)

// ReservedKey reports slurm.conf keys that the service owns.
var ReservedKey = &lint.Rule{
	ID:       "reserved-key",
	Severity: diag.Error,
	Summary:  "A config map sets a slurm.conf key that the service manages",
	Guard: "the user's config is written after the managed lines, so a reserved key would replace the service's value " +
		"(Slurm keeps the last value of a scalar key: SlurmUser=root) or add to it (line and array keys accumulate: " +
		"a second SlurmctldHost, and from 24.05 another Prolog)",
	Doc: "The service writes part of slurm.conf itself: the cluster name and controller host, " +
		"authentication, the accounting storage connection, state and spool paths, the node, node set " +
		"and partition lines, Prolog/Epilog and the power-saving programs. The API rejects a spec that " +
		"sets these keys, and slurmspec says why each is reserved.\n\n" +
		"Bad:\n\n```json\n\"config\": {\"Prolog\": \"/opt/prolog.sh\"}\n```\n\n" +
		"Good:\n\n```json\n\"prologBashScripts\": [\"#!/bin/bash\\n/opt/prolog.sh\"]\n```\n",
	Check: func(p *lint.Pass) {
		for _, m := range configMaps(p.Cluster) {
			for _, kv := range m.kvs {
				if k, ok := managed.Lookup(kv.Key.Value); ok {
					p.Report(kv.Key.Pos, kv.Key.Path, string(k.Reason), "%s is reserved: the service manages it", kv.Key.Value)
				}
			}
		}
	},
}

// PartitionDefaultKey reports Default in a partition's config.
var PartitionDefaultKey = &lint.Rule{
	ID:       "partition-default-key",
	Severity: diag.Error,
	Summary:  "A partition config sets Default; use defaultPartitionId",
	Doc: "Which partition is the default is stated once, by slurmSpec.defaultPartitionId " +
		"(unset: the first partition). The API rejects Default in a partition's config.\n\n" +
		"Bad:\n\n```yaml\npartitions:\n- id: debug\n  nodePoolIds: [cpu]\n  config: {Default: \"YES\"}\n```\n\n" +
		"Good:\n\n```yaml\ndefaultPartitionId: debug\npartitions:\n- id: debug\n  nodePoolIds: [cpu]\n```\n",
	Check: func(p *lint.Pass) {
		for _, part := range p.Cluster.Slurm.Partitions {
			for _, kv := range part.Config {
				if strings.EqualFold(kv.Key.Value, "Default") {
					p.Report(kv.Key.Pos, kv.Key.Path, "remove it and set orchestratorSpec.slurmSpec.defaultPartitionId: \""+part.ID.Value+"\"",
						"partition %q sets Default in its config", part.ID.Value)
				}
			}
		}
	},
}

// DuplicateConfigKey reports a key given twice in one map, differing in case.
var DuplicateConfigKey = &lint.Rule{
	ID:       "duplicate-config-key",
	Severity: diag.Error,
	Summary:  "A config map gives the same slurm.conf key twice in different case",
	Doc: "Slurm matches keys case-insensitively, so `PreemptMode` and `preemptmode` are one key " +
		"and only one of the two values would take effect.\n\n" +
		"Bad:\n\n```json\n\"config\": {\"PreemptType\": \"preempt/partition_prio\", \"PreemptMode\": \"REQUEUE\", \"preemptmode\": \"CANCEL\"}\n```\n\n" +
		"Good:\n\n```json\n\"config\": {\"PreemptType\": \"preempt/partition_prio\", \"PreemptMode\": \"REQUEUE\"}\n```\n",
	Check: func(p *lint.Pass) {
		for _, m := range configMaps(p.Cluster) {
			seen := map[string]diag.Pos{}
			for _, kv := range m.kvs {
				k := strings.ToLower(kv.Key.Value)
				if first, dup := seen[k]; dup {
					p.Report(kv.Key.Pos, kv.Key.Path, "keep one of them", "%s is given twice (also at %s); Slurm keys are case-insensitive", kv.Key.Value, first)
					continue
				}
				seen[k] = kv.Key.Pos
			}
		}
	},
}
