package fidelity

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/specgen"
	"github.com/slurmspec/slurmspec/render/slurmconf"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// baseSpec is the cluster every case starts from: one GPU pool of two A4
// nodes (one static, one CLOUD) in one partition with a node set, and a
// login pool. It lints clean, without warnings, for every release, and
// slurmctld of every release starts it without an error line (checked
// before every run). The three %s are the partition's, the node set's and
// the global config, as JSON objects.
func baseSpec() string {
	return specgen.Small{
		Project: "fidelity", Name: "fid",
		Pools:      []specgen.Pool{specgen.A4Pool("gpu", 1, 2)},
		Partitions: []string{"{id: gpu, nodePoolIds: [gpu], config: %s}"},
		NodeSets:   []string{"{nodePoolId: gpu, config: %s}"},
		Config:     "%s",
	}.YAML()
}

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
	return fmt.Appendf(nil, baseSpec(), enc(maps[catalog.ScopePartition]), enc(maps[catalog.ScopeNode]), enc(maps[catalog.ScopeGlobal]))
}

// standIn is the minimal stand-in renderer for specs that lint refuses:
// the base spec's rendered slurm.conf with each setting written in as the
// user wrote it, through render/slurmconf's editor (Slurm's quoting and
// escapes). A global key replaces the line of the same key or is added at
// the end; a partition key goes on the PartitionName line and a node key
// on every NodeName line (replacing the same key there). A value Slurm's
// syntax cannot carry is an error.
func standIn(baseConf string, settings []Setting) (string, error) {
	d, err := slurmconf.ParseDoc([]byte(baseConf))
	if err != nil {
		return "", fmt.Errorf("stand-in: the base slurm.conf: %w", err)
	}
	for _, s := range settings {
		switch s.Scope {
		case catalog.ScopeGlobal:
			d.SetGlobal(s.Key, s.Value)
		case catalog.ScopePartition:
			d.SetOn(slurmconf.KindPartition, s.Key, s.Value)
		case catalog.ScopeNode:
			d.SetOn(slurmconf.KindNode, s.Key, s.Value)
		}
	}
	out, err := d.Bytes()
	if err != nil {
		return "", fmt.Errorf("stand-in: %w", err)
	}
	return string(out), nil
}

// keyOf returns the key of the case's setting a diagnostic's spec path is
// about (orchestratorSpec.slurmSpec.config.K, ...partitions[0].config.K,
// ...nodeSets[0].config.K, or a path inside one of them), or "".
func (c Case) keyOf(path string) string {
	for _, s := range c.Settings {
		at := ".config." + s.Key
		i := strings.Index(path, at)
		if i < 0 {
			continue
		}
		if rest := path[i+len(at):]; rest != "" && rest[0] != '.' && rest[0] != '[' {
			continue
		}
		var ok bool
		switch owner := path[:i]; s.Scope {
		case catalog.ScopeGlobal:
			ok = strings.HasSuffix(owner, "slurmSpec")
		case catalog.ScopePartition:
			ok = strings.Contains(owner, ".partitions[")
		case catalog.ScopeNode:
			ok = strings.Contains(owner, ".nodeSets[")
		}
		if ok {
			return s.Key
		}
	}
	return ""
}

// sets reports whether the case sets a key (case-insensitive, as Slurm
// reads keys) in a scope.
func (c Case) sets(sc catalog.Scope, key string) bool {
	for _, s := range c.Settings {
		if s.Scope == sc && strings.EqualFold(s.Key, key) {
			return true
		}
	}
	return false
}
