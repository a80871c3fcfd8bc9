package importconf

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/slurmspec/slurmspec/compiler/machines"
)

// hardware is what a NodeName line says about a node's size.
type hardware struct {
	CPUs int // 0 when unknown
	// RealMemory is in MiB; 0 when unknown.
	RealMemory int
	// GPUModel is the catalog model ("" when the type is unknown or absent);
	// GPUType the type as written.
	GPUModel, GPUType string
	GPUs              int
}

// Memory tolerance. A NodeName line's RealMemory matches a machine type when
// it lies between memLowerPercent % of what the service would write for it
// (Machine.RealMemoryMiB: the slurm-gcp formula, memory minus 400 MiB minus
// 30 MiB per GiB) and the machine's whole memory (Machine.MemoryMiB). The
// lower bound admits sites that leave head room for the OS; the upper one
// admits the MemTotal that slurmd -C reports, which lies between the two.
// Among matches the one whose RealMemoryMiB is nearest wins, so exact
// values win outright and close families (c4-standard-16 has 60 GiB,
// n2-standard-16 64 GiB) are told apart; types with identical facts tie.
const memLowerPercent = 90

// inferMachine picks the catalog machine type a NodeName group runs on:
// vCPU count exact, GPU model and count exact (a GPU type that is unknown
// matches any model), RealMemory within the tolerance above. hint, when it
// names the type whose rendered hardware is exactly hw, is taken as is
// (slurmspec's own comments name the type each pool was rendered from).
// It returns "" and an explanation when no single type fits, with the
// candidates when several do (machine types with identical facts, such as
// a3-highgpu-8g and a3-megagpu-8g, or types that only RealMemory would
// tell apart): a person chooses, unless the hint names one of them.
func inferMachine(cat *machines.Catalog, hw hardware, hint string) (machineType, why string, candidates []string) {
	if hint != "" && renderedHardware(cat, hint) == hw {
		return hint, "", nil
	}
	if hw.CPUs == 0 {
		return "", "the NodeName line gives no CPUs (nor Sockets, CoresPerSocket and ThreadsPerCore)", nil
	}
	var best []*machines.Machine
	bestDist := -1
	var near []string
	for _, t := range cat.Types() {
		m, _ := cat.Lookup(t)
		if m.VCPUs != hw.CPUs || !gpusMatch(m, hw) {
			continue
		}
		dist := 0
		if hw.RealMemory > 0 {
			want := m.RealMemoryMiB()
			if want == 0 || hw.RealMemory < want*memLowerPercent/100 || hw.RealMemory > m.MemoryMiB() {
				if want > 0 {
					near = append(near, fmt.Sprintf("%s (RealMemory=%d)", t, want))
				}
				continue
			}
			dist = abs(hw.RealMemory - want)
		}
		switch {
		case bestDist < 0 || dist < bestDist:
			best, bestDist = []*machines.Machine{m}, dist
		case dist == bestDist:
			best = append(best, m)
		}
	}
	// Candidates that boot with the API's default boot disk (pd-ssd) come
	// first: the imported pool sets no boot disk, so they work as written
	// once chosen (c4a, c4d and other series boot only from Hyperdisk).
	sort.SliceStable(best, func(i, j int) bool { return bootRank(best[i]) < bootRank(best[j]) })
	desc := describe(hw)
	switch {
	case len(best) == 0:
		why = "no machine type in the catalog has " + desc
		if len(near) > 0 {
			if len(near) > 3 {
				near = near[:3]
			}
			why += fmt.Sprintf(" (within %d%%..100%% of its memory); closest: %s", memLowerPercent, strings.Join(near, ", "))
		}
		return "", why, nil
	case len(best) > 1 && hw.RealMemory == 0:
		return "", fmt.Sprintf("%s fits %s: RealMemory would tell them apart", desc, names(best)), typeNames(best)
	}
	chosen := best[0]
	for _, m := range best {
		if m.Type == hint {
			chosen = m
		}
	}
	if len(best) > 1 && chosen.Type != hint {
		return "", fmt.Sprintf("%s fits %s alike", desc, names(best)), typeNames(best)
	}
	var notes []string
	if hw.RealMemory > 0 && bestDist > 0 {
		notes = append(notes, fmt.Sprintf("RealMemory=%d is within tolerance of %s, which the service writes as RealMemory=%d", hw.RealMemory, chosen.Type, chosen.RealMemoryMiB()))
	}
	if hw.RealMemory == 0 {
		notes = append(notes, fmt.Sprintf("the NodeName line gives no RealMemory; %s is the only type with %s", chosen.Type, desc))
	}
	if hw.GPUs > 0 && hw.GPUModel == "" {
		notes = append(notes, fmt.Sprintf("the GPU type %s is not a catalog model; matched on the count", quoteOr(hw.GPUType, "(none)")))
	}
	return chosen.Type, strings.Join(notes, "; "), nil
}

// bootRank orders machine types by whether they boot from pd-ssd, the
// API's default boot disk: 0 listed, 1 unknown, 2 not supported.
func bootRank(m *machines.Machine) int {
	if m.BootDisks == nil {
		return 1
	}
	for _, d := range m.BootDisks {
		if d.Name == "pd-ssd" {
			return 0
		}
	}
	return 2
}

func typeNames(ms []*machines.Machine) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Type)
	}
	return out
}

// renderedHardware is what the renderer writes for a machine type: nothing
// for a type the catalog does not know.
func renderedHardware(cat *machines.Catalog, machineType string) hardware {
	var hw hardware
	m, ok := cat.Lookup(machineType)
	if !ok {
		return hw
	}
	hw.CPUs = m.VCPUs
	hw.RealMemory = m.RealMemoryMiB()
	if n, whole := m.WholeGPUs(); m.HasGPU() && whole {
		hw.GPUModel, hw.GPUType, hw.GPUs = m.GPUModel, m.GPUModel, n
	}
	return hw
}

func gpusMatch(m *machines.Machine, hw hardware) bool {
	n, whole := m.WholeGPUs()
	if hw.GPUs == 0 {
		// The renderer writes no Gres for fractional (vGPU) machines.
		return !m.HasGPU() || !whole
	}
	return m.HasGPU() && whole && n == hw.GPUs && (hw.GPUModel == "" || hw.GPUModel == m.GPUModel)
}

func describe(hw hardware) string {
	s := fmt.Sprintf("%d vCPUs", hw.CPUs)
	if hw.RealMemory > 0 {
		s += fmt.Sprintf(", RealMemory=%d", hw.RealMemory)
	}
	switch {
	case hw.GPUs == 0:
		s += " and no GPUs"
	case hw.GPUType != "":
		s += fmt.Sprintf(" and %d x %s", hw.GPUs, hw.GPUType)
	default:
		s += fmt.Sprintf(" and %d GPUs", hw.GPUs)
	}
	return s
}

func names(ms []*machines.Machine) string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Type)
	}
	return strings.Join(out, ", ")
}

func quoteOr(s, alt string) string {
	if s == "" {
		return alt
	}
	return fmt.Sprintf("%q", s)
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

var nonAlnum = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^a-z0-9]+`) })

// todoMachineType is the placeholder written when no machine type fits:
// "TODO-cpus-64-mem-257000" (with "-gpus-8-h100" for GPUs). Its capitals
// fail the schema's machineType pattern, so the spec cannot be rendered or
// applied until someone chooses a type.
func todoMachineType(hw hardware) string {
	s := "TODO-cpus-" + itoaOr(hw.CPUs, "unknown") + "-mem-" + itoaOr(hw.RealMemory, "unknown")
	if hw.GPUs > 0 {
		s += fmt.Sprintf("-gpus-%d", hw.GPUs)
		if t := strings.Trim(nonAlnum().ReplaceAllString(strings.ToLower(hw.GPUType), "-"), "-"); t != "" {
			s += "-" + t
		}
	}
	return s
}

func itoaOr(i int, alt string) string {
	if i <= 0 {
		return alt
	}
	return fmt.Sprint(i)
}
