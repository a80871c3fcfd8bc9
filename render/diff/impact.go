package diff

// This file is the one place that classifies changes: what each kind of
// change costs (Impact) and which changes hurt running jobs, with the
// source of every fact. Sources are cited as
//
//   - "API": /work/shared/reference/model-development-cluster.md, the
//     ModelDevelopmentCluster field reference ("immutable": a change
//     forces replacement; the update-mask fields of orchestratorSpec);
//   - "pulumi-gcp": /work/shared/reference/pulumi-gcp-model-development-cluster.md,
//     the provider resource that deploys it ("ForceNew": a change
//     replaces the resource; a ForceNew field inside nodePools[]
//     replaces the whole cluster);
//   - "slurm.conf(5) X" / "scontrol(1) X": the man pages in SchedMD/slurm
//     at tag X (doc/man/man5/slurm.conf.5, doc/man/man1/scontrol.1);
//   - "read_config.c X": src/slurmctld/read_config.c at tag X.
//
// Tags: 22.05 = slurm-22-05-8-1, 23.02 = slurm-23-02-8-1,
// 23.11 = slurm-23-11-11-1, 26.05 = slurm-26-05-3-1.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/slurmspec/slurmspec/schema/catalog"
)

// Impact is what applying a change costs, ordered from harmless to
// destructive: None < InPlace < Reconfigure < Restart < ReplacePool <
// ReplaceCluster.
type Impact int

// Impacts, in increasing order.
const (
	// None: no change.
	None Impact = iota
	// InPlace: applied through the API's update mask; no Slurm daemon
	// has to re-read anything (prolog/epilog script text, mutable node
	// pool fields, labels).
	InPlace
	// Reconfigure: slurm.conf changes that Slurm picks up with
	// `scontrol reconfigure`.
	Reconfigure
	// Restart: slurm.conf changes that `scontrol reconfigure` cannot
	// apply; slurmctld (and possibly slurmd) must be restarted.
	Restart
	// ReplacePool: an immutable node pool field changes and only the pool
	// is recreated. No change is classified so any more: the provider
	// that deploys the cluster (pulumi-gcp) replaces the whole cluster
	// for every change the API would apply by recreating a pool. Kept so
	// that `--fail-on replace-pool` and the JSON report's names stay valid.
	ReplacePool
	// ReplaceCluster: the provider deletes and recreates the whole
	// cluster: an immutable cluster field changes, a ForceNew field of a
	// node pool changes, or node pools are added, removed or reordered.
	ReplaceCluster
)

var impactNames = [...]string{"none", "in-place", "reconfigure", "restart", "replace-pool", "replace-cluster"}

// String returns the impact's name: none, in-place, reconfigure, restart,
// replace-pool or replace-cluster.
func (i Impact) String() string {
	if i >= 0 && int(i) < len(impactNames) {
		return impactNames[i]
	}
	return "impact(" + strconv.Itoa(int(i)) + ")"
}

// AppliedBy says who applies a change of this impact once the new spec is
// sent: the service on the PATCH (`slurmspec deploy up`, `pulumi up`, or
// any other client of the API), and what must follow on the cluster. The
// service's documentation does not say whether it runs `scontrol
// reconfigure` or restarts the daemons itself after a PATCH of
// slurmSpec, so those are named as steps, with who can take them.
func (i Impact) AppliedBy() string {
	switch i {
	case InPlace:
		return "the service, on the PATCH"
	case Reconfigure:
		return "the service's PATCH rewrites slurm.conf; then `scontrol reconfigure` (a Slurm administrator on the login node, unless the service runs it)"
	case Restart:
		return "the service's PATCH rewrites slurm.conf; then the daemons named restart (slurmctld runs on the service's controller, so that is the service's to do; slurmspec cannot tell whether the PATCH triggers it)"
	case ReplacePool, ReplaceCluster:
		return "the deploy tool (`slurmspec deploy up`, `pulumi up`): the API refuses the PATCH, so the cluster is deleted and created again"
	}
	return ""
}

// ParseImpact parses an impact name as written by String, case-insensitively.
// "replace" is accepted as ReplacePool, the least replacement, so that
// `--fail-on replace` fails on any replacement.
func ParseImpact(s string) (Impact, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	if t == "replace" {
		return ReplacePool, nil
	}
	for i, n := range impactNames {
		if t == n {
			return Impact(i), nil
		}
	}
	return None, fmt.Errorf("unknown impact %q: want one of %s or replace", s, strings.Join(impactNames[:], ", "))
}

// MarshalText encodes the impact as its name.
func (i Impact) MarshalText() ([]byte, error) {
	if i < 0 || int(i) >= len(impactNames) {
		return nil, fmt.Errorf("invalid impact %d", int(i))
	}
	return []byte(i.String()), nil
}

// UnmarshalText decodes an impact name.
func (i *Impact) UnmarshalText(b []byte) error {
	v, err := ParseImpact(string(b))
	if err != nil {
		return err
	}
	*i = v
	return nil
}

// execReconfigure is the first series whose `scontrol reconfigure` starts
// new daemon processes that read slurm.conf from scratch, instead of
// re-reading it inside the running daemons. Source: scontrol(1) 23.11 and
// 26.05 ("Starting in 23.11, this command operates by creating new
// processes for the daemons"); in 26.05 read_slurm_conf() is called only
// at start-up and on backup take-over (controller.c, backup.c), and
// slurm.conf(5) 23.11 dropped every per-key "a restart of slurmctld is
// required" note that 23.02 had.
var execReconfigure = catalog.Series{Year: 23, Month: 11}

// fallbackSeries is assumed when the Slurm version is unknown: the older
// rules, which call for a restart more often, so that an unknown version
// never hides one.
var fallbackSeries = catalog.Series{Year: 23, Month: 2}

// restartRule is a slurm.conf global key, or one option of a
// comma-separated key, that `scontrol reconfigure` cannot change.
type restartRule struct {
	key string
	// option is "" for the whole key; otherwise the rule applies when
	// this option is added to or removed from the key's list.
	option string
	// preExec is true when the rule holds only before execReconfigure
	// (series up to 23.02); false when it holds in every series.
	preExec bool
	// daemons names what must be restarted.
	daemons string
	source  string
	// unsure says what is not certain about the rule; empty when the
	// source states it.
	unsure string
}

// restartRules is the table of keys that need a daemon restart.
//
// Every series (scontrol(1) 26.05, reconfigure: it "will not be able to
// change the daemons' listening TCP port settings or authentication
// mechanism"; slurm.conf(5) 26.05: "Changes to TCP listening settings will
// require a daemon restart"; controller.c 26.05 hands the listening sockets
// and the auth fd to the new slurmctld on reconfigure).
//
// Up to 23.02 (reconfigure re-reads slurm.conf inside the running
// daemons): the keys whose slurm.conf(5) 22.05/23.02 entry says "A restart
// of slurmctld [and slurmd] is required for changes to this parameter to
// take effect", plus the plugin types that read_slurm_conf() 22.05/23.02
// refuses to change in a running slurmctld (it keeps the old value and
// returns ESLURM_INVALID_*_CHANGE).
var restartRules = []restartRule{
	{key: "SlurmctldPort", daemons: "slurmctld and every slurmd", source: "scontrol(1) 26.05 reconfigure (listening ports); slurm.conf(5) 22.05 SlurmctldPort"},
	{key: "SlurmdPort", daemons: "every slurmd and slurmctld", source: "scontrol(1) 26.05 reconfigure (listening ports); slurm.conf(5) 22.05 SlurmdPort"},
	{key: "AuthType", daemons: "every daemon and command", source: "scontrol(1) 26.05 reconfigure (authentication mechanism); slurm.conf(5) 26.05 AuthType; read_config.c 22.05/23.02/26.05"},
	{key: "AuthAltTypes", daemons: "every daemon", source: "scontrol(1) 26.05 reconfigure (authentication mechanism)",
		unsure: "scontrol(1) names the authentication mechanism, not this key; assumed to be part of it"},
	{key: "AuthAltParameters", daemons: "every daemon", source: "scontrol(1) 26.05 reconfigure (authentication mechanism)",
		unsure: "scontrol(1) names the authentication mechanism, not this key; assumed to be part of it"},
	{key: "AuthInfo", daemons: "every daemon", source: "scontrol(1) 26.05 reconfigure (authentication mechanism)",
		unsure: "scontrol(1) names the authentication mechanism, not this key; assumed to be part of it"},
	{key: "TLSType", daemons: "every daemon", source: "scontrol(1) 26.05 reconfigure (listening sockets are inherited)",
		unsure: "no source says whether reconfigure can switch TLS on inherited sockets; assumed not"},

	{key: "AccountingStorageEnforce", preExec: true, daemons: "slurmctld", source: "slurm.conf(5) 22.05/23.02 AccountingStorageEnforce"},
	{key: "BurstBufferType", preExec: true, daemons: "slurmctld", source: "read_config.c 22.05/23.02 read_slurm_conf (ESLURM_INVALID_BURST_BUFFER_CHANGE)"},
	{key: "CoreSpecPlugin", preExec: true, daemons: "every slurmd", source: "slurm.conf(5) 22.05/23.02 CoreSpecPlugin"},
	{key: "CredType", preExec: true, daemons: "slurmctld", source: "slurm.conf(5) 22.05/23.02 CredType; read_config.c 22.05/23.02"},
	{key: "GresTypes", preExec: true, daemons: "slurmctld and every slurmd", source: "slurm.conf(5) 22.05/23.02 GresTypes"},
	{key: "JobContainerType", preExec: true, daemons: "slurmctld", source: "slurm.conf(5) 22.05/23.02 JobContainerType; read_config.c 23.02"},
	{key: "MaxJobCount", preExec: true, daemons: "slurmctld", source: "slurm.conf(5) 22.05/23.02 MaxJobCount"},
	{key: "MaxNodeCount", preExec: true, daemons: "slurmctld", source: "slurm.conf(5) 22.05/23.02 MaxNodeCount"},
	{key: "PluginDir", preExec: true, daemons: "slurmctld and every slurmd", source: "slurm.conf(5) 22.05/23.02 PluginDir"},
	{key: "PowerPlugin", preExec: true, daemons: "slurmctld", source: "slurm.conf(5) 22.05/23.02 PowerPlugin"},
	{key: "ProctrackType", preExec: true, daemons: "slurmctld", source: "slurm.conf(5) 22.05/23.02 ProctrackType"},
	{key: "SchedulerType", preExec: true, daemons: "slurmctld", source: "slurm.conf(5) 22.05/23.02 SchedulerType; read_config.c 22.05/23.02"},
	{key: "SelectType", preExec: true, daemons: "slurmctld and every slurmd", source: "slurm.conf(5) 22.05/23.02 SelectType; read_config.c 22.05/23.02"},
	{key: "SelectTypeParameters", preExec: true, daemons: "slurmctld", source: "slurm.conf(5) 22.05/23.02 SelectTypeParameters; read_config.c _preserve_select_type_param"},
	{key: "SlurmctldHost", preExec: true, daemons: "slurmctld", source: "slurm.conf(5) 22.05/23.02 SlurmctldHost"},
	{key: "StateSaveLocation", preExec: true, daemons: "slurmctld", source: "slurm.conf(5) 22.05/23.02 StateSaveLocation"},
	{key: "SwitchType", preExec: true, daemons: "every daemon and command", source: "slurm.conf(5) 22.05/23.02 SwitchType; read_config.c 22.05/23.02"},
	{key: "SchedulerParameters", option: "no_backup_scheduling", preExec: true, daemons: "slurmctld", source: "slurm.conf(5) 22.05/23.02 SchedulerParameters no_backup_scheduling"},
	{key: "SlurmctldParameters", option: "enable_configless", preExec: true, daemons: "slurmctld", source: "slurm.conf(5) 22.05/23.02 SlurmctldParameters enable_configless"},
}

// Node lines: adding or removing nodes, or changing their configuration.
// Up to 23.02 both need a restart of slurmctld and every slurmd
// (scontrol(1) 22.05/23.02 reconfigure; slurm.conf(5) 22.05/23.02 NODE
// CONFIGURATION); from 23.11 "restarting or reconfiguring" is enough
// (slurm.conf(5) 23.11/26.05 NODE CONFIGURATION).
const (
	nodeRestartSource     = "scontrol(1) 22.05/23.02 reconfigure; slurm.conf(5) 22.05/23.02 NODE CONFIGURATION"
	nodeReconfigureSource = "slurm.conf(5) 26.05 NODE CONFIGURATION"
)

// jobRule says how changing a slurm.conf key can hurt running or pending
// jobs.
type jobRule struct {
	key    string
	hurts  string
	source string
}

// globalJobRules apply to global slurm.conf keys.
var globalJobRules = []jobRule{
	{"SelectType", "running and pending jobs are lost: each select plugin saves job state in its own format", "slurm.conf(5) 26.05 SelectType"},
	{"SwitchType", "records of jobs in any state may be lost if jobs are running", "slurm.conf(5) 26.05 SwitchType"},
	{"AuthType", "outstanding job steps are interrupted and cannot complete", "slurm.conf(5) 26.05 AuthType"},
	{"PreemptMode", "running jobs may be preempted (requeued, suspended or cancelled) under the new mode", "slurm.conf(5) 26.05 PreemptMode"},
	{"PreemptType", "running jobs may be preempted under the new preemption plugin", "slurm.conf(5) 26.05 PreemptType"},
}

// partitionJobRules apply to keys of a PartitionName line.
var partitionJobRules = []jobRule{
	{"PreemptMode", "running jobs in this partition may be preempted (requeued, suspended or cancelled) under the new mode", "slurm.conf(5) 26.05 PreemptMode (partition)"},
	{"PriorityTier", "running jobs in lower-tier partitions on the same nodes may be preempted", "slurm.conf(5) 26.05 PriorityTier, PreemptType=preempt/partition_prio"},
	{"Priority", "running jobs in lower-tier partitions on the same nodes may be preempted (Priority sets PriorityTier)", "partition.tsv: Priority is an alias of PriorityJobFactor+PriorityTier"},
}

// Hurts-jobs texts of structural changes.
const (
	hurtsPartitionRemoved = "jobs using the partition, pending or running, are cancelled (slurm.conf(5) 26.05 PARTITION CONFIGURATION)"
	hurtsDefaultMoved     = "jobs submitted without --partition now go to %s instead of %s"
	hurtsNodesRemoved     = "jobs running on these nodes end when the nodes leave the configuration"
	hurtsMaxLowered       = "nodes %s may be deleted under running jobs"
	hurtsClusterReplaced  = "the whole cluster is deleted and recreated: every running and pending job is lost"
)

// field is a field whose change replaces the cluster (a path in
// cluster.json, relative to the cluster or to a node pool); a change
// anywhere below it forces replacement.
type field struct {
	path   string
	source string
	unsure string
}

// clusterImmutable are the cluster fields whose change replaces the
// cluster (API: immutable; pulumi-gcp: ForceNew).
var clusterImmutable = []field{
	{path: "network", source: "API: network.network and network.subnetwork are immutable; pulumi-gcp: network is ForceNew"},
	{path: "runtimeSpec", source: "API: runtimeSpec.serviceAccount is immutable; pulumi-gcp: runtimeSpec is ForceNew"},
	{path: "orchestratorSpec.slurmSpec.homeDirectoryStorage", source: "API: homeDirectoryStorage is immutable; pulumi-gcp: ForceNew"},
}

// poolReplacing are the node pool fields whose change replaces the whole
// cluster: the API marks them immutable, and pulumi-gcp marks them
// ForceNew inside the nodePools list, which makes the plan a replacement
// of the resource.
var poolReplacing = []field{
	{path: "id", source: "API: nodePools[].id is immutable; pulumi-gcp: ForceNew"},
	{path: "machineSpec", source: "API: machineType, reservationAffinityType and values are immutable; pulumi-gcp: machineSpec is ForceNew"},
	{path: "provisioningModel", source: "API: provisioningModel is immutable; pulumi-gcp: ForceNew"},
	{path: "confidentialInstanceConfig", source: "API: confidentialInstanceType is immutable; pulumi-gcp: ForceNew"},
}

// Sources of structural node pool changes.
const (
	poolListSource = "pulumi-gcp: nodePools[] elements have ForceNew fields, so adding, removing or reordering node pools replaces the resource"
)

// clusterIdentityFields are the provider's identity inputs (not in
// cluster.json: they make up the cluster's name).
var clusterIdentityFields = []string{"project", "region", "modelDevelopmentClusterId"}

// ClusterReplaced reports whether deploying a change at path replaces the
// whole cluster. path is a cluster.json path with "[]" for list elements
// ("nodePools[].machineSpec.machineType", "network.subnetwork"); the
// identity inputs "project", "region" and "modelDevelopmentClusterId" are
// accepted too, and "nodePools[]" stands for adding, removing or
// reordering node pools. It states the rule Compare classifies by; a
// conformance test holds it to the provider's description.
func ClusterReplaced(path string) bool {
	for _, id := range clusterIdentityFields {
		if path == id {
			return true
		}
	}
	if path == "nodePools[]" {
		return true
	}
	if rest, ok := strings.CutPrefix(path, "nodePools[]."); ok {
		return immutableField(poolReplacing, rest) != nil
	}
	return immutableField(clusterImmutable, path) != nil
}

// clusterIdentity: the cluster id (ClusterName in slurm.conf, the last
// part of the resource name), the project and the region are part of the
// resource name, which cannot change (API: modelDevelopmentClusterId and
// region are I).
const clusterIdentitySource = "API: modelDevelopmentClusterId and region are I"

// poolDefaults are the API's defaults of node pool fields, so that writing
// a default out is not a change. Source: API (bootDiskSizeGb default 100;
// scaling counts and enablePublicIps default to zero values).
// provisioningModel's default depends on reservationAffinity and is
// applied in code (API: RESERVATION when reservationAffinity is set,
// otherwise ON_DEMAND for the pools the API accepts).
var poolDefaults = map[string]string{
	"bootDisk.bootDiskSizeGb":  "100",
	"scalingSpec.minNodeCount": "0",
	"enablePublicIps":          "false",
}

// slurmSpecCovered are the slurmSpec fields that cluster.json holds but the
// comparison takes from the rendered slurm.conf and scripts instead, where
// Slurm's semantics (key case, order) are known. They are update-mask
// fields (API).
var slurmSpecCovered = []string{
	"orchestratorSpec.slurmSpec.config",
	"orchestratorSpec.slurmSpec.partitions",
	"orchestratorSpec.slurmSpec.nodeSets",
	"orchestratorSpec.slurmSpec.defaultPartitionId",
	"orchestratorSpec.slurmSpec.prologBashScripts",
	"orchestratorSpec.slurmSpec.epilogBashScripts",
}

// Reasons of the common classifications.
const (
	reasonReconfigure = "slurm.conf changes; Slurm applies it on `scontrol reconfigure`"
	reasonScript      = "script text changes in place through the update mask; slurmd expands the Prolog/Epilog glob for every job (prep/script plugin), so no reconfigure is needed"
	reasonFile        = "slurmspec does not classify this file; assuming Slurm reads it on `scontrol reconfigure`"
	reasonPoolField   = "mutable node pool field (API), applied through the update mask"
	reasonPoolAdded   = "a node pool is added (" + poolListSource + "): the whole cluster is replaced"
	reasonPoolRemoved = "a node pool is removed (" + poolListSource + "): the whole cluster is replaced"
	reasonPoolOrder   = "the node pools are reordered (" + poolListSource + "): the whole cluster is replaced"
	reasonCluster     = "mutable cluster field (API), applied through the update mask"
)

// restartRuleFor returns the restart rule that applies to a change of a
// global key in series s, or nil.
func restartRuleFor(key string, old, new []string, s catalog.Series) *restartRule {
	for i := range restartRules {
		r := &restartRules[i]
		if !strings.EqualFold(r.key, key) || r.preExec && !s.Before(execReconfigure) {
			continue
		}
		if r.option != "" && hasOption(old, r.option) == hasOption(new, r.option) {
			continue
		}
		return r
	}
	return nil
}

// hasOption reports whether a comma-separated value lists an option
// (compared case-insensitively, ignoring "=value").
func hasOption(values []string, opt string) bool {
	for _, v := range values {
		for _, o := range strings.Split(v, ",") {
			name, _, _ := strings.Cut(o, "=")
			if strings.EqualFold(strings.TrimSpace(name), opt) {
				return true
			}
		}
	}
	return false
}

func jobRuleFor(rules []jobRule, key string) *jobRule {
	for i := range rules {
		if strings.EqualFold(rules[i].key, key) {
			return &rules[i]
		}
	}
	return nil
}

// immutableField returns the immutable field a path lies in, or nil.
func immutableField(fields []field, path string) *field {
	for i := range fields {
		f := &fields[i]
		if path == f.path || strings.HasPrefix(path, f.path+".") {
			return f
		}
	}
	return nil
}
