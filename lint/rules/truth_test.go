package rules_test

import (
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/lint/rules"
)

// truthCase is a spec whose lint result was checked against real slurmctld
// (lab/localslurm/realslurm, truth_test.go): the rule must report it with
// this severity and a message holding msg, or, when rule is "", the spec
// must lint without errors.
type truthCase struct {
	name     string
	version  string
	spec     spec
	rule     string
	severity diag.Severity
	msg      string
}

var truthCases = []truthCase{
	// Settings slurmctld logs as errors. The value written is not the one
	// used (reset, ignored, refused): an error. The value is used as
	// written: a warning (docs/fidelity.md, "Warnings slurmctld logs as
	// errors").
	{name: "MinJobAge=0 is raised to 2", version: "22.05", spec: spec{Config: `MinJobAge: "0"`},
		rule: "min-job-age", severity: diag.Error, msg: "uses 2"},
	{name: "TreeWidth=0 falls back to the default", version: "26.05", spec: spec{Config: `TreeWidth: "0"`},
		rule: "tree-width-zero", severity: diag.Error, msg: "uses the default"},
	{name: "HealthCheckTimeout=0 is reset", version: "26.05", spec: spec{Config: `HealthCheckTimeout: "0"`},
		rule: "health-check-timeout", severity: diag.Error, msg: "uses 60"},
	{name: "HealthCheckTimeout above the interval is kept", version: "26.05", spec: spec{Config: "HealthCheckProgram: /usr/sbin/nhc\nHealthCheckInterval: \"30\""},
		rule: "health-check-timeout", severity: diag.Warning, msg: "must be less than"},
	{name: "KeepAliveTime=UNLIMITED is ignored", version: "24.11", spec: spec{Config: `KeepAliveTime: UNLIMITED`},
		rule: "keepalive-time-conflict", severity: diag.Error, msg: "ignoring it"},
	{name: "KeepAliveTime and keepalivetime=", version: "24.11", spec: spec{Config: "KeepAliveTime: \"60\"\nCommunicationParameters: keepalivetime=30"},
		rule: "keepalive-time-conflict", severity: diag.Error, msg: "is ignored"},
	{name: "MaxNodeCount=UNLIMITED refused from 24.11", version: "26.05", spec: spec{Config: `MaxNodeCount: UNLIMITED`},
		rule: "max-node-count-select", severity: diag.Error, msg: "refuses"},
	{name: "MaxNodeCount=UNLIMITED aborts 22.05", version: "22.05", spec: spec{Config: `MaxNodeCount: UNLIMITED`},
		rule: "max-node-count-select", severity: diag.Error, msg: "aborts"},
	{name: "MaxJobId=UNLIMITED is reset", version: "22.05", spec: spec{Config: `MaxJobId: UNLIMITED`},
		rule: "job-id-range", severity: diag.Error, msg: "uses 67108863"},
	{name: "MessageTimeout=UNLIMITED is used", version: "22.05", spec: spec{Config: `MessageTimeout: UNLIMITED`},
		rule: "message-timeout", severity: diag.Warning, msg: "MessageTimeout=65535 is too high"},
	{name: "SchedulerTimeSlice=0 is reset", version: "24.11", spec: spec{Config: `SchedulerTimeSlice: "0"`},
		rule: "gang-time-slice", severity: diag.Error, msg: "uses 30"},
	{name: "SchedulerTimeSlice without GANG is unused", version: "24.11", spec: spec{Config: `SchedulerTimeSlice: "60"`},
		rule: "gang-time-slice", severity: diag.Warning, msg: "no effect"},
	{name: "nodeSets CPUs below the machine's", spec: spec{NodeSets: "- {nodePoolId: cpu, config: {CPUs: \"4\"}}"},
		rule: "rendered-key-override", severity: diag.Warning, msg: "already writes CPUs=8"},
	{name: "nodeSets CPUs above the machine's", spec: spec{NodeSets: "- {nodePoolId: cpu, config: {CPUs: \"632\"}}"},
		rule: "rendered-key-override", severity: diag.Error, msg: "Low CPUs"},
	{name: "nodeSets CPUs above the machine's, config_overrides", spec: spec{Config: "SlurmdParameters: config_overrides", NodeSets: "- {nodePoolId: cpu, config: {CPUs: \"632\"}}"},
		rule: "rendered-key-override", severity: diag.Warning, msg: "already writes CPUs=8"},
	// fidelity seed 20261211: slurmd finds 8 GPUs, the line configures 8192.
	{name: "nodeSets Gres above the machine's GPUs", spec: spec{Pools: cpuAndA4, NodeSets: "- {nodePoolId: a4, config: {Gres: \"gpu:8k\"}}"},
		rule: "rendered-key-override", severity: diag.Error, msg: "count reported lower than configured"},
	{name: "nodeSets Gres above the machine's GPUs, config_overrides", spec: spec{Pools: cpuAndA4, Config: "SlurmdParameters: config_overrides", NodeSets: "- {nodePoolId: a4, config: {Gres: \"gpu:b200:9\"}}"},
		rule: "rendered-key-override", severity: diag.Error, msg: "count reported lower than configured"},
	{name: "nodeSets Gres at the machine's GPUs", spec: spec{Pools: cpuAndA4, NodeSets: "- {nodePoolId: a4, config: {Gres: \"gpu:b200:8\"}}"},
		rule: "rendered-key-override", severity: diag.Warning, msg: "already writes Gres=gpu:b200:8"},
	// Whole tokens (realslurm truth13; related seed 20265005 case 29).
	{name: "HealthCheckNodeState ALLOC=-1", spec: spec{Config: "HealthCheckNodeState: ALLOC=-1"},
		rule: "invalid-config-value", severity: diag.Error, msg: "Slurm compares the whole token"},
	{name: "HealthCheckNodeState ALLOC,CYCLE", spec: spec{Config: "HealthCheckNodeState: \"ALLOC,CYCLE\""}},
	// Fewer GPUs than the machine's: the count slurmctld schedules (lab/jobmix
	// TestWideClasses, "nodeSets Gres below the machine's GPUs", "gpu:0").
	{name: "nodeSets Gres below the machine's GPUs", spec: spec{Pools: cpuAndA4, NodeSets: "- {nodePoolId: a4, config: {Gres: \"gpu:4\"}}"},
		rule: "rendered-key-override", severity: diag.Warning, msg: "schedules 4 of the 8 GPUs of a node of pool \"a4\", and a job asking for all 8 GPUs of a node is refused at submit"},
	{name: "nodeSets Gres of no GPU", spec: spec{Pools: cpuAndA4, NodeSets: "- {nodePoolId: a4, config: {Gres: \"gpu:b200:0\"}}"},
		rule: "rendered-key-override", severity: diag.Warning, msg: "schedules no GPU on a node of pool \"a4\", and every job asking for a GPU there is refused at submit"},
	{name: "AcctGatherInfinibandType is checked as AcctGatherInterconnectType", version: "24.11", spec: spec{Config: "AcctGatherInfinibandType: fidelity"},
		rule: "invalid-config-value", severity: diag.Error, msg: "unknown AcctGatherInterconnectType value"},
	{name: "AcctGatherProfileType is one plugin", version: "22.05", spec: spec{Config: "AcctGatherProfileType: acct_gather_profile/influxdb,acct_gather_profile/hdf5"},
		rule: "invalid-config-value", severity: diag.Error, msg: "single value"},
	{name: "route/topology needs topology/tree", version: "22.05", spec: spec{Config: "RoutePlugin: route/topology"},
		rule: "plugin-needs-file", severity: diag.Error, msg: "TopologyPlugin=topology/tree"},
	{name: "jobcomp/kafka needs JobCompLoc", version: "26.05", spec: spec{Config: "JobCompType: jobcomp/kafka"},
		rule: "plugin-needs-file", severity: diag.Error, msg: "librdkafka"},
	// jobcomp/elasticsearch without JobCompLoc: 24.11 and 26.05 exit
	// ("JobCompLoc parameter not configured"); 22.05 starts without an
	// error line and retries each record against the default JobCompLoc,
	// a file path, for ever (realslurm TestLintAgreesWithSlurmctld3).
	{name: "jobcomp/elasticsearch without JobCompLoc exits", version: "24.11", spec: spec{Config: "JobCompType: jobcomp/elasticsearch"},
		rule: "plugin-needs-file", severity: diag.Error, msg: "exits or logs errors"},
	{name: "jobcomp/elasticsearch without JobCompLoc is silent in 22.05", version: "22.05", spec: spec{Config: "JobCompType: jobcomp/elasticsearch"},
		rule: "plugin-needs-file", severity: diag.Error, msg: "slurmctld 22.05 starts without it and logs no error, but the plugin delivers nothing"},
	{name: "energy ipmi: slurmd logs errors", version: "26.05", spec: spec{Config: "AcctGatherEnergyType: acct_gather_energy/ipmi"},
		rule: "plugin-needs-file", severity: diag.Error, msg: "slurmctld or slurmd exits or logs errors"},
	{name: "MessageTimeout above 100 is used", version: "24.11", spec: spec{Config: `MessageTimeout: "120"`},
		rule: "message-timeout", severity: diag.Warning, msg: "too high"},
	{name: "MaxArraySize above 4000001 is used", version: "24.11", spec: spec{Config: `MaxArraySize: "4000002"`},
		rule: "max-array-size", severity: diag.Warning, msg: "logs an error"},
	// FastSchedule=1: slurmctld logs "Ignoring obsolete FastSchedule=1
	// option" and starts; 2 (and anything else) is fatal.
	{name: "FastSchedule=1 is ignored", version: "22.05", spec: spec{Config: `FastSchedule: "1"`},
		rule: "config-key-version", severity: diag.Warning, msg: "logs an error and ignores it"},
	{name: "FastSchedule=2 is fatal", version: "22.05", spec: spec{Config: `FastSchedule: "2"`},
		rule: "config-key-version", severity: diag.Error, msg: "accepted but fatal"},
	{name: "PrivateData=cloud ignored after 22.05", version: "23.02", spec: spec{Config: `PrivateData: "jobs,cloud"`},
		rule: "invalid-config-value", severity: diag.Warning, msg: "no effect in 23.02"},
	{name: "PrivateData=cloud in 22.05", version: "22.05", spec: spec{Config: `PrivateData: "jobs,cloud"`}},
	{name: "NoAddrCache live in 22.05", version: "22.05", spec: spec{Config: `CommunicationParameters: NoAddrCache`}},
	{name: "NoAddrCache defunct in 23.11", version: "23.11", spec: spec{Config: `CommunicationParameters: NoAddrCache`},
		rule: "invalid-config-value", severity: diag.Warning, msg: "defunct"},
	{name: "autobind without a unit", version: "22.05", spec: spec{Config: `TaskPluginParam: autobind`},
		rule: "invalid-config-value", severity: diag.Error, msg: "needs one of threads, cores, sockets, none"},
	{name: "autobind=cores", version: "22.05", spec: spec{Config: `TaskPluginParam: autobind=cores`}},
	{name: "partition QOS missing, qos enforced", spec: spec{Config: `AccountingStorageEnforce: "associations,limits,qos"`, Partitions: "- {id: debug, nodePoolIds: [cpu], config: {QOS: high}}"},
		rule: "partition-qos-unknown", severity: diag.Error, msg: "exits (\"has an invalid qos\")"},
	{name: "partition QOS missing, not enforced", version: "24.11", spec: spec{Partitions: "- {id: debug, nodePoolIds: [cpu], config: {QOS: high}}"},
		rule: "partition-qos-unknown", severity: diag.Warning, msg: "without it"},
	{name: "partition QOS missing, 26.05", version: "26.05", spec: spec{Partitions: "- {id: debug, nodePoolIds: [cpu], config: {QOS: high}}"},
		rule: "partition-qos-unknown", severity: diag.Error, msg: "slurmctld 26.05 exits"},
	{name: "AllowQos missing, 24.11", version: "24.11", spec: spec{Partitions: "- {id: debug, nodePoolIds: [cpu], config: {AllowQos: \"normal,low\"}}"},
		rule: "partition-qos-unknown", severity: diag.Warning, msg: "ignores it"},
	{name: "AllowQos missing, 26.05", version: "26.05", spec: spec{Partitions: "- {id: debug, nodePoolIds: [cpu], config: {AllowQos: \"normal,low\"}}"},
		rule: "partition-qos-unknown", severity: diag.Error, msg: "invalid AllowQos"},
	{name: "burst_buffer/none in 26.05", version: "26.05", spec: spec{Config: `BurstBufferType: burst_buffer/none`},
		rule: "invalid-config-value", severity: diag.Error, msg: "no burst_buffer/none plugin"},
	{name: "burst_buffer/none", version: "22.05", spec: spec{Config: `BurstBufferType: burst_buffer/none`},
		rule: "invalid-config-value", severity: diag.Error, msg: "no burst_buffer/none plugin"},
	{name: "hdf5 ships in its own package", version: "22.05", spec: spec{Config: `AcctGatherProfileType: acct_gather_profile/hdf5`},
		rule: "invalid-config-value", severity: diag.Warning, msg: "its own package, slurm-wlm-hdf5-plugin"},
	{name: "MpiDefault=openmpi is translated", version: "22.05", spec: spec{Config: `MpiDefault: openmpi`},
		rule: "invalid-config-value", severity: diag.Warning, msg: "obsolete"},
	{name: "pmix_v3 depends on the build", version: "22.05", spec: spec{Config: `MpiDefault: pmix_v3`},
		rule: "invalid-config-value", severity: diag.Warning, msg: "do not ship this plugin (mpi_pmix_v3.so)"},
}

// TestTruth checks the severities that real slurmctld decided.
func TestTruth(t *testing.T) {
	for _, c := range truthCases {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			text, _ := stripMarkers(c.spec.YAML())
			// Real slurmctld is Debian's: its plugins are the debian build's.
			c2 := compile(t, "spec.yaml", text)
			l := lint.Run(c2, rules.All(), lint.Config{Options: lint.Options{SlurmVersion: c.version, Build: "debian"}}).Sort()
			if c.rule == "" {
				for _, d := range l {
					if d.Severity == diag.Error {
						t.Errorf("want no errors, got %s [%s]", d, d.Rule)
					}
				}
				return
			}
			found := false
			for _, d := range l {
				if d.Rule == c.rule && d.Severity == c.severity && strings.Contains(d.Message, c.msg) {
					found = true
				}
			}
			if !found {
				t.Errorf("want %s %s containing %q, got:\n%s", c.severity, c.rule, c.msg, show(l, ""))
			}
		})
	}
}
