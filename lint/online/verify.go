package online

import (
	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/diag/ids"
)

// Ids of `slurmspec verify`, which asks the deployed cluster through the
// service's Slurm Job API whether it is what the spec renders and whether
// it runs the spec's jobs (deploy/verify, docs/verify.md).
const (
	RuleVerifyPartitionMissing    = "verify-partition-missing"
	RuleVerifyPartitionUnexpected = "verify-partition-unexpected"
	RuleVerifyPartitionDrift      = "verify-partition-drift"
	RuleVerifyNodeDrift           = "verify-node-drift"
	RuleVerifyJobRefused          = "verify-job-refused"
	RuleVerifyJobPending          = "verify-job-pending"
	RuleVerifyJobNoVerdict        = "verify-job-no-verdict"
)

const verifyNote = " Reported by `slurmspec verify` (and `slurmspec deploy up --verify`), which reads the live cluster " +
	"through the service's Slurm Job API (see docs/verify.md)."

// VerifyPartitionMissing reports a rendered partition the live cluster lacks.
var VerifyPartitionMissing = ids.Entry{
	ID: RuleVerifyPartitionMissing, Stage: ids.Online, Severity: diag.Error,
	Summary: "A partition of the spec is not on the live cluster",
	Doc: "The spec renders the partition, but slurmctld on the deployed cluster does not have it: the cluster runs " +
		"another version of the spec (deploy it), or someone removed the partition by hand. Jobs sent to it are " +
		"refused." + verifyNote + "\n",
}

// VerifyPartitionUnexpected reports a live partition the spec lacks.
var VerifyPartitionUnexpected = ids.Entry{
	ID: RuleVerifyPartitionUnexpected, Stage: ids.Online, Severity: diag.Warning,
	Summary: "The live cluster has a partition the spec does not render",
	Doc: "slurmctld has a partition that is not in the spec: added by hand (`scontrol create partition`), or left " +
		"from another version of the spec. It goes away at the next reconfiguration." + verifyNote + "\n",
}

// VerifyPartitionDrift reports a live partition whose settings differ.
var VerifyPartitionDrift = ids.Entry{
	ID: RuleVerifyPartitionDrift, Stage: ids.Online, Severity: diag.Warning,
	Summary: "A live partition's nodes or settings differ from what the spec renders",
	Doc: "Compared: the partition's nodes (as slurmctld expands its node sets), its state (a partition that is not " +
		"UP takes or starts no jobs, an error), and MaxTime, DefaultTime, PriorityTier, MaxNodes and MinNodes: as " +
		"the spec renders them on the PartitionName line, or Slurm's defaults where the line does not set them " +
		"(MaxTime and MaxNodes UNLIMITED, PriorityTier 1, MinNodes 0). A difference usually comes from `scontrol update " +
		"PartitionName=...` on the cluster, which lasts until the next reconfiguration, or from a spec change not " +
		"deployed yet." + verifyNote + "\n",
}

// VerifyNodeDrift reports a live node whose resources differ.
var VerifyNodeDrift = ids.Entry{
	ID: RuleVerifyNodeDrift, Stage: ids.Online, Severity: diag.Error,
	Summary: "A live node is missing or has other CPUs, memory or GPUs than the spec renders",
	Doc: "Each node the spec renders (its NodeName line: CPUs, RealMemory, the GPUs of Gres) is compared with the " +
		"node slurmctld reports. A node with fewer resources than rendered refuses jobs sized for the rendered " +
		"ones; a node slurmctld does not know takes no jobs. The finding points at the pool's machine type." +
		verifyNote + "\n",
}

// VerifyJobRefused reports a job shape the live cluster refuses.
var VerifyJobRefused = ids.Entry{
	ID: RuleVerifyJobRefused, Stage: ids.Online, Severity: diag.Error,
	Summary: "A job of a standard shape is refused at submission on the live cluster",
	Doc: "verify submits, in every partition and on each of its pools, the standard job shapes the job-level oracle " +
		"checks lint against (render/jobshapes): one task, one GPU, every GPU of one node, a whole node and two nodes " +
		"(where the pool has GPUs and two nodes), each with the partition's defaults and with explicit sizes, and one " +
		"task at the partition's MaxTime. The message names the shape (partition/pool/kind[+sized]) and its sbatch " +
		"options, and carries " +
		"Slurm's reason, such as \"Requested node configuration is not available\" (a default memory per GPU times " +
		"the GPUs is more than a node has) or an access or limit error." + verifyNote + "\n",
}

// VerifyJobPending reports a job shape that pends for a configuration
// reason.
var VerifyJobPending = ids.Entry{
	ID: RuleVerifyJobPending, Stage: ids.Online, Severity: diag.Error,
	Summary: "A job of a standard shape pends for a reason of configuration, or fails, on the live cluster",
	Doc: "The job was accepted but pends with a reason that only a change of configuration or accounting ends: " +
		"PartitionConfig, PartitionNodeLimit, PartitionTimeLimit, PartitionDown, QOS or association limits, " +
		"ReqNodeNotAvail and the like; or it ended without running its script (FAILED, NODE_FAIL, BOOT_FAIL: a " +
		"prolog that fails, a node that does not boot). A job still pending for Resources or Priority when the wait ends is not this " +
		"finding but verify-job-no-verdict." + verifyNote + "\n",
}

// VerifyJobNoVerdict reports job shapes whose jobs still waited when
// verify's wait ended.
var VerifyJobNoVerdict = ids.Entry{
	ID: RuleVerifyJobNoVerdict, Stage: ids.Online, Severity: diag.Error,
	Summary: "Jobs of standard shapes still pend for resources when the wait ends: nothing shows they run",
	Doc: "The jobs were accepted and still pended, for Resources, Priority or another reason that is not one of " +
		"configuration, when --wait ended (a job in a state verify does not know counts too). That is what busy " +
		"nodes look like, but also nodes that never come up, or an endpoint that answers PENDING for every job: " +
		"nothing shows that these shapes run. One finding per partition names its shapes, grouped by Slurm's pending " +
		"reason. An error, so that verify (and `deploy up --verify`) does not pass a cluster on which no job was " +
		"shown to run; with --allow-pending it is a warning." + verifyNote + "\n",
}

// VerifyEntries returns the ids of `slurmspec verify`.
func VerifyEntries() []ids.Entry {
	return []ids.Entry{VerifyPartitionMissing, VerifyPartitionUnexpected, VerifyPartitionDrift, VerifyNodeDrift, VerifyJobRefused, VerifyJobPending, VerifyJobNoVerdict}
}
