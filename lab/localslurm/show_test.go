package localslurm

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseOneLiners(t *testing.T) {
	out := "NodeName=seed-a4-0 Arch=x86_64 Gres=gpu:b200:8 OS=Linux 6.1.0 #1 SMP State=IDLE+CLOUD AllocTRES= " +
		"CfgTRES=cpu=224,mem=3851.50G Reason=Low RealMemory (reported:1 < 90.00%) [root@2026]\n" +
		"NodeName=seed-a4-1 State=IDLE+CLOUD+NOT_RESPONDING\n"
	got := parseOneLiners(out)
	want := []Fields{
		{
			"NodeName": "seed-a4-0", "Arch": "x86_64", "Gres": "gpu:b200:8", "OS": "Linux 6.1.0 #1 SMP",
			"State": "IDLE+CLOUD", "AllocTRES": "", "CfgTRES": "cpu=224,mem=3851.50G",
			"Reason": "Low RealMemory (reported:1 < 90.00%) [root@2026]",
		},
		{"NodeName": "seed-a4-1", "State": "IDLE+CLOUD+NOT_RESPONDING"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parseOneLiners (-want +got):\n%s", diff)
	}
	if got := parseOneLiners("No nodes in the system\n"); len(got) != 0 {
		t.Errorf("parseOneLiners(no nodes) = %v", got)
	}
}

func TestParseShowConfig(t *testing.T) {
	out := `Configuration data as of 2026-11-30T14:10:55
AccountingStorageEnforce = associations,limits,qos
ClusterName             = seed
PreemptExemptTime       = 00:10:00

Cgroup Support Configuration:
ClusterName             = other
Slurmctld(primary) at seed-controller is UP
`
	got := parseShowConfig(out)
	want := map[string]string{
		"AccountingStorageEnforce": "associations,limits,qos",
		"ClusterName":              "seed",
		"PreemptExemptTime":        "00:10:00",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parseShowConfig (-want +got):\n%s", diff)
	}
}

func TestErrorLines(t *testing.T) {
	out := strings.Join([]string{
		"slurmctld: slurmctld version 22.05.8 started on cluster seed",
		"slurmctld: error: Could not open node state file /w/state/node_state: No such file or directory",
		"slurmctld: error: NOTE: Trying backup state save file. Information may be lost!",
		"Dec 01 13:54:55.202960 19574 slurmctld    0x7ffb4d642740: error: NOTE: Trying backup partition state save file. Information may be lost!",
		"slurmctld: error: NOTE: Trying backup jobcomp state save file. Finished jobs may be lost!",
		"slurmctld: error: No fed_mgr state file (/w/state/fed_mgr_state) to recover",
		"slurmctld: error: No blade state file (/w/state/blade_state) to recover",
		"slurmctld: error: High latency for 1000 calls to gettimeofday(): 269 microseconds",
		"slurmctld: error: PreemptMode=SUSPEND requires GANG too",
		"slurmctld: fatal: Unable to process configuration file",
	}, "\n")
	want := []string{
		"slurmctld: error: PreemptMode=SUSPEND requires GANG too",
		"slurmctld: fatal: Unable to process configuration file",
	}
	if diff := cmp.Diff(want, errorLines([]byte(out), true)); diff != "" {
		t.Errorf("errorLines (-want +got):\n%s", diff)
	}
	if got := len(errorLines([]byte(out), false)); got != 9 {
		t.Errorf("unfiltered errorLines: got %d lines, want 9", got)
	}
}

func TestPrereqErrorMessages(t *testing.T) {
	e := &PrereqError{Missing: []Missing{
		{What: "slurmctld", Detail: "is not installed", Package: "slurmctld"},
		{What: "scontrol", Detail: "is not installed", Package: "slurm-client"},
		{What: "sinfo", Detail: "is not installed", Package: "slurm-client"},
	}}
	lines := strings.Split(e.Error(), "\n")
	if len(lines) != 3 || lines[0] != "localslurm: slurmctld is not installed; install with: apt-get install -y slurmctld" {
		t.Errorf("Error() = %q", e.Error())
	}
	s := e.Summary()
	if strings.Contains(s, "\n") || !strings.Contains(s, "apt-get install -y slurmctld slurm-client ") {
		t.Errorf("Summary() = %q", s)
	}
}
