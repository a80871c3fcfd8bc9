package rules

import (
	"fmt"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// The CPU topology slurmctld derives from one NodeName line, as
// read_config.c _parse_nodename computes it (the same logic in 22.05, 24.11
// and 26.05). The line is what the renderer writes for a pool (CPUs from
// the machine type) followed by the nodeSets entry's config; Slurm keeps
// the last value of a key. Each step that replaces a value written in the
// spec is a topoFinding, because slurmctld logs it as an error and runs
// with another value.

// topoFinding is one value slurmctld resets: where the spec writes it, what
// Slurm does and how to fix it.
type topoFinding struct {
	kv        *ir.KV
	msg, hint string
}

// topoValue is one topology key of a NodeName line as Slurm stores it.
type topoValue struct {
	kv  *ir.KV // the nodeSets entry's key; nil when rendered or absent
	n   uint16
	set bool
}

// nodeTopology runs _parse_nodename's topology steps on the NodeName line
// of ns. ok is false when a value is not a number Slurm reads (that is
// invalid-config-value's finding) and the model stops there.
func nodeTopology(ns *ir.NodeSet, pool *ir.NodePool) (found []topoFinding, ok bool) {
	read := func(key string, def uint16) (topoValue, bool) {
		kv := lookupKV(ns.Config, key)
		if kv == nil {
			return topoValue{n: def}, true
		}
		param, known := catalog.Default().Lookup(catalog.ScopeNode, key)
		if !known {
			return topoValue{}, false
		}
		n, good := catalog.ParseNumber(param, kv.Value.Value)
		if !good || n > 0xffff {
			return topoValue{}, false
		}
		return topoValue{kv: kv, n: uint16(n), set: true}, true
	}
	var vals [7]topoValue
	for i, k := range []string{"Boards", "CoresPerSocket", "ThreadsPerCore", "Sockets", "SocketsPerBoard", "CoreSpecCount", "CPUs"} {
		def := uint16(1)
		if k == "CoreSpecCount" || k == "SocketsPerBoard" {
			def = 0
		}
		v, good := read(k, def)
		if !good {
			return nil, false
		}
		vals[i] = v
	}
	boards, cores, threads, sockets, spb, coreSpec, cpus := vals[0], vals[1], vals[2], vals[3], vals[4], vals[5], vals[6]
	if !cpus.set {
		// The renderer writes CPUs from the machine type; a nodeSets
		// Procs only counts when no CPUs is on the line.
		if pool != nil && pool.Machine != nil && pool.Machine.VCPUs > 0 {
			cpus = topoValue{n: uint16(min(pool.Machine.VCPUs, 0xffff)), set: true}
		} else if v, good := read("Procs", 1); !good {
			return nil, false
		} else {
			cpus = v
		}
	}
	if !spb.set {
		spb.n = 1
	}
	add := func(kv *ir.KV, hint, format string, args ...any) {
		found = append(found, topoFinding{kv: kv, hint: hint, msg: fmt.Sprintf(format, args...)})
	}
	for _, v := range []*topoValue{&cores, &cpus, &threads, &spb, &sockets} {
		if v.set && v.n == 0 {
			add(v.kv, "use at least 1", "%s=0 is invalid: slurmctld logs an error and resets it to 1", v.kv.Key.Value)
			v.n = 1
		}
	}
	noSockets := !sockets.set
	if spb.set && sockets.set {
		add(sockets.kv, "keep one of Sockets and SocketsPerBoard",
			"Sockets with SocketsPerBoard: slurmctld logs an error, ignores Sockets and uses Boards×SocketsPerBoard")
		noSockets = true
	}
	if boards.set && boards.n == 0 {
		add(boards.kv, "use at least 1", "Boards=0 is invalid: slurmctld logs an error and resets it to 1")
		boards.n = 1
	}
	// C arithmetic: uint16 operands promoted to int.
	s, c, t, cp := int32(sockets.n), int32(cores.n), int32(threads.n), int32(cpus.n)
	if noSockets {
		switch {
		case spb.set:
			s = int32(uint16(int32(boards.n) * int32(spb.n)))
		case cpus.set && cp/(c*t) != 0 && cp%(c*t) == 0:
			s = int32(uint16(cp / (c * t)))
		default:
			s = int32(boards.n)
		}
	}
	if !cpus.set {
		cp = int32(uint16(s * c * t))
	}
	if s < int32(boards.n) {
		add(boards.kv, fmt.Sprintf("use at most %d boards, or give more sockets", s),
			"Boards=%d is more than the node's %d sockets: slurmctld logs an error and resets Boards to 1", boards.n, s)
	}
	if cp != s && cp != s*c && cp != s*c*t {
		at, from := cpus.kv, fmt.Sprintf("CPUs=%d", cp)
		if at == nil {
			from = fmt.Sprintf("CPUs=%d (rendered for %s)", cp, pool.MachineType.Value)
			for _, v := range []topoValue{threads, cores, sockets, spb, boards} {
				if v.kv != nil {
					at = v.kv
					break
				}
			}
		}
		if at != nil {
			add(at, fmt.Sprintf("make Sockets×CoresPerSocket×ThreadsPerCore (or Sockets, or Sockets×CoresPerSocket) equal %d", cp),
				"%s matches none of Sockets=%d, Sockets×CoresPerSocket=%d, Sockets×CoresPerSocket×ThreadsPerCore=%d: slurmctld logs an error and resets CPUs to %d",
				from, s, s*c, s*c*t, uint16(s*c*t))
		}
	}
	if coreSpec.set && int32(coreSpec.n) >= s*c {
		add(coreSpec.kv, fmt.Sprintf("use fewer than %d", s*c),
			"CoreSpecCount=%d is not smaller than the node's %d cores (Sockets×CoresPerSocket): slurmctld logs an error and resets it to 1", coreSpec.n, s*c)
	}
	return found, true
}

// topoKeys are the nodeSets keys nodeTopology reads.
var topoKeys = []string{"Boards", "CoresPerSocket", "ThreadsPerCore", "Sockets", "SocketsPerBoard", "CoreSpecCount", "CPUs", "Procs"}

// hasTopoKey reports whether a nodeSets config sets a key nodeTopology
// reads.
func hasTopoKey(kvs []ir.KV) bool {
	for _, kv := range kvs {
		for _, k := range topoKeys {
			if strings.EqualFold(kv.Key.Value, k) {
				return true
			}
		}
	}
	return false
}
