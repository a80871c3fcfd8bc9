// Package slurmconf writes and reads slurm.conf. Write renders the IR in the
// order the service does: the managed baseline, the user's config, one
// NodeName/NodeSet group per compute pool and one PartitionName line per
// partition. Every group is preceded by a comment naming the spec path it
// came from. Parse reads a slurm.conf back, for tests, diffs and import.
package slurmconf

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/hostlist"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/compiler/managed"
)

// Options control rendering.
type Options struct {
	// SlurmVersion is the Slurm release series the file is rendered for.
	SlurmVersion string
}

// UnsafeError reports a key or value that would change the structure of
// slurm.conf if written. The schema rejects such input; the renderer checks
// again so that no path around the schema can inject a line or option.
type UnsafeError struct {
	Path, What, Value string
}

func (e *UnsafeError) Error() string {
	return fmt.Sprintf("%s: refusing to write %s %q into slurm.conf: it contains white space, a comment or quote character, a backslash or a control character", e.Path, e.What, e.Value)
}

// SafeToken reports whether s can be written as one slurm.conf token: not
// empty, and without white space, a comment or quote character, a
// backslash or a control character (nothing that changes how Slurm splits
// the line).
func SafeToken(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r <= ' ' || r == 0x7f || r == '#' || r == '"' || r == '\'' || r == '\\' || r == 0x85 || r == 0x2028 || r == 0x2029 || r == 0xa0 {
			return false
		}
	}
	return true
}

// checkToken rejects anything that is not one Key=Value token.
func checkToken(path, what, s string) error {
	if !SafeToken(s) {
		return &UnsafeError{path, what, s}
	}
	return nil
}

func checkKey(path, key string) error {
	for i, r := range key {
		if !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9') {
			return &UnsafeError{path, "key", key}
		}
	}
	return checkToken(path, "key", key)
}

type writer struct {
	b   bytes.Buffer
	err error
}

func (w *writer) comment(format string, args ...any) {
	line := fmt.Sprintf(format, args...)
	// Comments carry spec text (ids, machine types); keep them one line.
	line = strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f || r == 0x85 || r == 0x2028 || r == 0x2029 {
			return ' '
		}
		return r
	}, line)
	w.b.WriteString("# " + line + "\n")
}

func (w *writer) blank() { w.b.WriteByte('\n') }

// line writes one line of Key=Value pairs, checking every token.
func (w *writer) line(path string, kvs ...[2]string) {
	for i, kv := range kvs {
		if err := checkKey(path, kv[0]); err != nil && w.err == nil {
			w.err = err
		}
		if err := checkToken(path, "value of "+kv[0], kv[1]); err != nil && w.err == nil {
			w.err = err
		}
		if i > 0 {
			w.b.WriteByte(' ')
		}
		w.b.WriteString(kv[0] + "=" + kv[1])
	}
	w.b.WriteByte('\n')
}

// Write renders slurm.conf for a cluster.
func Write(c *ir.Cluster, opt Options) ([]byte, error) {
	w := &writer{}
	w.comment("slurm.conf for cluster %q, rendered by slurmspec for Slurm %s.", c.ID.Value, opt.SlurmVersion)
	w.comment("Do not edit: change the spec and render again. Each group names the spec field it comes from.")
	w.blank()

	w.comment("Managed by the service (reserved keys: setting them in the spec is an error).")
	for _, s := range managed.ReservedSettings(c) {
		w.line("(managed)", [2]string{s.Key, s.Value})
	}
	userKeys := map[string]bool{}
	for _, kv := range c.Slurm.Config {
		userKeys[strings.ToLower(kv.Key.Value)] = true
	}
	var defaults []managed.Setting
	for _, s := range managed.DefaultSettings(c) {
		if !userKeys[strings.ToLower(s.Key)] {
			defaults = append(defaults, s)
		}
	}
	if len(defaults) > 0 {
		w.blank()
		w.comment("Service defaults (set the key in %s.config to change it).", c.Slurm.Path)
		for _, s := range defaults {
			w.line("(default)", [2]string{s.Key, s.Value})
		}
	}
	if len(c.Slurm.Config) > 0 {
		w.blank()
		w.comment("%s.config", c.Slurm.Path)
		for _, kv := range c.Slurm.Config {
			w.line(kv.Key.Path, [2]string{kv.Key.Value, kv.Value.Value})
		}
	}

	pools := c.ComputePools()
	if len(pools) > 0 {
		w.blank()
		w.comment("Nodes: one NodeName group and one NodeSet per compute node pool.")
	}
	for _, p := range pools {
		writePool(w, c, p)
	}
	if len(c.Slurm.Partitions) > 0 {
		w.blank()
		w.comment("Partitions (%s).", c.Slurm.Path+".partitions")
	}
	for _, part := range c.Slurm.Partitions {
		w.comment("%s %q", part.Path, part.ID.Value)
		kvs := [][2]string{{"PartitionName", part.ID.Value}}
		var sets []string
		for _, ref := range part.NodePoolIDs {
			sets = append(sets, ref.Value)
		}
		kvs = append(kvs, [2]string{"Nodes", strings.Join(sets, ",")})
		if part.ID.Value == c.Slurm.DefaultPartitionID.Value {
			kvs = append(kvs, [2]string{"Default", "YES"})
		}
		for _, kv := range part.Config {
			kvs = append(kvs, [2]string{kv.Key.Value, kv.Value.Value})
		}
		w.line(part.Path, kvs...)
	}
	if w.err != nil {
		return nil, w.err
	}
	return w.b.Bytes(), nil
}

func writePool(w *writer, c *ir.Cluster, p *ir.NodePool) {
	w.blank()
	desc := p.MachineType.Value
	if m := p.Machine; m != nil {
		if m.VCPUs > 0 {
			desc += fmt.Sprintf(", %d vCPUs, %v GiB", m.VCPUs, m.MemoryGiB)
		}
		if m.HasGPU() {
			desc += fmt.Sprintf(", %v x %s", m.GPUCount, m.GPUModel)
		}
	}
	w.comment("%s %q: %s; %d..%d nodes", p.Path, p.ID.Value, desc, p.MinNodeCount.Value, p.MaxNodeCount.Value)
	ns := c.Slurm.NodeSetFor(p.ID.Value)
	if ns != nil {
		w.comment("with %s.config", ns.Path)
	}
	hw := [][2]string{}
	if m := p.Machine; m != nil {
		if m.VCPUs > 0 {
			hw = append(hw, [2]string{"CPUs", fmt.Sprint(m.VCPUs)})
		}
		if mem := m.RealMemoryMiB(); mem > 0 {
			hw = append(hw, [2]string{"RealMemory", fmt.Sprint(mem)})
		}
		if n, whole := m.WholeGPUs(); m.HasGPU() && whole {
			hw = append(hw, [2]string{"Gres", fmt.Sprintf("gpu:%s:%d", m.GPUModel, n)})
		}
	}
	var extra [][2]string
	if ns != nil {
		for _, kv := range ns.Config {
			extra = append(extra, [2]string{kv.Key.Value, kv.Value.Value})
		}
	}
	id, pool := c.ID.Value, p.ID.Value
	min, max := p.MinNodeCount.Value, p.MaxNodeCount.Value
	if min > 0 {
		kvs := append([][2]string{{"NodeName", hostlist.Range(id+"-"+pool+"-", 0, min)}}, hw...)
		w.line(p.Path, append(kvs, extra...)...)
	}
	if max > min {
		kvs := append([][2]string{{"NodeName", hostlist.Range(id+"-"+pool+"-", min, max)}}, hw...)
		kvs = append(kvs, extra...)
		w.line(p.Path, append(kvs, [2]string{"State", "CLOUD"})...)
	}
	if max > 0 {
		w.line(p.Path, [2]string{"NodeSet", pool}, [2]string{"Nodes", hostlist.Range(id+"-"+pool+"-", 0, max)})
	}
}
