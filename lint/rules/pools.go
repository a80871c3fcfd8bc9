package rules

import (
	"fmt"
	"strings"

	"github.com/slurmspec/slurmspec/compiler"
	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/compiler/machines"
	"github.com/slurmspec/slurmspec/lint"
)

// Node pools against the machine catalog (compiler/machines) and the
// locations of the Filestore instances they mount.

// supportRule reports a pool setting that the machine type does not list,
// as an error, or as a warning when the catalog is unsure.
func supportRule(p *lint.Pass, pool *ir.NodePool, s ir.Str, list []machines.Support, what, field string) {
	m := pool.Machine
	if m == nil || list == nil || s.Value == "" {
		return
	}
	listed, confirmed := machines.Supports(list, s.Value)
	if listed && confirmed {
		return
	}
	var confirmedNames []string
	for _, sup := range list {
		if sup.Confirmed {
			confirmedNames = append(confirmedNames, sup.Name)
		}
	}
	hint := "use " + orList(machines.Names(list))
	if len(confirmedNames) > 0 {
		hint = "use " + orList(confirmedNames)
	}
	pos, path := s.Pos, s.Path
	if !pos.IsValid() {
		pos = pool.Pos // the field and its parent object are absent
	}
	how := "is"
	if !s.Set {
		how = "defaults to"
		hint = fmt.Sprintf("set %s: %s", field, strings.TrimPrefix(hint, "use "))
	}
	if listed {
		p.ReportAs(diag.Warning, pos, path, hint+" to be safe",
			"node pool %q: %s %s %s, which %s (%s) probably supports; no source confirms it", pool.ID.Value, what, how, s.Value, m.Type, m.Series)
		return
	}
	p.Report(pos, path, hint, "node pool %q: %s %s %s, which %s (%s) does not support (supported: %s)",
		pool.ID.Value, what, how, s.Value, m.Type, m.Series, strings.Join(machines.Names(list), ", "))
}

// BootDiskUnsupported reports boot disk types a machine series cannot use.
var BootDiskUnsupported = &lint.Rule{
	ID:       "boot-disk-unsupported",
	Severity: diag.Error,
	Summary:  "A node pool's boot disk type is not supported by its machine type",
	Doc: doc("Each machine series boots from some disk types only: A4, A4X, A3 Ultra, C4, N4 and G4 from "+
		"hyperdisk-balanced, A2 and N2 from pd-ssd or pd-standard. When bootDisk is not given the API "+
		"default (pd-ssd, or hyperdisk-balanced on A3 Ultra) is checked. Catalog entries that no source "+
		"confirmed give a warning.",
		"- id: a4\n  machineSpec: {machineType: a4-highgpu-8g}\n  provisioningModel: SPOT\n  bootDisk: {bootDiskType: pd-ssd}",
		"- id: a4\n  machineSpec: {machineType: a4-highgpu-8g}\n  provisioningModel: SPOT\n  bootDisk: {bootDiskType: hyperdisk-balanced}"),
	Check: func(p *lint.Pass) {
		for _, pool := range p.Cluster.NodePools {
			if pool.Machine != nil {
				supportRule(p, pool, pool.BootDiskType, pool.Machine.BootDisks, "boot disk type", "bootDisk.bootDiskType")
			}
		}
	},
}

// ProvisioningUnsupported reports provisioning models a machine type
// cannot be obtained with.
var ProvisioningUnsupported = &lint.Rule{
	ID:       "provisioning-unsupported",
	Severity: diag.Error,
	Summary:  "A node pool's provisioning model is not offered for its machine type",
	Doc: doc("Not every machine type can be obtained with every provisioning model: A4 and A3 Ultra have no "+
		"ON_DEMAND capacity, A4X only RESERVATION. CPU pools default to ON_DEMAND. Catalog entries that no "+
		"source confirmed give a warning.",
		"- id: a4\n  machineSpec: {machineType: a4-highgpu-8g}\n  provisioningModel: ON_DEMAND\n  bootDisk: {bootDiskType: hyperdisk-balanced}",
		"- id: a4\n  machineSpec: {machineType: a4-highgpu-8g}\n  provisioningModel: SPOT\n  bootDisk: {bootDiskType: hyperdisk-balanced}"),
	Check: func(p *lint.Pass) {
		for _, pool := range p.Cluster.NodePools {
			if pool.Machine != nil {
				supportRule(p, pool, pool.ProvisioningModel, pool.Machine.Provisioning, "provisioning model", "provisioningModel")
			}
		}
	},
}

// orList joins names as "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// The name formats are compiler's (written once).
var (
	zoneRe   = compiler.ZoneRegexp
	regionRe = compiler.RegionRegexp
)

// filestoreLocation returns the location segment of a Filestore name, or
// "" when it has none or holds a placeholder.
func filestoreLocation(name string) string {
	parts := strings.Split(name, "/")
	for i := 0; i+1 < len(parts); i++ {
		if parts[i] == "locations" {
			loc := parts[i+1]
			if zoneRe().MatchString(loc) || regionRe().MatchString(loc) {
				return loc
			}
			return ""
		}
	}
	return ""
}

// regionOf returns the region of a zone, or the location itself when it is
// a region; "" for anything else (placeholders).
func regionOf(loc string) string {
	if m := zoneRe().FindStringSubmatch(loc); m != nil {
		return m[1]
	}
	if regionRe().MatchString(loc) {
		return loc
	}
	return ""
}

// FilestoreLocation reports Filestore instances outside the zone or region
// of the nodes that mount them.
var FilestoreLocation = &lint.Rule{
	ID:       "filestore-location",
	Severity: diag.Error,
	Summary:  "A Filestore instance is in another region than the node pools that mount it, or in another zone",
	Doc: doc("homeDirectoryStorage is mounted as /home on every node, and a pool's filestores on that pool's "+
		"nodes. An instance in another region than a pool's zone is an error; a zonal instance in another "+
		"zone of the same region works but sends every file access across zones, and is a warning.",
		"nodePools:\n- {id: a4, zone: us-central1-a, ...}\nhomeDirectoryStorage: projects/my-project/locations/us-east1-b/instances/home",
		"nodePools:\n- {id: a4, zone: us-central1-a, ...}\nhomeDirectoryStorage: projects/my-project/locations/us-central1-a/instances/home"),
	Check: func(p *lint.Pass) {
		c := p.Cluster
		home := c.Slurm.HomeDirectoryStorage
		if loc := filestoreLocation(home.Value); loc != "" {
			// Report the home instance once per distinct pool zone.
			seen := map[string]bool{}
			for _, pool := range c.NodePools {
				zone := pool.Zone.Value
				if seen[zone] || regionOf(zone) == "" {
					continue
				}
				seen[zone] = true
				filestoreCheck(p, home, loc, pool)
			}
		}
		for _, pool := range c.NodePools {
			if regionOf(pool.Zone.Value) == "" {
				continue
			}
			for _, fs := range pool.Filestores {
				if loc := filestoreLocation(fs.Value); loc != "" {
					filestoreCheck(p, fs, loc, pool)
				}
			}
		}
	},
}

func filestoreCheck(p *lint.Pass, fs ir.Str, loc string, pool *ir.NodePool) {
	zone := pool.Zone.Value
	region := regionOf(zone)
	switch {
	case regionOf(loc) != region:
		p.Report(fs.Pos, fs.Path, fmt.Sprintf("use a Filestore instance in %s (or zone %s)", region, zone),
			"Filestore instance in %s, but node pool %q is in zone %s (region %s)", loc, pool.ID.Value, zone, region)
	case zoneRe().MatchString(loc) && loc != zone:
		p.ReportAs(diag.Warning, fs.Pos, fs.Path, fmt.Sprintf("put the instance in %s, or the pool in %s", zone, loc),
			"zonal Filestore instance in %s, but node pool %q is in zone %s: every file access crosses zones", loc, pool.ID.Value, zone)
	}
}

// FractionalGPU reports vGPU slices, for which no Gres is rendered.
var FractionalGPU = &lint.Rule{
	ID:       "fractional-gpu",
	Severity: diag.Warning,
	Summary:  "A machine type has a fraction of a GPU: Slurm cannot schedule it as a GPU",
	Doc: doc("G4 vGPU types below g4-standard-48 have a slice of one RTX PRO 6000 (1/8 to 1/2). Slurm counts "+
		"GPUs in whole units, so slurmspec renders no Gres for them and jobs cannot request the GPU with "+
		"--gpus.",
		"machineSpec: {machineType: g4-standard-12}",
		"machineSpec: {machineType: g4-standard-48}"),
	Check: func(p *lint.Pass) {
		for _, pool := range p.Cluster.ComputePools() {
			m := pool.Machine
			if m == nil || !m.HasGPU() {
				continue
			}
			if _, whole := m.WholeGPUs(); !whole {
				p.Report(pool.MachineType.Pos, pool.MachineType.Path, "use g4-standard-48 or larger for a whole GPU, or schedule the pool by CPU only",
					"node pool %q: %s has %g of a %s GPU; no Gres is rendered, so jobs cannot request it", pool.ID.Value, m.Type, m.GPUCount, m.GPUModel)
			}
		}
	},
}
