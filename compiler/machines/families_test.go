package machines

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// family is the published sizing rule of a machine family (Compute
// Engine's machine family pages and its machine-types API): memory per
// vCPU for general-purpose, compute- and storage-optimized types, and
// vCPUs, memory and the GPU model per GPU for accelerator-optimized ones.
type family struct {
	perVCPU float64 // GiB per vCPU
	floor   bool    // the published memory is the product rounded down
	// For GPU families: the name ends in the GPU count ("8g"), and each
	// GPU brings gpuVCPUs vCPUs and gpuGiB GiB.
	gpu              string
	gpuVCPUs, gpuGiB float64
}

// families maps series-class ("n2-standard") to its rule.
var families = map[string]family{
	"n1-standard": {perVCPU: 3.75}, "n1-highmem": {perVCPU: 6.5}, "n1-highcpu": {perVCPU: 0.9},
	"n2-standard": {perVCPU: 4}, "n2-highmem": {perVCPU: 8}, "n2-highcpu": {perVCPU: 1},
	"n2d-standard": {perVCPU: 4}, "n2d-highmem": {perVCPU: 8}, "n2d-highcpu": {perVCPU: 1},
	"e2-standard": {perVCPU: 4}, "e2-highmem": {perVCPU: 8}, "e2-highcpu": {perVCPU: 1},
	"n4-standard": {perVCPU: 4}, "n4-highmem": {perVCPU: 8}, "n4-highcpu": {perVCPU: 2},
	"c2-standard":  {perVCPU: 4},
	"c2d-standard": {perVCPU: 4}, "c2d-highmem": {perVCPU: 8}, "c2d-highcpu": {perVCPU: 2},
	"c3-standard": {perVCPU: 4}, "c3-highmem": {perVCPU: 8}, "c3-highcpu": {perVCPU: 2},
	"c3d-standard": {perVCPU: 4}, "c3d-highmem": {perVCPU: 8}, "c3d-highcpu": {perVCPU: 2},
	"c4-standard": {perVCPU: 3.75, floor: true}, "c4-highmem": {perVCPU: 7.75, floor: true}, "c4-highcpu": {perVCPU: 2},
	"c4a-standard": {perVCPU: 4}, "c4a-highmem": {perVCPU: 8}, "c4a-highcpu": {perVCPU: 2},
	"c4d-standard": {perVCPU: 3.875, floor: true}, "c4d-highmem": {perVCPU: 7.875, floor: true}, "c4d-highcpu": {perVCPU: 1.875, floor: true},
	"t2d-standard": {perVCPU: 4}, "t2a-standard": {perVCPU: 4}, "h3-standard": {perVCPU: 4}, "z3-highmem": {perVCPU: 8},
	"g2-standard": {perVCPU: 4, gpu: "l4"},
	"g4-standard": {perVCPU: 3.75, floor: true, gpu: "rtxpro6000"},

	"a2-highgpu":  {gpu: "a100", gpuVCPUs: 12, gpuGiB: 85},
	"a2-megagpu":  {gpu: "a100", gpuVCPUs: 6, gpuGiB: 85},
	"a2-ultragpu": {gpu: "a100", gpuVCPUs: 12, gpuGiB: 170},
	"a3-highgpu":  {gpu: "h100", gpuVCPUs: 26, gpuGiB: 234},
	"a3-megagpu":  {gpu: "h100", gpuVCPUs: 26, gpuGiB: 234},
	"a3-edgegpu":  {gpu: "h100", gpuVCPUs: 26, gpuGiB: 234},
	"a3-ultragpu": {gpu: "h200", gpuVCPUs: 28, gpuGiB: 369},
	"a4-highgpu":  {gpu: "b200", gpuVCPUs: 28, gpuGiB: 496},
	"a4x-highgpu": {gpu: "gb200", gpuVCPUs: 35, gpuGiB: 221},
	"a4x-maxgpu":  {gpu: "gb300", gpuVCPUs: 36, gpuGiB: 240},
}

// exceptions are the published sizes that depart from their family's rule.
var exceptions = map[string]float64{
	"n2-highmem-128":       864, // 6.75 GiB per vCPU
	"c3-highcpu-192-metal": 512,
	"c3d-highcpu-30":       59, // 1.9667 GiB per vCPU from 30 vCPUs
	"c3d-highcpu-60":       118,
	"c3d-highcpu-90":       177,
	"c3d-highcpu-180":      354,
	"c3d-highcpu-360":      708,
}

// irregular are the series whose sizes follow no per-vCPU rule (memory-
// optimized and shared-core types): only their vCPUs are checked against
// the name, where it has a number, and that they have no GPUs.
var irregular = map[string]bool{"m1": true, "m2": true, "m3": true, "m4": true, "x4": true, "f1": true, "g1": true,
	"e2-micro": true, "e2-small": true, "e2-medium": true}

// g2GPUs is the G2 table: L4 GPUs by vCPU count.
var g2GPUs = map[int]float64{4: 1, 8: 1, 12: 1, 16: 1, 24: 2, 32: 1, 48: 4, 96: 8}

// TestEveryTypeFollowsItsFamily checks each catalog entry's vCPUs, memory
// and GPUs against its family's published rule (issue 26, section 5), so a
// mistyped cell or a new family without a rule fails here.
func TestEveryTypeFollowsItsFamily(t *testing.T) {
	c := Default()
	for _, typ := range c.Types() {
		m, _ := c.Lookup(typ)
		parts := strings.Split(typ, "-")
		key := parts[0]
		if len(parts) > 1 {
			key += "-" + parts[1]
		}
		num := 0
		if len(parts) > 2 {
			num, _ = strconv.Atoi(strings.TrimSuffix(parts[2], "g"))
		}
		if m.VCPUs == 0 || m.MemoryGiB == 0 {
			// Unknown cells are allowed only for types the research could
			// not size (a4-highgpu-8g-lowmem, the -nolssd A4X names).
			if !strings.HasSuffix(typ, "-lowmem") && !strings.HasSuffix(typ, "-nolssd") {
				t.Errorf("%s: no vCPUs or memory", typ)
			}
			continue
		}
		f, ruled := families[key]
		switch {
		case !ruled && (irregular[parts[0]] || irregular[typ]):
			if num > 0 && m.VCPUs != num {
				t.Errorf("%s: %d vCPUs, the name says %d", typ, m.VCPUs, num)
			}
			if m.HasGPU() {
				t.Errorf("%s: GPUs %v x %s, want none", typ, m.GPUCount, m.GPUModel)
			}
			continue
		case !ruled:
			t.Errorf("%s: no family rule for %s: add one to families (or irregular) from the published table", typ, key)
			continue
		}
		if f.gpuVCPUs > 0 {
			gpus := float64(num)
			if m.GPUModel != f.gpu || m.GPUCount != gpus || float64(m.VCPUs) != gpus*f.gpuVCPUs || m.MemoryGiB != gpus*f.gpuGiB {
				t.Errorf("%s = %d vCPUs, %v GiB, %v x %s; the family rule gives %v, %v, %v x %s",
					typ, m.VCPUs, m.MemoryGiB, m.GPUCount, m.GPUModel, gpus*f.gpuVCPUs, gpus*f.gpuGiB, gpus, f.gpu)
			}
			continue
		}
		if m.VCPUs != num {
			t.Errorf("%s: %d vCPUs, the name says %d", typ, m.VCPUs, num)
		}
		want := float64(m.VCPUs) * f.perVCPU
		if f.floor {
			want = math.Floor(want)
		}
		if e, ok := exceptions[typ]; ok {
			want = e
		}
		if math.Abs(m.MemoryGiB-want) > 1e-9 {
			t.Errorf("%s: %v GiB, the family rule gives %v", typ, m.MemoryGiB, want)
		}
		var wantGPUs float64
		switch f.gpu {
		case "l4":
			wantGPUs = g2GPUs[m.VCPUs]
		case "rtxpro6000":
			wantGPUs = float64(m.VCPUs) / 48
		}
		if m.GPUModel != f.gpu || m.GPUCount != wantGPUs {
			t.Errorf("%s: %v x %q GPUs, want %v x %q", typ, m.GPUCount, m.GPUModel, wantGPUs, f.gpu)
		}
	}
}

// TestTrainingFamiliesCovered checks that the machine families a training
// cluster uses are in the catalog (issue 26: n2-standard-64 was missing).
func TestTrainingFamiliesCovered(t *testing.T) {
	c := Default()
	for _, typ := range []string{
		"n2-standard-64", "n2d-standard-224", "c2-standard-60", "c2d-highmem-112", "c3-standard-176", "c3d-standard-360",
		"c4-standard-192", "e2-standard-32", "n1-standard-96", "n4-standard-80", "m1-megamem-96", "m2-ultramem-416",
		"m3-megamem-128", "a2-ultragpu-8g", "a3-highgpu-8g", "a3-megagpu-8g", "a3-ultragpu-8g", "a3-edgegpu-8g",
		"a4-highgpu-8g", "a4x-highgpu-4g", "g2-standard-96",
	} {
		if m, ok := c.Lookup(typ); !ok || !m.Known() {
			t.Errorf("%s: not in the catalog with its vCPUs and memory", typ)
		}
	}
	if m, _ := c.Lookup("n1-standard-1"); m == nil || m.MemoryMiB() != 3840 || m.RealMemoryMiB() != 3840-(400+30*3) {
		t.Errorf("n1-standard-1 (3.75 GiB = 3840 MiB): %+v", m)
	}
}
