package realslurm

import (
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// gpuPool is an autoscaled A4 pool (8 GPUs a node): with minNodeCount 0
// all its nodes are State=CLOUD, whose GRES slurmctld loads at start.
const gpuPool = "- {id: gpu, machineSpec: {machineType: a4-highgpu-8g}, provisioningModel: SPOT, bootDisk: {bootDiskType: hyperdisk-balanced, bootDiskSizeGb: 200}, " +
	"scalingSpec: {minNodeCount: 0, maxNodeCount: 2}, zone: us-central1-a}"

// gpuPartitions puts the GPU pool in a partition of its own.
const gpuPartitions = "- {id: debug, nodePoolIds: [cpu]}\n- {id: gpu, nodePoolIds: [gpu]}"

// truthCases3 are lint rows the differential oracle (lab/fidelity) led
// to from its logs alone, each now decided by the real daemons of every
// release it concerns.
var truthCases3 = []truthCase{
	// The profile plugins read acct_gather.conf, which the service does
	// not write: slurmctld of every release is fatal.
	{name: "profile influxdb without acct_gather.conf", config: "AcctGatherProfileType: acct_gather_profile/influxdb",
		rule: "plugin-needs-file", severity: diag.Error, refused: []string{"No ProfileInfluxDBHost in your acct_gather.conf file"}},
	{name: "profile hdf5 without acct_gather.conf", config: "AcctGatherProfileType: acct_gather_profile/hdf5",
		rule: "plugin-needs-file", severity: diag.Error, refused: []string{"ProfileHDF5Dir"}},
	// 24.11 and 26.05 refuse jobcomp/elasticsearch without a server; 22.05
	// starts without an error line, then posts each finished job's record
	// to the default JobCompLoc, a file path, and keeps it for retries
	// (measured with srun and DebugFlags=Elasticsearch): an error still.
	{name: "jobcomp elasticsearch without JobCompLoc", config: "JobCompType: jobcomp/elasticsearch",
		rule: "plugin-needs-file", severity: diag.Error, only: []string{"24.11", "26.05"},
		refused: []string{"JobCompLoc parameter not configured"}},
	{name: "jobcomp elasticsearch without JobCompLoc", config: "JobCompType: jobcomp/elasticsearch",
		rule: "plugin-needs-file", severity: diag.Error, only: []string{"22.05"}, accounting: true},
	// slurmd (not slurmctld) reads the node's BMC; a VM has none.
	{name: "energy ipmi without a BMC", config: "AcctGatherEnergyType: acct_gather_energy/ipmi", standIn: "t-cpu-0",
		rule: "plugin-needs-file", severity: diag.Error, logged: []string{"ipmi_monitoring_sensor_readings_by_record_id: internal system error"}},
	{name: "energy xcc without a BMC", config: "AcctGatherEnergyType: acct_gather_energy/xcc", standIn: "t-cpu-0",
		rule: "plugin-needs-file", severity: diag.Error, logged: []string{"_init_ipmi_config: error on ipmi_ctx_find_inband"}},
	// The energy plugins that read hardware counters a Compute Engine VM
	// lacks: slurmd logs it (fidelity seed 20261205, then every catalog
	// value alone).
	{name: "energy rapl without MSR", config: "AcctGatherEnergyType: acct_gather_energy/rapl", standIn: "t-cpu-0",
		rule: "plugin-needs-file", severity: diag.Error, logged: []string{"MSR register problem (/dev/cpu/0/msr)"}},
	{name: "energy pm_counters off Cray", config: "AcctGatherEnergyType: acct_gather_energy/pm_counters", standIn: "t-cpu-0",
		rule: "plugin-needs-file", severity: diag.Error, logged: []string{"unable to open /sys/cray/pm_counters/energy"}},
	{name: "energy ibmaem off IBM", config: "AcctGatherEnergyType: acct_gather_energy/ibmaem", standIn: "t-cpu-0",
		rule: "plugin-needs-file", severity: diag.Error, logged: []string{"unable to open /sys/devices/platform/aem.0/energy1_input"}},
	// jobcomp/mysql connects at start (24.11+) and exits without a server.
	{name: "jobcomp mysql without JobCompHost", config: "JobCompType: jobcomp/mysql", only: []string{"24.11", "26.05"},
		rule: "plugin-needs-file", severity: diag.Error, refused: []string{"mysql_real_connect failed", "You haven't inited this storage yet"}},
	// 22.05's Cray and sensor plugins need files and tools a spec cannot supply.
	{name: "ext_sensors rrd without its conf", config: "ExtSensorsType: ext_sensors/rrd", only: []string{"22.05"},
		rule: "plugin-needs-file", severity: diag.Error, refused: []string{"ext_sensors: No ext_sensors file"}},
	{name: "job_container cncu off Cray", config: "JobContainerType: job_container/cncu", only: []string{"22.05"}, standIn: "t-cpu-0",
		rule: "plugin-needs-file", severity: diag.Error, logged: []string{"job_container_state file for job_container/cncu state recovery"}},
	{name: "node_features knl_cray off Cray", config: "NodeFeaturesPlugins: node_features/knl_cray", only: []string{"22.05"}, serviceLines: append([]string{"SuspendTime=600"}, powerSaving...),
		rule: "plugin-needs-file", severity: diag.Error, logged: []string{"something wrong with opening/reading knl_cray.conf"}},
	// select/cray_aries runs linear without OTHER_CONS_*: the service
	// default CR_Core_Memory is fatal (select.c).
	{name: "select cray_aries runs linear", config: "SelectType: select/cray_aries", only: []string{"22.05"},
		rule: "select-params-no-unit", severity: diag.Error, refused: []string{"Invalid SelectTypeParameters for select/cray_aries"}},
	// slurmdbd_agent.c takes discard or exit; anything else is fatal.
	{name: "max_dbd_msg_action not discard or exit", config: `SlurmctldParameters: "max_dbd_msg_action=1,cloud_dns"`, accounting: true,
		rule: "invalid-config-value", severity: diag.Error, refused: []string{"Unknown SlurmctldParameters option for max_dbd_msg_action '1'"}},
	// slurmd 24.11 passes SlurmdParameters to conmgr too: fatal outside 2..1024.
	{name: "SlurmdParameters conmgr_threads 1", config: `SlurmdParameters: "conmgr_threads=1"`, standIn: "t-cpu-0", refusedBy: "slurmd",
		only: []string{"24.11"}, rule: "invalid-config-value", severity: diag.Error, refused: []string{"Invalid thread count=1"}},
	// Runs as written and logs an error line at every start: a warning.
	{name: "enable_rpc_queue experimental", config: "SlurmctldParameters: enable_rpc_queue,cloud_dns", accounting: true,
		rule: "invalid-config-value", severity: diag.Warning, logged: []string{"enabled experimental rpc queuing system"}},
	// debug_str2flags logs the removed flag and sets none.
	{name: "DebugFlags Task removed", config: "DebugFlags: Task", rule: "invalid-config-value", severity: diag.Error,
		logged: []string{"DebugFlag Task has been removed, please use CPU_Bind"}},
	// task_cray_aries.c init: slurmd exits unless task/cgroup follows.
	{name: "TaskPlugin cray_aries without cgroup", config: "TaskPlugin: task/cray_aries", standIn: "t-cpu-0", refusedBy: "slurmd",
		only: []string{"22.05"}, rule: "invalid-config-value", severity: diag.Error,
		refused: []string{"task/cgroup must be used with, and listed after, task/cray in TaskPlugin"}},
	// From 26.05 either key loads auth/jwt in its daemon (slurmctld, or
	// slurmd: slurmctld then starts), which is fatal without
	// StateSaveLocation/jwt_hs256.key; before 26.05 the keys are unknown
	// and slurmctld refuses the file.
	{name: "SlurmctldHttpAuthParameters without a key", config: "SlurmctldHttpAuthParameters: disable_token_creation",
		rule: "http-auth-needs-jwt", severity: diag.Error, only: []string{"26.05"}, refused: []string{"auth/jwt: cannot stat", "jwt_hs256.key"}},
	{name: "SlurmdHttpAuthParameters without a key", config: "SlurmdHttpAuthParameters: disable_token_creation", standIn: "t-cpu-0", refusedBy: "slurmd",
		rule: "http-auth-needs-jwt", severity: diag.Error, only: []string{"26.05"}, refused: []string{"auth/jwt: cannot stat", "jwt_hs256.key"}},
	{name: "SlurmctldHttpAuthParameters before 26.05", config: "SlurmctldHttpAuthParameters: disable_token_creation",
		rule: "config-key-version", severity: diag.Error, only: []string{"22.05", "24.11"}, refused: []string{"unrecognized key: SlurmctldHttpAuthParameters"}},
	{name: "SlurmdHttpAuthParameters before 26.05", config: "SlurmdHttpAuthParameters: disable_token_creation",
		rule: "config-key-version", severity: diag.Error, only: []string{"22.05", "24.11"}, refused: []string{"unrecognized key: SlurmdHttpAuthParameters"}},
	// The defunct NoAddrCache (a warning from 23.11) must not hide
	// DisableIPv4 without EnableIPv6, fatal on every release.
	{name: "DisableIPv4 after a defunct token", config: `CommunicationParameters: "NoAddrCache,NoInAddrAny,DisableIPv4"`,
		rule: "invalid-config-value", severity: diag.Error, refused: []string{"Both IPv4 and IPv6 support disabled, cannot communicate"}},
	// mps and shard need a gres.conf with File= for the GPUs they share,
	// which the service does not write: slurmctld logs it for the CLOUD
	// GPU nodes at start (gres_c_s.c, _build_sharing_list). gpu alone logs
	// nothing (the negative control).
	{name: "GresTypes gpu mps", config: `GresTypes: "gpu,mps"`, pools: gpuPool, partitions: gpuPartitions,
		rule: "gres-sharing-unsupported", severity: diag.Error, logged: []string{`SHARING configuration lacks "File" specification`}},
	{name: "GresTypes gpu shard", config: `GresTypes: "gpu,shard"`, pools: gpuPool, partitions: gpuPartitions,
		rule: "gres-sharing-unsupported", severity: diag.Error, logged: []string{`SHARING configuration lacks "File" specification`}},
	{name: "GresTypes gpu", config: "GresTypes: gpu", pools: gpuPool, partitions: gpuPartitions, accounting: true},
}

// TestLintAgreesWithSlurmctld3 runs each of truthCases3 on real Slurm of
// every release, as TestLintAgreesWithSlurmctld runs truthCases.
func TestLintAgreesWithSlurmctld3(t *testing.T) {
	runTruthCases(t, truthCases3)
}
