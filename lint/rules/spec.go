package rules

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/lint"
)

// LoginPoolInPartition reports the login pool used as compute nodes.
var LoginPoolInPartition = &lint.Rule{
	ID:       "login-pool-in-partition",
	Severity: diag.Error,
	Summary:  "A partition or node set names the login node pool",
	Doc: "Login nodes are where users log in and submit jobs; they are not Slurm compute nodes, " +
		"so a partition over the login pool would have no nodes.\n\n" +
		"Bad:\n\n```yaml\nloginNodePoolId: login\npartitions:\n- {id: debug, nodePoolIds: [login]}\n```\n\n" +
		"Good:\n\n```yaml\nloginNodePoolId: login\npartitions:\n- {id: debug, nodePoolIds: [cpu]}\n```\n",
	Check: func(p *lint.Pass) {
		login := p.Cluster.Slurm.LoginNodePoolID.Value
		if login == "" {
			return
		}
		for _, part := range p.Cluster.Slurm.Partitions {
			for _, ref := range part.NodePoolIDs {
				if ref.Value == login {
					p.Report(ref.Pos, ref.Path, "use a compute node pool; login nodes do not run jobs",
						"partition %q includes the login node pool %q", part.ID.Value, login)
				}
			}
		}
		for _, ns := range p.Cluster.Slurm.NodeSets {
			if ns.NodePoolID.Value == login {
				p.Report(ns.NodePoolID.Pos, ns.NodePoolID.Path, "remove this nodeSets entry", "nodeSets configures the login node pool %q, which has no Slurm nodes", login)
			}
		}
	},
}

// UnusedPool reports compute pools that no partition uses.
var UnusedPool = &lint.Rule{
	ID:       "unused-pool",
	Severity: diag.Warning,
	Summary:  "A compute node pool is in no partition: it costs money and runs nothing",
	Doc: "Slurm schedules jobs onto partitions. Nodes of a pool that no partition lists are " +
		"provisioned (and billed) but no job can ever run on them.\n\n" +
		"Bad:\n\n```yaml\nnodePools: [{id: a4, ...}, {id: h200, ...}, {id: login, ...}]\npartitions:\n- {id: gpu, nodePoolIds: [a4]}\n```\n\n" +
		"Good:\n\n```yaml\nnodePools: [{id: a4, ...}, {id: h200, ...}, {id: login, ...}]\npartitions:\n- {id: gpu, nodePoolIds: [a4, h200]}\n```\n",
	Check: func(p *lint.Pass) {
		if p.Cluster.PartitionsUnknown() || p.Cluster.Slurm.LoginNodePoolID.Unknown {
			return // any pool may be the one a broken reference meant
		}
		used := map[string]bool{}
		for _, part := range p.Cluster.Slurm.Partitions {
			for _, ref := range part.NodePoolIDs {
				used[ref.Value] = true
			}
		}
		for _, pool := range p.Cluster.ComputePools() {
			if !used[pool.ID.Value] && !pool.ID.Unknown {
				nodes := fmt.Sprintf("its %d..%d nodes", pool.MinNodeCount.Value, pool.MaxNodeCount.Value)
				if pool.MinNodeCount.Unknown || pool.MaxNodeCount.Unknown {
					nodes = "its nodes" // the schema refused a count
				}
				p.Report(pool.ID.Pos, pool.ID.Path, "add it to a partition's nodePoolIds, or remove the pool",
					"node pool %q is in no partition: %s can run no job", pool.ID.Value, nodes)
			}
		}
	},
}

// ImplicitDefaultPartition reports a default that depends on list order.
var ImplicitDefaultPartition = &lint.Rule{
	ID:       "implicit-default-partition",
	Severity: diag.Warning,
	Summary:  "Several partitions and no defaultPartitionId: the default depends on list order",
	Doc: "Without defaultPartitionId the first partition is the default. Partitions are replaced " +
		"wholesale on update, so reordering the list silently moves every job submitted without " +
		"--partition.\n\n" +
		"Bad:\n\n```yaml\npartitions:\n- {id: train, nodePoolIds: [a4]}\n- {id: eval, nodePoolIds: [a4]}\n```\n\n" +
		"Good:\n\n```yaml\ndefaultPartitionId: train\npartitions:\n- {id: train, nodePoolIds: [a4]}\n- {id: eval, nodePoolIds: [a4]}\n```\n",
	Check: func(p *lint.Pass) {
		s := p.Cluster.Slurm
		if len(s.Partitions) > 1 && !s.DefaultPartitionID.Set {
			p.Report(s.Pos, s.Path+".defaultPartitionId", "set defaultPartitionId: \""+s.DefaultPartitionID.Value+"\" to keep today's default",
				"%d partitions and no defaultPartitionId: the default is %q only because it is listed first", len(s.Partitions), s.DefaultPartitionID.Value)
		}
	},
}

// GPUPoolProvisioning reports GPU pools the API would reject for lack of a
// provisioning model.
var GPUPoolProvisioning = &lint.Rule{
	ID:       "gpu-pool-provisioning",
	Severity: diag.Error,
	Summary:  "A GPU pool has neither a provisioningModel nor a reservation",
	Doc: "CPU pools default to ON_DEMAND. GPU pools default to RESERVATION when they have a " +
		"reservationAffinity; with neither, the API rejects the cluster.\n\n" +
		"Bad:\n\n```yaml\n- id: a4\n  machineSpec: {machineType: a4-highgpu-8g}\n  bootDisk: {bootDiskType: hyperdisk-balanced}\n```\n\n" +
		"Good:\n\n```yaml\n- id: a4\n  machineSpec: {machineType: a4-highgpu-8g}\n  provisioningModel: SPOT\n  bootDisk: {bootDiskType: hyperdisk-balanced}\n```\n",
	Check: func(p *lint.Pass) {
		for _, pool := range p.Cluster.NodePools {
			if pool.ProvisioningModel.Value == "" {
				p.Report(pool.Pos, pool.Path+".provisioningModel", "set provisioningModel (RESERVATION with a reservationAffinity, SPOT or FLEX_START)",
					"GPU node pool %q (%s) has no provisioningModel and no reservationAffinity; the API rejects it", pool.ID.Value, pool.MachineType.Value)
			}
		}
	},
}

// UnknownMachineType reports machine types missing from the catalog, or
// listed without their vCPUs and memory.
var UnknownMachineType = &lint.Rule{
	ID:       "unknown-machine-type",
	Severity: diag.Error,
	Summary:  "A machine type is not in slurmspec's catalog, so its CPUs, memory and GPUs are not rendered",
	Doc: "slurmspec renders CPUs, RealMemory and Gres for each node from its machine catalog, which lists the " +
		"predefined machine types of Compute Engine's general-purpose, compute-, memory- and accelerator-optimized " +
		"families. For a machine type it does not know (or knows without its vCPUs and memory) the NodeName line " +
		"would have none of them, and Slurm would schedule one CPU and 1 MiB per node: render and deploy refuse " +
		"the pool (render-machine-type). The API rejects a machine type that does not exist, so this is usually " +
		"a typo; the hint names the closest known type. A compute pool whose nodeSets entry sets CPUs and " +
		"RealMemory is rendered from them, and gets a warning only (its GPUs, boot disk and provisioning model " +
		"are not checked). The login pool gets no NodeName line, so a warning too.\n\n" +
		"Bad:\n\n```yaml\nmachineSpec: {machineType: a4-highgpu-8x}\n```\n\n" +
		"Good:\n\n```yaml\nmachineSpec: {machineType: a4-highgpu-8g}\n```\n",
	Check: func(p *lint.Pass) {
		known := catalogTypes()
		for _, pool := range p.Cluster.NodePools {
			if pool.MachineType.Value == "" || pool.MachineType.Unknown || pool.Machine != nil && pool.Machine.Known() {
				continue
			}
			what := "is not in the catalog"
			if pool.Machine != nil {
				what = "is in the catalog without its vCPUs and memory"
			}
			hint := diag.DidYouMean(pool.MachineType.Value, known, "check the machine type")
			login := pool.ID.Value == p.Cluster.Slurm.LoginNodePoolID.Value
			switch {
			case login:
				p.ReportAs(diag.Warning, pool.MachineType.Pos, pool.MachineType.Path, hint,
					"machine type %q %s: its boot disk and provisioning model are not checked", pool.MachineType.Value, what)
			case nodeSetGivesHardware(p.Cluster, pool):
				p.ReportAs(diag.Warning, pool.MachineType.Pos, pool.MachineType.Path, hint,
					"machine type %q %s: its nodes are rendered with the nodeSets entry's CPUs and RealMemory, and its GPUs, boot disk and provisioning model are not checked", pool.MachineType.Value, what)
			default:
				fix := "set CPUs and RealMemory in the pool's nodeSets entry"
				if dym := diag.DidYouMean(pool.MachineType.Value, known, ""); dym != "" {
					fix = dym + " Or " + fix
				} else {
					fix = "check the machine type, or " + fix
				}
				p.Report(pool.MachineType.Pos, pool.MachineType.Path, fix,
					"machine type %q %s: its NodeName line would have no CPUs and no RealMemory (Slurm would schedule one CPU and 1 MiB per node), so render and deploy refuse the pool", pool.MachineType.Value, what)
			}
		}
	},
}

// nodeSetGivesHardware reports whether a pool's nodeSets entry sets both
// CPUs and RealMemory (render writes them in place of the catalog's).
func nodeSetGivesHardware(c *ir.Cluster, pool *ir.NodePool) bool {
	ns := c.Slurm.NodeSetFor(pool.ID.Value)
	return ns != nil && lookupKV(ns.Config, "CPUs") != nil && lookupKV(ns.Config, "RealMemory") != nil
}

var placeholderRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Z][A-Z0-9_-]*$`) })

// Placeholder reports placeholders copied from the docs.
var Placeholder = &lint.Rule{
	ID:       "placeholder",
	Severity: diag.Warning,
	Summary:  "A resource name still holds a placeholder such as PROJECT_ID or REGION-ZONE",
	Doc: "The product docs write resource names with placeholders in capitals. They pass the " +
		"schema so that the docs' example lints, but the API cannot resolve them.\n\n" +
		"Bad:\n\n```json\n\"home_directory_storage\": \"projects/PROJECT_ID/locations/REGION-ZONE/instances/FILESTORE_INSTANCE_ID\"\n```\n\n" +
		"Good:\n\n```json\n\"home_directory_storage\": \"projects/my-project/locations/us-central1-a/instances/home\"\n```\n",
	Check: func(p *lint.Pass) {
		c := p.Cluster
		check := func(s ir.Str) {
			if !s.Set {
				return
			}
			var found []string
			for _, seg := range strings.Split(s.Value, "/") {
				if placeholderRe().MatchString(seg) {
					found = append(found, seg)
				}
			}
			if len(found) > 0 {
				p.Report(s.Pos, s.Path, "replace it with the real value", "%s still holds the placeholder %s", s.Path, strings.Join(found, ", "))
			}
		}
		if c.Project.Path == "name" {
			check(ir.Str{Value: "projects/" + c.Project.Value + "/locations/" + c.Region.Value, Set: true, Pos: c.Project.Pos, Path: "name"})
		}
		check(c.Network)
		check(c.Slurm.HomeDirectoryStorage)
		for _, pool := range c.NodePools {
			check(pool.Zone)
			for _, r := range pool.Reservations {
				check(r)
			}
			for _, f := range pool.Filestores {
				check(f)
			}
		}
	},
}

// ReservationAffinityMissing reports RESERVATION pools without a reservation.
var ReservationAffinityMissing = &lint.Rule{
	ID:       "reservation-affinity-missing",
	Severity: diag.Error,
	Summary:  "A RESERVATION node pool has no reservationAffinity",
	Doc: "A pool provisioned from a reservation must say which one: the API rejects " +
		"provisioningModel RESERVATION without machineSpec.reservationAffinity.\n\n" +
		"Bad:\n\n```yaml\n- id: a4\n  machineSpec: {machineType: a4-highgpu-8g}\n  provisioningModel: RESERVATION\n  bootDisk: {bootDiskType: hyperdisk-balanced}\n```\n\n" +
		"Good:\n\n```yaml\n- id: a4\n  machineSpec:\n    machineType: a4-highgpu-8g\n    reservationAffinity:\n      reservationAffinityType: SPECIFIC_RESERVATION\n      values: [projects/my-project/zones/us-central1-b/reservations/a4]\n  provisioningModel: RESERVATION\n  bootDisk: {bootDiskType: hyperdisk-balanced}\n```\n",
	Check: func(p *lint.Pass) {
		for _, pool := range p.Cluster.NodePools {
			if pool.ProvisioningModel.Set && pool.ProvisioningModel.Value == "RESERVATION" && !pool.ReservationAffinityType.Set &&
				!pool.ReservationAffinityType.Unknown && !p.Cluster.Unknown(pool.Path+".machineSpec.reservationAffinity") {
				p.Report(pool.ProvisioningModel.Pos, pool.Path+".machineSpec.reservationAffinity",
					"add machineSpec.reservationAffinity (SPECIFIC_RESERVATION and the reservation's name), or choose SPOT or FLEX_START",
					"node pool %q uses provisioningModel RESERVATION but names no reservation", pool.ID.Value)
			}
		}
	},
}
