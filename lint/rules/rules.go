// Package rules holds slurmspec's lint rules. All returns them in one
// explicit list; each rule is a plain lint.Rule value defined next to its
// check function.
package rules

import (
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/lint"
)

// All returns every rule, in the order their docs are listed. The list is
// built on each call; callers may reorder or filter it.
func All() []*lint.Rule {
	return []*lint.Rule{
		// The config maps: keys and values against the Slurm catalog.
		ReservedKey,
		PartitionDefaultKey,
		DuplicateConfigKey,
		UnknownConfigKey,
		ConfigKeyScope,
		ConfigKeyVersion,
		DeprecatedConfigKey,
		InvalidConfigValue,
		UnsafeConfigValue,
		HiddenCharacter,
		RenderedKeyOverride,
		CloudDNSDropped,

		// Preemption and gang scheduling (constraints.md P1-P11).
		PreemptModeCombination,
		PreemptSuspendNeedsGang,
		PreemptModeWithoutType,
		PreemptTypeNeedsMode,
		PartitionPreemptGang,
		PreemptionNeverFires,
		PreemptPriorityBasic,
		PartitionPreemptModeIgnored,
		GangTimeSlice,
		PreemptExemptTime,
		PreemptLegacyParameters,
		PreemptRequeueDisabled,
		PreemptSuspendMemory,

		// Priority and accounting (R, A).
		PriorityWithoutMultifactor,
		PriorityWeightOverflow,
		PriorityDecayNeedsReset,
		AccountingEnforceImplied,
		TrackWCKeyOverridden,
		AccountingTRESGPU,
		TRESWeightUnknown,
		AccountingTRESType,
		PartitionQOSUnknown,

		// The accounting file (schema/accounting) with the spec.
		AccountingPartitionName,
		AccountingReference,
		AccountCycle,
		QOSPreemptCycle,
		QOSPreemptModeUnset,
		AccountingTRESUntracked,
		AccountingEnforceNoUser,
		AccountingPartitionNoUser,
		AccountingPartitionNoQOS,
		TimeMinutesSeconds,
		QOSPriorityUnweighted,
		FairshareWithoutMultifactor,

		// Resource selection, memory, GRES and nodes (S, N).
		MemoryNotTracked,
		MemoryDefaultMissing,
		MemoryDefaultUnfit,
		ShapeNodeLimits,
		ShapeTimeLimit,
		ShapeCPULimit,
		ShapeMemLimit,
		ShapePartitionClosed,
		MemPerCPUAndNode,
		MaxNodeCountSelect,
		SelectParamsNoUnit,
		SelectLinearTopologyTree,
		PluginNeedsFile,
		PartitionSelectParamsIgnored,
		GresSharedWithoutGPU,
		GresSharingUnsupported,
		GresTypeNotDeclared,
		NodeCPUTopology,
		CoreSpecConflict,
		MemSpecLimit,

		// Tasks, prolog flags and containment (T).
		OOMKillStepNeedsCgroup,
		SlurmdSpecOverride,
		PrologX11Linuxproc,
		PrologContainProctrack,
		PrologSerialRunInJob,
		NamespaceNeedsContain,
		StepmgrNeedsContain,
		JobacctParamsNeedLinux,

		// Communication, limits and partition lines (C, L, Q).
		KeepAliveTimeConflict,
		IPv4Disabled,
		MCSParametersPlugin,
		JobIDRange,
		MaxDBDMsgs,
		MaxArraySize,
		MinJobAge,
		MessageTimeout,
		HealthCheckTimeout,
		SchedLogNeedsFile,
		SchedulerSizeLimits,
		BfLicensesBuiltin,
		TreeWidthZero,
		PropagateLimitsExcept,
		BcastExcludePaths,
		ProgramPath,
		SlurmctldPlugstack,
		RequeueExitValues,
		PartitionGroups,
		PartitionAccounts,
		PowerSaveDisabled,
		TopologyName,
		NodeAddressSet,
		HTTPAuthNeedsJWT,
		SuspendExcUnknown,
		EpilogMsgTime,
		PrologEpilogTimeout,
		AllowDenyConflict,
		OversubscribeCount,
		ExclusiveOverrides,
		ExclusiveUserTopo,
		PartitionPriorityAlias,

		// The spec beyond slurm.conf.
		LoginPoolInPartition,
		UnusedPool,
		ImplicitDefaultPartition,
		GPUPoolProvisioning,
		ReservationAffinityMissing,
		FlexStartDuration,
		UnknownMachineType,
		BootDiskUnsupported,
		ProvisioningUnsupported,
		FilestoreLocation,
		FractionalGPU,
		Placeholder,

		// Prolog and epilog scripts.
		ScriptSyntax,
		ScriptShebang,
		ScriptCRLF,
		ScriptEmpty,
	}
}

// configMap is one slurm.conf map of the spec and the scope it feeds.
type configMap struct {
	scope string // "global", "partition" or "node"
	kvs   []ir.KV
}

// configMaps lists every config map of the cluster.
func configMaps(c *ir.Cluster) []configMap {
	out := []configMap{{"global", c.Slurm.Config}}
	for _, p := range c.Slurm.Partitions {
		out = append(out, configMap{"partition", p.Config})
	}
	for _, n := range c.Slurm.NodeSets {
		out = append(out, configMap{"node", n.Config})
	}
	return out
}
