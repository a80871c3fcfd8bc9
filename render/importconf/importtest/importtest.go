// Package importtest makes, for tests, the decisions `slurmspec import`
// leaves to a person: every placeholder of an imported spec is replaced by
// a value that passes the schema, the way a hurried person would choose.
package importtest

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/machines"
	"github.com/slurmspec/slurmspec/render/importconf"
)

// LoginMachineType is the login pool's machine type DecideFirst chooses.
const LoginMachineType = "n2-standard-8"

// DecideFirst replaces each placeholder value of an imported spec (not its
// mentions in comments): "TODO-choose-A-or-B" by A (a provisioning model
// by SPOT, or else the first, among those the pool's machine type offers),
// the login pool's
// machine type by LoginMachineType, and "TODO-cpus-N-mem-M[-gpus-G-TYPE]"
// by the catalog type nearest to it (the same number of whole GPUs, of the
// model named if one is, then the nearest vCPU count, then the nearest
// memory). It returns an error for
// a placeholder it does not know.
func DecideFirst(spec []byte) ([]byte, error) {
	lines := strings.Split(string(spec), "\n")
	machine := "" // the machine type of the pool being read
	for i, l := range lines {
		trimmed := strings.TrimSpace(l)
		if strings.HasPrefix(trimmed, "#") {
			continue
		}
		if strings.HasPrefix(l, "  - id: ") {
			machine = ""
		}
		at := strings.Index(l, ": TODO-")
		if at < 0 {
			if v, ok := strings.CutPrefix(trimmed, "machineType: "); ok {
				machine = strings.Fields(v)[0]
			}
			continue
		}
		placeholder := strings.Fields(l[at+2:])[0]
		value, err := choose(placeholder, machine)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", i+1, err)
		}
		if strings.HasPrefix(trimmed, "machineType: ") {
			machine = value
		}
		lines[i] = l[:at+2] + value
	}
	return []byte(strings.Join(lines, "\n")), nil
}

func choose(p, machine string) (string, error) {
	switch {
	case p == importconf.LoginMachinePlaceholder, p == importconf.StandInMachinePlaceholder:
		return LoginMachineType, nil
	case strings.HasPrefix(p, importconf.ChoosePrefix):
		candidates := strings.Split(strings.TrimPrefix(p, importconf.ChoosePrefix), "-or-")
		if m, ok := machines.Default().Lookup(machine); ok && len(m.Provisioning) > 0 {
			// A provisioning model: one the pool's machine type offers.
			var offered []string
			for _, c := range candidates {
				if listed, _ := machines.Supports(m.Provisioning, c); listed {
					offered = append(offered, c)
				}
			}
			if len(offered) > 0 {
				candidates = offered
			}
		}
		if slices.Contains(candidates, "SPOT") {
			return "SPOT", nil
		}
		return candidates[0], nil
	case strings.HasPrefix(p, "TODO-cpus-"):
		return nearest(p)
	}
	return "", fmt.Errorf("unknown placeholder %s", p)
}

// nearest reads "TODO-cpus-N-mem-M[-gpus-G-TYPE]" (N or M may be
// "unknown") and returns the nearest catalog machine type.
func nearest(p string) (string, error) {
	f := strings.Split(strings.TrimPrefix(p, "TODO-"), "-")
	num := func(i int) int {
		if i < len(f) {
			if n, err := strconv.Atoi(f[i]); err == nil {
				return n
			}
		}
		return 0
	}
	cpus, mem, gpus, typ := num(1), num(3), 0, ""
	if len(f) > 5 && f[4] == "gpus" {
		gpus = num(5)
		typ = strings.Join(f[6:], "")
	}
	cat := machines.Default()
	best, bestScore := "", -1
	for _, t := range cat.Types() {
		m, _ := cat.Lookup(t)
		n, whole := m.WholeGPUs()
		if gpus > 0 && (!whole || n != gpus) || gpus == 0 && m.HasGPU() || m.RealMemoryMiB() == 0 {
			continue
		}
		if listed, _ := machines.Supports(m.BootDisks, "pd-ssd"); len(m.BootDisks) > 0 && !listed {
			continue // the spec would need a bootDisk the import did not write
		}
		score := abs(m.VCPUs-cpus)*1_000_000 + abs(m.RealMemoryMiB()-mem)/1024
		if gpus > 0 && !strings.Contains(typ, m.GPUModel) {
			score += 1 << 40 // another GPU model only when none matches
		}
		if bestScore < 0 || score < bestScore {
			best, bestScore = t, score
		}
	}
	if best == "" {
		return "", fmt.Errorf("no catalog machine type near %s", p)
	}
	return best, nil
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}
