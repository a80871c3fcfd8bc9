// Package managed states which part of slurm.conf the service owns. It is
// the one list of reserved keys (a user who sets one gets an error saying
// why) and of the baseline the renderer writes before the user's config.
package managed

import (
	"sort"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/ir"
)

// Reason groups reserved keys by why they are reserved.
type Reason string

// Reasons a key is reserved.
const (
	Identity   Reason = "the service sets the cluster's identity and controller host"
	Auth       Reason = "the service sets up authentication (munge) between daemons"
	Accounting Reason = "accounting is always on; the service runs slurmdbd and owns its connection settings"
	Paths      Reason = "the service owns the daemons' state, spool, PID and log locations"
	Scripts    Reason = "set prologBashScripts / epilogBashScripts instead; the service installs them and points Prolog/Epilog at them"
	Lines      Reason = "nodes, node sets and partitions come from nodePools, nodeSets and partitions"
	Power      Reason = "the service provisions and releases nodes itself"
	Include    Reason = "including other files would bypass every check on the spec"
)

// Reserved lists every slurm.conf key the user may not set, with its reason.
var reserved = map[string]Reason{
	"ClusterName": Identity, "SlurmctldHost": Identity, "ControlMachine": Identity, "ControlAddr": Identity,
	"BackupController": Identity, "BackupAddr": Identity, "SlurmctldAddr": Identity,

	"AuthType": Auth, "AuthInfo": Auth, "AuthAltTypes": Auth, "AuthAltParameters": Auth, "CredType": Auth, "CryptoType": Auth,
	"JobCredentialPrivateKey": Auth, "JobCredentialPublicCertificate": Auth,

	"AccountingStorageType": Accounting, "AccountingStorageHost": Accounting, "AccountingStoragePort": Accounting,
	"AccountingStoragePass": Accounting, "AccountingStorageUser": Accounting, "AccountingStorageBackupHost": Accounting,
	"AccountingStorageExternalHost": Accounting, "AccountingStorageLoc": Accounting,

	"StateSaveLocation": Paths, "SlurmdSpoolDir": Paths, "SlurmctldPidFile": Paths, "SlurmdPidFile": Paths,
	"SlurmctldLogFile": Paths, "SlurmdLogFile": Paths, "PluginDir": Paths, "SlurmUser": Paths, "SlurmdUser": Paths,
	"SlurmctldPort": Paths, "SlurmdPort": Paths,

	"Prolog": Scripts, "Epilog": Scripts,

	"NodeName": Lines, "PartitionName": Lines, "NodeSet": Lines, "DownNodes": Lines, "FrontendName": Lines,

	"SuspendProgram": Power, "ResumeProgram": Power, "ResumeFailProgram": Power,

	"Include": Include,
}

// Key is a reserved key and why.
type Key struct {
	Name   string
	Reason Reason
}

// Reserved returns every reserved key, sorted by name.
func Reserved() []Key {
	out := make([]Key, 0, len(reserved))
	for k, r := range reserved {
		out = append(out, Key{k, r})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup reports whether name (compared case-insensitively, as Slurm does)
// is reserved.
func Lookup(name string) (Key, bool) {
	for k, r := range reserved {
		if strings.EqualFold(k, name) {
			return Key{k, r}, true
		}
	}
	return Key{}, false
}

// Setting is one Key=Value line of the baseline.
type Setting struct {
	Key, Value string
}

// Locations the service uses on every node.
const (
	PrologDir = "/etc/slurm/prolog.d"
	EpilogDir = "/etc/slurm/epilog.d"
)

// ControllerHost is the controller's host name for a cluster id.
func ControllerHost(clusterID string) string { return clusterID + "-controller" }

// NodeName is the Slurm node name of node i of a pool.
func NodeName(clusterID, poolID string, i int64) string {
	return clusterID + "-" + poolID + "-" + itoa(i)
}

func itoa(i int64) string {
	if i == 0 {
		return "0"
	}
	var b [20]byte
	n := len(b)
	neg := i < 0
	if neg {
		i = -i
	}
	for i > 0 {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
	}
	if neg {
		n--
		b[n] = '-'
	}
	return string(b[n:])
}

// ReservedSettings returns the reserved part of the baseline for a cluster.
func ReservedSettings(c *ir.Cluster) []Setting {
	host := ControllerHost(c.ID.Value)
	s := []Setting{
		{"ClusterName", c.ID.Value},
		{"SlurmctldHost", host},
		{"AuthType", "auth/munge"},
		{"CredType", "cred/munge"},
		{"SlurmUser", "slurm"},
		{"SlurmctldPort", "6817"},
		{"SlurmdPort", "6818"},
		{"StateSaveLocation", "/var/spool/slurmctld"},
		{"SlurmdSpoolDir", "/var/spool/slurmd"},
		{"SlurmctldPidFile", "/var/run/slurmctld.pid"},
		{"SlurmdPidFile", "/var/run/slurmd.pid"},
		{"SlurmctldLogFile", "/var/log/slurm/slurmctld.log"},
		{"SlurmdLogFile", "/var/log/slurm/slurmd.log"},
		{"AccountingStorageType", "accounting_storage/slurmdbd"},
		{"AccountingStorageHost", host},
		{"AccountingStoragePort", "6819"},
	}
	if len(c.Slurm.Prolog) > 0 {
		s = append(s, Setting{"Prolog", PrologDir + "/*"})
	}
	if len(c.Slurm.Epilog) > 0 {
		s = append(s, Setting{"Epilog", EpilogDir + "/*"})
	}
	return s
}

// DefaultSettings returns the baseline keys the user may override through
// slurmSpec.config: each is written only when the user's config lacks it.
func DefaultSettings(c *ir.Cluster) []Setting {
	s := []Setting{
		{"SelectType", "select/cons_tres"},
		{"SelectTypeParameters", "CR_Core_Memory"},
		{"ProctrackType", "proctrack/cgroup"},
		{"TaskPlugin", "task/cgroup,task/affinity"},
		{"JobAcctGatherType", "jobacct_gather/cgroup"},
		{"ReturnToService", "2"},
	}
	for _, p := range c.ComputePools() {
		if p.Machine != nil && p.Machine.HasGPU() {
			s = append(s, Setting{"GresTypes", "gpu"})
			break
		}
	}
	for _, p := range c.ComputePools() {
		if p.MinNodeCount.Value < p.MaxNodeCount.Value {
			// Nodes that may be powered down have no DNS entry while down.
			s = append(s, Setting{"SlurmctldParameters", "cloud_dns"})
			break
		}
	}
	return s
}
