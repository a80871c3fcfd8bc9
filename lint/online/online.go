// Package online describes slurmspec's online checks: rules that read the
// Filestore instances a spec names (homeDirectoryStorage and every
// nodePools[].filestores[] entry) from the Filestore API and compare them
// with the spec, and the ids of `slurmspec verify`, which reads the
// deployed cluster through the service's Slurm Job API (verify.go).
//
// This package holds only what the offline command line needs: the rules'
// metadata (Entries, for `slurmspec explain`, `slurmspec rules` and
// --disable), the defaults, and the classification of online failures
// (Error). It does not import gRPC or the Filestore client, so the main
// binary can link it at no start-up cost. The checker itself lives in
// lint/online/checker and runs in the separate slurmspec-online binary
// (cmd/slurmspec-online), which lint/online/dispatch runs on --online.
// docs/online.md describes the design.
package online

import (
	"errors"
	"strings"
	"time"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/diag/ids"
)

// Defaults of the online check.
const (
	// DefaultTimeout bounds each call to the Filestore API, and setting up
	// the client (finding credentials).
	DefaultTimeout = 10 * time.Second
	// DefaultMinHomeCapacityGiB is the smallest /home instance that
	// filestore-capacity accepts: 1 TiB.
	DefaultMinHomeCapacityGiB = 1024
	// EnvEndpoint names the environment variable that points the checker at
	// a plaintext gRPC server without credentials. It is a testing hook for
	// a fake Filestore server (lint/online/checker/fakefilestore); never set it
	// against the real API.
	EnvEndpoint = "SLURMSPEC_FILESTORE_ENDPOINT"
	// HelperName is the name of the helper binary that runs the online
	// checks.
	HelperName = "slurmspec-online"
)

// Rule ids of the online checks.
const (
	RuleNotFound         = "filestore-not-found"
	RuleNotReady         = "filestore-not-ready"
	RuleLocationMismatch = "filestore-location-mismatch"
	RuleNetworkMismatch  = "filestore-network-mismatch"
	RuleTier             = "filestore-tier"
	RuleProtocol         = "filestore-protocol"
	RuleCapacity         = "filestore-capacity"
)

func doc(why, bad, good string) string {
	return why + "\n\nBad:\n\n```yaml\n" + strings.TrimSpace(bad) + "\n```\n\nGood:\n\n```yaml\n" + strings.TrimSpace(good) + "\n```\n"
}

const onlineNote = " This is an online rule: it runs only with `slurmspec lint --online`, which reads the instance " +
	"from the Filestore API (see docs/online.md)."

// NotFound reports a Filestore instance that does not exist.
var NotFound = ids.Entry{
	ID:       RuleNotFound,
	Stage:    ids.Online,
	Severity: diag.Error,
	Summary:  "A Filestore instance named in the spec does not exist",
	Doc: doc("The Filestore API answered NOT_FOUND for the instance: the cluster cannot be created, or "+
		"its nodes cannot mount /home or the pool's share. The name may have a typo, name another "+
		"location (an instance is found only under the zone or region it was created in), or the "+
		"instance was deleted."+onlineNote,
		"homeDirectoryStorage: projects/acme/locations/us-central1-a/instances/hmoe",
		"homeDirectoryStorage: projects/acme/locations/us-central1-a/instances/home"),
}

// NotReady reports a Filestore instance that is not in state READY.
var NotReady = ids.Entry{
	ID:       RuleNotReady,
	Stage:    ids.Online,
	Severity: diag.Error,
	Summary:  "A Filestore instance is not READY",
	Doc: doc("Only a READY instance serves files. DELETING, ERROR, SUSPENDED and SUSPENDING are errors: "+
		"the share is going away or unusable. CREATING, REPAIRING, RESTORING, RESUMING, REVERTING and "+
		"PROMOTING are warnings: they usually end in READY, but nodes that boot meanwhile fail to mount "+
		"the share. The message carries the instance's status message."+onlineNote,
		"# gcloud filestore instances describe home --location us-central1-a\nstate: SUSPENDED",
		"# gcloud filestore instances describe home --location us-central1-a\nstate: READY"),
}

// LocationMismatch reports an instance outside the cluster's region or
// its node pools' zones.
var LocationMismatch = ids.Entry{
	ID:       RuleLocationMismatch,
	Stage:    ids.Online,
	Severity: diag.Error,
	Summary:  "A Filestore instance is outside the cluster's region or its node pools' zones",
	Doc: doc("The location is the one the API reports for the instance. An instance in another region "+
		"than the cluster (or than a pool that mounts it) is an error: Filestore is reachable from its "+
		"own region only, and cross-region traffic is slow and billed. A zonal instance in another zone "+
		"of the same region is a warning: it works, but every file access crosses zones. "+
		"homeDirectoryStorage is checked against every pool, a pool's filestores against that pool. "+
		"The offline rule filestore-location reads the same location from the name; this rule confirms it "+
		"for an instance that exists."+onlineNote,
		"name: projects/acme/locations/us-central1/modelDevelopmentClusters/train\n"+
			"homeDirectoryStorage: projects/acme/locations/us-east1-b/instances/home",
		"name: projects/acme/locations/us-central1/modelDevelopmentClusters/train\n"+
			"homeDirectoryStorage: projects/acme/locations/us-central1-b/instances/home"),
}

// NetworkMismatch reports an instance attached to another VPC network than
// the cluster's.
var NetworkMismatch = ids.Entry{
	ID:       RuleNetworkMismatch,
	Stage:    ids.Online,
	Severity: diag.Error,
	Summary:  "A Filestore instance is on another VPC network than the cluster",
	Doc: doc("A Filestore instance has IP addresses on the VPC networks it is attached to only; nodes on "+
		"another network cannot mount it. The instance's networks[].network is compared with the spec's "+
		"network.network: a short name (ml-vpc) means that network in the instance's or the cluster's "+
		"project, a full name is projects/PROJECT/global/networks/NAME (a compute URL prefix is ignored). "+
		"When one side names the project by number and the other by id, only the network names are "+
		"compared."+onlineNote,
		"network: {network: projects/acme/global/networks/ml-vpc}\n"+
			"# gcloud filestore instances describe home ...\nnetworks: [{network: default}]",
		"network: {network: projects/acme/global/networks/ml-vpc}\n"+
			"# gcloud filestore instances describe home ...\nnetworks: [{network: ml-vpc}]"),
}

// Tier reports service tiers unsuitable for /home.
var Tier = ids.Entry{
	ID:       RuleTier,
	Stage:    ids.Online,
	Severity: diag.Warning,
	Summary:  "The /home Filestore instance is on a service tier unsuited to a cluster's home directories",
	Doc: doc("Every node mounts /home, and every job start reads from it at once on all its nodes (shell "+
		"start-up files, Python environments, job scripts), so /home needs many small random reads. "+
		"BASIC_HDD (and its old name STANDARD) is backed by hard disks: about 600 read IOPS up to 10 TiB "+
		"and 1,000 above, whatever the number of nodes, with no custom performance: a warning. BASIC_SSD "+
		"(old name PREMIUM) is fast enough but its performance is fixed, it can only grow (from 2.5 TiB) "+
		"and it has no snapshots: an info. "+
		"ZONAL (HIGH_SCALE_SSD is its old name), REGIONAL and ENTERPRISE are fine; ZONAL and REGIONAL are "+
		"the tiers Cluster Director itself creates for /home."+onlineNote,
		"# gcloud filestore instances describe home ...\ntier: BASIC_HDD",
		"# gcloud filestore instances describe home ...\ntier: ZONAL"),
}

// Protocol reports /home instances that serve NFSv4.1.
var Protocol = ids.Entry{
	ID:       RuleProtocol,
	Stage:    ids.Online,
	Severity: diag.Warning,
	Summary:  "The /home Filestore instance serves NFSv4.1, which the spec cannot ask the nodes to mount",
	Doc: doc("A Filestore instance serves one protocol, chosen when it is created: NFS_V3 (every tier, the "+
		"default) or NFS_V4_1 (ZONAL, REGIONAL and ENTERPRISE only). NFS_V3 is what slurmspec expects for "+
		"/home: it is the default when Cluster Director creates the /home instance itself, and the "+
		"ModelDevelopmentCluster spec has no setting that tells the nodes to mount an existing instance "+
		"with NFSv4.1. NFSv4.1 also brings what the nodes are not set up for: its access control is built "+
		"around Kerberos through Managed Microsoft AD and NFSv4 ACLs, while Slurm runs jobs as numeric "+
		"uids with no Kerberos tickets. So an NFS_V4_1 /home is a warning: check that the nodes mount it "+
		"(mount -t nfs -o vers=4.1), or use an NFS_V3 instance."+onlineNote,
		"# gcloud filestore instances describe home ...\nprotocol: NFS_V4_1",
		"# gcloud filestore instances describe home ...\nprotocol: NFS_V3"),
}

// Capacity reports a /home instance smaller than the configured minimum.
var Capacity = ids.Entry{
	ID:       RuleCapacity,
	Stage:    ids.Online,
	Severity: diag.Warning,
	Summary:  "The /home Filestore instance is smaller than the configured minimum",
	Doc: doc("Filestore's throughput and IOPS grow with capacity, and a full /home stops every user's "+
		"jobs at once. The Zonal and Regional tiers start at 100 GiB, which is small for a training "+
		"cluster's home directories (environments, checkpoints written by mistake, logs). The minimum is "+
		"1024 GiB unless --min-home-capacity-gib says otherwise; the capacity is the sum of the instance's "+
		"file shares, in GiB as the API reports it. Pool filestores are not checked: their size depends "+
		"on the data."+onlineNote,
		"# gcloud filestore instances describe home ...\nfileShares: [{name: home, capacityGb: 256}]",
		"# gcloud filestore instances describe home ...\nfileShares: [{name: home, capacityGb: 2560}]"),
}

// Entries returns the online rules' entries in the diagnostic catalog (of
// stage online), in the order their docs are listed. They are no lint
// rules: lint.Run never reports them, the online checker
// (lint/online/checker) does. lint/pipeline.Catalog joins them to the
// others for `explain`, `rules`, --disable and the SARIF rules.
func Entries() []ids.Entry {
	return []ids.Entry{NotFound, NotReady, LocationMismatch, NetworkMismatch, Tier, Protocol, Capacity}
}

// Kind classifies why an online check could not run.
type Kind int

// Kinds of online failures.
const (
	// KindOther is any failure not classified below.
	KindOther Kind = iota
	// KindNotInstalled: the slurmspec-online helper was not found.
	KindNotInstalled
	// KindUsage: the helper was given bad flags or an unreadable spec.
	KindUsage
	// KindNoCredentials: Application Default Credentials were not found or
	// could not be read.
	KindNoCredentials
	// KindUnauthenticated: the API rejected the credentials.
	KindUnauthenticated
	// KindPermissionDenied: the credentials may not read the instance.
	KindPermissionDenied
	// KindAPIDisabled: the Filestore API is not enabled in the project.
	KindAPIDisabled
	// KindQuota: a quota or rate limit was exhausted.
	KindQuota
	// KindNetwork: the API could not be reached.
	KindNetwork
	// KindTimeout: the API did not answer in time.
	KindTimeout
	// KindInternal: the helper crashed or printed something unexpected.
	KindInternal
)

var kindNames = [...]string{"error", "not-installed", "usage", "no-credentials", "unauthenticated",
	"permission-denied", "api-disabled", "quota", "network", "timeout", "internal"}

// String returns the kebab-case name of the kind, as used in the helper's
// JSON output.
func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return kindNames[KindOther]
}

// ParseKind is the inverse of Kind.String; unknown names give KindOther.
func ParseKind(s string) Kind {
	for i, n := range kindNames {
		if n == s {
			return Kind(i)
		}
	}
	return KindOther
}

// Error is an online check that could not run. Its message is one line,
// meant to be printed as is; the command line exits 2 on it.
type Error struct {
	Kind Kind
	// Msg is one line, without a final period.
	Msg string
	// Err is the underlying error, if any.
	Err error
}

// Error returns the one-line message.
func (e *Error) Error() string { return e.Msg }

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error of the given kind wrapping err (which may be
// nil), with the message squeezed onto one line.
func Errorf(kind Kind, err error, msg string) *Error {
	return &Error{Kind: kind, Msg: OneLine(msg), Err: err}
}

// KindOf returns the kind of the first *Error in err's chain, KindOther
// when there is none, and -1 for a nil error.
func KindOf(err error) Kind {
	if err == nil {
		return -1
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return KindOther
}

// OneLine joins the lines of s with "; " and trims it, so that a message
// from a server never spans lines.
func OneLine(s string) string {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' })
	for i := range fields {
		fields[i] = strings.TrimSpace(fields[i])
	}
	return strings.TrimSpace(strings.Join(fields, "; "))
}
