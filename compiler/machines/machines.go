// Package machines is the catalog of Compute Engine machine types that
// slurmspec knows: vCPUs, memory, GPUs, boot disk types and provisioning
// models. Its single source is machines.tsv, which is embedded and parsed
// on first use. Its first rows (the accelerator-optimized types and a few
// CPU types) are copied from the project's reference research; the other
// predefined general-purpose, compute-, memory- and storage-optimized types
// come from a dump of the Compute Engine machine-types API (each row names
// its source). TestEveryTypeFollowsItsFamily checks every row against its
// family's published sizing rule.
package machines

import (
	_ "embed"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"
)

//go:embed machines.tsv
var tsv string

// Support is one entry of a list of supported options. Confirmed is false
// where the research marked it with "?" (probably supported, no source
// confirmed it): linters should warn, not fail, on such entries.
type Support struct {
	Name      string
	Confirmed bool
}

// Machine is one machine type.
type Machine struct {
	Type   string
	Series string
	// VCPUs and MemoryGiB are zero when unknown. MemoryGiB is the Compute
	// Engine API's memoryMb / 1024, fractional for a few types
	// (n1-standard-1 has 3.75 GiB).
	VCPUs     int
	MemoryGiB float64
	// GPUModel is a lower-case short name (b200, h100, ...) or "" for none.
	GPUModel string
	// GPUCount is fractional for vGPU slices (g4-standard-6 has 1/8 GPU).
	GPUCount float64
	// BootDisks lists the supported boot disk types; nil when unknown.
	BootDisks []Support
	// Provisioning lists the supported provisioning models; nil when unknown.
	Provisioning []Support
	Notes        string
}

// HasGPU reports whether the machine has GPUs attached.
func (m *Machine) HasGPU() bool { return m.GPUModel != "" && m.GPUCount > 0 }

// WholeGPUs returns the GPU count as a whole number and whether it is one.
func (m *Machine) WholeGPUs() (int, bool) {
	if m.GPUCount != math.Trunc(m.GPUCount) {
		return 0, false
	}
	return int(m.GPUCount), true
}

// MemoryMiB is the machine's memory in MiB, the API's memoryMb (the table's
// GiB with two decimals, times 1024, rounded); zero when unknown.
func (m *Machine) MemoryMiB() int { return int(math.Round(m.MemoryGiB * 1024)) }

// Known reports whether the catalog has the type's vCPUs and memory, which
// a NodeName line needs.
func (m *Machine) Known() bool { return m.VCPUs > 0 && m.MemoryMiB() > 0 }

// RealMemoryMiB is the memory a Slurm node of this type advertises, as the
// slurm-gcp scripts compute it: memoryMb - (400 + 30 * floor(memoryMb/1024)).
// It is zero when the memory is unknown.
func (m *Machine) RealMemoryMiB() int {
	mb := m.MemoryMiB()
	if mb == 0 {
		return 0
	}
	return mb - (400 + 30*(mb/1024))
}

// Supports looks up name in a support list: whether it is listed and
// whether that is confirmed.
func Supports(list []Support, name string) (listed, confirmed bool) {
	for _, s := range list {
		if s.Name == name {
			return true, s.Confirmed
		}
	}
	return false, false
}

// Names returns the names of a support list.
func Names(list []Support) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = s.Name
	}
	return out
}

// Catalog is a parsed machine catalog.
type Catalog struct {
	byType map[string]*Machine
	types  []string
}

// Lookup returns the machine type's facts.
func (c *Catalog) Lookup(machineType string) (*Machine, bool) {
	m, ok := c.byType[machineType]
	return m, ok
}

// Types returns every known machine type, sorted.
func (c *Catalog) Types() []string { return c.types }

var defaultCatalog = sync.OnceValues(func() (*Catalog, error) { return Parse(tsv) })

// Default returns the embedded catalog. It panics only if the embedded file
// is malformed, which TestEmbeddedCatalogParses rules out.
func Default() *Catalog {
	c, err := defaultCatalog()
	if err != nil {
		panic(fmt.Sprintf("internal error: embedded machines.tsv: %v", err))
	}
	return c
}

// Parse reads a catalog in the machines.tsv format (tab-separated, with a
// header naming the columns; "?" means unknown).
func Parse(text string) (*Catalog, error) {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if len(lines) < 2 {
		return nil, fmt.Errorf("machines.tsv: no rows")
	}
	col := map[string]int{}
	for i, h := range strings.Split(lines[0], "\t") {
		col[h] = i
	}
	for _, need := range []string{"machine_type", "series", "vcpus", "memory_gib", "gpu_model", "gpu_count", "supported_boot_disk_types", "provisioning_models", "notes"} {
		if _, ok := col[need]; !ok {
			return nil, fmt.Errorf("machines.tsv: missing column %q", need)
		}
	}
	c := &Catalog{byType: map[string]*Machine{}}
	for n, line := range lines[1:] {
		f := strings.Split(line, "\t")
		get := func(name string) string {
			if i := col[name]; i < len(f) {
				return strings.TrimSpace(f[i])
			}
			return ""
		}
		m := &Machine{Type: get("machine_type"), Series: get("series"), Notes: get("notes")}
		var err error
		if m.VCPUs, err = optInt(get("vcpus")); err != nil {
			return nil, fmt.Errorf("machines.tsv line %d: vcpus: %w", n+2, err)
		}
		if m.MemoryGiB, err = optFloat(get("memory_gib")); err != nil {
			return nil, fmt.Errorf("machines.tsv line %d: memory_gib: %w", n+2, err)
		}
		if g := get("gpu_model"); g != "none" && g != "?" {
			m.GPUModel = g
		}
		if s := get("gpu_count"); s != "?" {
			if m.GPUCount, err = strconv.ParseFloat(s, 64); err != nil {
				return nil, fmt.Errorf("machines.tsv line %d: gpu_count: %w", n+2, err)
			}
		}
		m.BootDisks = supportList(get("supported_boot_disk_types"))
		m.Provisioning = supportList(get("provisioning_models"))
		if m.Type == "" {
			return nil, fmt.Errorf("machines.tsv line %d: empty machine_type", n+2)
		}
		if _, dup := c.byType[m.Type]; dup {
			return nil, fmt.Errorf("machines.tsv line %d: %s listed twice", n+2, m.Type)
		}
		c.byType[m.Type] = m
		c.types = append(c.types, m.Type)
	}
	sort.Strings(c.types)
	return c, nil
}

func optInt(s string) (int, error) {
	if s == "?" || s == "" {
		return 0, nil
	}
	return strconv.Atoi(s)
}

func optFloat(s string) (float64, error) {
	if s == "?" || s == "" {
		return 0, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err == nil && (f < 0 || math.IsInf(f, 0) || math.IsNaN(f)) {
		err = fmt.Errorf("%q is not a memory size", s)
	}
	return f, err
}

func supportList(s string) []Support {
	if s == "?" || s == "" {
		return nil
	}
	var out []Support
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		out = append(out, Support{Name: strings.TrimSuffix(item, "?"), Confirmed: !strings.HasSuffix(item, "?")})
	}
	return out
}
