package fidelity

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/slurmspec/slurmspec/schema/catalog"
)

// baseSpec is the cluster every case starts from: one GPU pool of two A4
// nodes (one static, one CLOUD) in one partition with a node set, and a
// login pool. It lints clean, without warnings, for every release, and
// slurmctld of every release starts it without an error line (checked
// before every run). The three %s are the partition's, the node set's and
// the global config, as JSON objects.
const baseSpec = `name: projects/fidelity/locations/us-central1/modelDevelopmentClusters/fid
network: {network: projects/fidelity/global/networks/net}
nodePools:
- id: gpu
  machineSpec: {machineType: a4-highgpu-8g}
  provisioningModel: SPOT
  bootDisk: {bootDiskType: hyperdisk-balanced, bootDiskSizeGb: 200}
  scalingSpec: {minNodeCount: 1, maxNodeCount: 2}
  zone: us-central1-b
- id: login
  machineSpec: {machineType: n2-standard-8}
  scalingSpec: {minNodeCount: 1, maxNodeCount: 1}
  zone: us-central1-b
orchestratorSpec:
  slurmSpec:
    login_node_pool_id: login
    home_directory_storage: projects/fidelity/locations/us-central1-b/instances/home
    partitions:
    - id: gpu
      node_pool_ids: [gpu]
      config: %s
    node_sets:
    - node_pool_id: gpu
      config: %s
    config: %s
`

// Spec returns the case's spec (YAML): the base spec with its settings in
// the config of their scope.
func (c Case) Spec() []byte {
	maps := map[catalog.Scope]map[string]string{}
	for _, sc := range scopes {
		maps[sc] = map[string]string{}
	}
	for _, s := range c.Settings {
		maps[s.Scope][s.Key] = s.Value
	}
	enc := func(m map[string]string) string {
		b, err := json.Marshal(m) // sorted keys: the same bytes every time
		if err != nil {
			panic(err) // a map of strings always marshals
		}
		return string(b)
	}
	return fmt.Appendf(nil, baseSpec, enc(maps[catalog.ScopePartition]), enc(maps[catalog.ScopeNode]), enc(maps[catalog.ScopeGlobal]))
}

// standIn is the minimal stand-in renderer for specs that lint refuses:
// the base spec's rendered slurm.conf with each setting written in as the
// user wrote it. A global key replaces the line of the same key or is
// added at the end; a partition key goes on the PartitionName line and a
// node key on every NodeName line (replacing the same key there).
func standIn(baseConf string, settings []Setting) string {
	lines := strings.Split(strings.TrimRight(baseConf, "\n"), "\n")
	for _, s := range settings {
		kv := s.Key + "=" + quote(s.Value)
		switch s.Scope {
		case catalog.ScopeGlobal:
			replaced := false
			for i, l := range lines {
				if k, _, ok := strings.Cut(l, "="); ok && strings.EqualFold(strings.TrimSpace(k), s.Key) {
					lines[i], replaced = kv, true
				}
			}
			if !replaced {
				lines = append(lines, kv)
			}
		case catalog.ScopePartition:
			lines = setOnLines(lines, "PartitionName=", s.Key, kv)
		case catalog.ScopeNode:
			lines = setOnLines(lines, "NodeName=", s.Key, kv)
		}
	}
	return strings.Join(lines, "\n") + "\n"
}

// setOnLines sets key on every line starting with prefix.
func setOnLines(lines []string, prefix, key, kv string) []string {
	for i, l := range lines {
		if !strings.HasPrefix(l, prefix) {
			continue
		}
		fields := strings.Fields(l)
		replaced := false
		for j, f := range fields {
			if k, _, ok := strings.Cut(f, "="); ok && j > 0 && strings.EqualFold(k, key) {
				fields[j], replaced = kv, true
			}
		}
		if !replaced {
			fields = append(fields, kv)
		}
		lines[i] = strings.Join(fields, " ")
	}
	return lines
}

// quote double-quotes a value with spaces or nothing, as slurm.conf allows.
func quote(v string) string {
	if v == "" || strings.ContainsAny(v, " \t#") {
		return `"` + v + `"`
	}
	return v
}
