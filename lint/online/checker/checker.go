// Package checker runs slurmspec's online checks: it reads every Filestore
// instance a spec names (homeDirectoryStorage and nodePools[].filestores[])
// from the Filestore API with Application Default Credentials and reports
// the rules of package lint/online against the spec's positions.
//
// This package links gRPC and the Filestore client. Only the
// slurmspec-online helper (cmd/slurmspec-online) imports it; the main
// slurmspec binary reaches it through lint/online/dispatch.
package checker

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	filestore "cloud.google.com/go/filestore/apiv1"
	"cloud.google.com/go/filestore/apiv1/filestorepb"
	"github.com/googleapis/gax-go/v2"
	"github.com/googleapis/gax-go/v2/apierror"
	"google.golang.org/api/option"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"github.com/slurmspec/slurmspec/compiler"
	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/lint/online"
)

// Options configure Check.
type Options struct {
	// Timeout bounds each Filestore API call and the client's set-up
	// (finding credentials); 0 means online.DefaultTimeout.
	Timeout time.Duration
	// MinHomeCapacityGiB is the smallest /home instance filestore-capacity
	// accepts; 0 means online.DefaultMinHomeCapacityGiB, a negative value
	// turns the check off.
	MinHomeCapacityGiB int64
	// ClientOptions are passed to the Filestore client after the defaults,
	// for example an endpoint (see OptionsFromEnv).
	ClientOptions []option.ClientOption
	// Disabled holds rule ids not to report.
	Disabled map[string]bool
}

// OptionsFromEnv returns the default Options, pointed at a plaintext gRPC
// server without credentials when the environment variable
// SLURMSPEC_FILESTORE_ENDPOINT (online.EnvEndpoint) holds its address. The
// variable is a testing hook for the fake server in lint/online/
// fakefilestore; it is not meant for the real API.
func OptionsFromEnv() Options {
	var opt Options
	if ep := strings.TrimSpace(os.Getenv(online.EnvEndpoint)); ep != "" {
		opt.ClientOptions = []option.ClientOption{
			option.WithEndpoint(ep),
			option.WithoutAuthentication(),
			option.WithGRPCDialOption(grpc.WithTransportCredentials(insecure.NewCredentials())),
		}
	}
	return opt
}

func (o Options) withDefaults() Options {
	if o.Timeout <= 0 {
		o.Timeout = online.DefaultTimeout
	}
	if o.MinHomeCapacityGiB == 0 {
		o.MinHomeCapacityGiB = online.DefaultMinHomeCapacityGiB
	}
	return o
}

var (
	instanceRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^projects/([^/]+)/locations/([^/]+)/instances/([^/]+)$`)
	})
	placeholderRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Z][A-Z0-9_-]*$`) })
	zoneRe        = compiler.ZoneRegexp // the name formats are compiler's
	regionRe      = compiler.RegionRegexp
	numberRe      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]+$`) })
)

// use is one place in the spec that names an instance.
type use struct {
	s    ir.Str
	pool *ir.NodePool // nil for homeDirectoryStorage
}

// target is one distinct instance and every place that names it.
type target struct {
	name, project, location, id string
	uses                        []use
}

// targets lists the instances to read, homeDirectoryStorage first, skipping
// values that are not full instance names or hold placeholders (offline
// rules report those).
func targets(c *ir.Cluster) []*target {
	var out []*target
	byName := map[string]*target{}
	add := func(s ir.Str, pool *ir.NodePool) {
		m := instanceRe().FindStringSubmatch(s.Value)
		if !s.Set || m == nil {
			return
		}
		for _, seg := range m[1:] {
			if placeholderRe().MatchString(seg) {
				return
			}
		}
		t := byName[s.Value]
		if t == nil {
			t = &target{name: s.Value, project: m[1], location: m[2], id: m[3]}
			byName[s.Value] = t
			out = append(out, t)
		}
		t.uses = append(t.uses, use{s: s, pool: pool})
	}
	add(c.Slurm.HomeDirectoryStorage, nil)
	for _, p := range c.NodePools {
		for _, f := range p.Filestores {
			add(f, p)
		}
	}
	return out
}

// Check reads every Filestore instance the cluster names and reports the
// online rules. It returns an *online.Error when the API cannot be used at
// all (no credentials, no network, permission denied, quota, timeout); a
// missing instance is a filestore-not-found diagnostic, not an error. A
// spec that names no instance needs no credentials and makes no call.
func Check(ctx context.Context, c *ir.Cluster, opt Options) (diag.List, error) {
	opt = opt.withDefaults()
	ts := targets(c)
	if len(ts) == 0 {
		return nil, nil
	}
	client, err := newClient(ctx, opt)
	if err != nil {
		return nil, err
	}
	defer func() { _ = client.Close() }()

	type fetched struct {
		inst *filestorepb.Instance
		err  error
	}
	results := make([]fetched, len(ts))
	var wg sync.WaitGroup
	for i, t := range ts {
		wg.Go(func() {
			cctx, cancel := context.WithTimeout(ctx, opt.Timeout)
			defer cancel()
			// No retries: each call gets one attempt within the timeout,
			// so that an unreachable API is reported as such.
			inst, err := client.GetInstance(cctx, &filestorepb.GetInstanceRequest{Name: t.name},
				gax.WithRetry(func() gax.Retryer { return nil }))
			results[i] = fetched{inst, err}
		})
	}
	wg.Wait()

	var l diag.List
	for i, t := range ts {
		r := results[i]
		switch {
		case r.err == nil:
			checkInstance(&l, c, t, r.inst, opt)
		case status.Code(r.err) == codes.NotFound:
			for _, u := range t.uses {
				l.Errorf(online.RuleNotFound, u.s.Pos, u.s.Path,
					fmt.Sprintf("check the name; `gcloud filestore instances list --project %s` lists the project's instances", t.project),
					"Filestore instance %q does not exist in project %s, location %s", t.id, t.project, t.location)
			}
		default:
			return nil, classify(r.err, t, opt.Timeout)
		}
	}
	var out diag.List
	for _, d := range l {
		if !opt.Disabled[d.Rule] {
			out = append(out, d)
		}
	}
	return out.Sort(), nil
}

// MaxCredentialsSize bounds a credentials file: a service account key is a
// few KiB.
const MaxCredentialsSize = 1 << 20

// credentialsFiles returns the files Application Default Credentials
// read: GOOGLE_APPLICATION_CREDENTIALS, then gcloud's well-known file.
func credentialsFiles() []string {
	var out []string
	if p := os.Getenv("GOOGLE_APPLICATION_CREDENTIALS"); p != "" {
		out = append(out, p)
	}
	dir := os.Getenv("CLOUDSDK_CONFIG")
	if dir == "" {
		if home, err := os.UserHomeDir(); err == nil {
			dir = filepath.Join(home, ".config", "gcloud")
		}
	}
	if dir != "" {
		out = append(out, filepath.Join(dir, "application_default_credentials.json"))
	}
	return out
}

// checkCredentialsFiles refuses a credentials file that is not a regular
// file of at most MaxCredentialsSize before the Google client reads it
// whole: a FIFO would hang the read and /dev/zero would exhaust memory.
func checkCredentialsFiles() *online.Error {
	for _, p := range credentialsFiles() {
		st, err := os.Stat(p)
		if err != nil {
			continue // missing: the client reports it in its own words
		}
		switch {
		case !st.Mode().IsRegular():
			return online.Errorf(online.KindNoCredentials, fs.ErrInvalid,
				fmt.Sprintf("the credentials file %s is not a regular file (%s): %s", p, st.Mode().Type(), adcHint))
		case st.Size() > MaxCredentialsSize:
			return online.Errorf(online.KindNoCredentials, fs.ErrInvalid,
				fmt.Sprintf("the credentials file %s is larger than %d KiB, which no credentials file is: %s", p, MaxCredentialsSize>>10, adcHint))
		}
	}
	return nil
}

// newClient creates the Filestore client within the timeout: finding
// Application Default Credentials may probe the metadata server.
func newClient(ctx context.Context, opt Options) (*filestore.CloudFilestoreManagerClient, error) {
	if err := checkCredentialsFiles(); err != nil {
		return nil, err
	}
	type result struct {
		c   *filestore.CloudFilestoreManagerClient
		err error
	}
	ch := make(chan result, 1)
	go func() {
		c, err := filestore.NewCloudFilestoreManagerClient(ctx, opt.ClientOptions...)
		ch <- result{c, err}
	}()
	timer := time.NewTimer(opt.Timeout)
	defer timer.Stop()
	select {
	case r := <-ch:
		if r.err != nil {
			return nil, classifySetup(r.err)
		}
		return r.c, nil
	case <-timer.C:
		go func() { // close the client if it ever arrives
			if r := <-ch; r.c != nil {
				_ = r.c.Close()
			}
		}()
		return nil, online.Errorf(online.KindTimeout, context.DeadlineExceeded, fmt.Sprintf(
			"setting up Google Cloud credentials took longer than %s: check the network, or run `gcloud auth application-default login`", opt.Timeout))
	case <-ctx.Done():
		return nil, online.Errorf(online.KindOther, ctx.Err(), "online check interrupted: "+ctx.Err().Error())
	}
}

const adcHint = "run `gcloud auth application-default login`, or set GOOGLE_APPLICATION_CREDENTIALS to a service account key file"

// classifySetup turns a client creation error into an *online.Error.
func classifySetup(err error) *online.Error {
	var pe *fs.PathError
	switch {
	case strings.Contains(err.Error(), "could not find default credentials"):
		return online.Errorf(online.KindNoCredentials, err, "no Google Cloud credentials found: "+adcHint)
	case errors.As(err, &pe), strings.Contains(strings.ToLower(err.Error()), "credentials"):
		return online.Errorf(online.KindNoCredentials, err, "cannot load Google Cloud credentials ("+err.Error()+"): "+adcHint)
	}
	return online.Errorf(online.KindOther, err, "cannot create the Filestore client: "+err.Error())
}

// classify turns a GetInstance error into an *online.Error with one line
// that says what happened and what to do.
func classify(err error, t *target, timeout time.Duration) *online.Error {
	code := status.Code(err)
	msg := err.Error()
	if st, ok := status.FromError(err); ok {
		msg = st.Message()
	}
	msg = online.OneLine(msg)
	reading := fmt.Sprintf("reading Filestore instance %s", t.name)
	switch {
	case errors.Is(err, context.DeadlineExceeded) || code == codes.DeadlineExceeded:
		return online.Errorf(online.KindTimeout, err, fmt.Sprintf(
			"the Filestore API did not answer within %s (%s): check the network, or raise the timeout (--online-timeout)", timeout, reading))
	case errors.Is(err, context.Canceled) || code == codes.Canceled:
		return online.Errorf(online.KindOther, err, "online check interrupted ("+reading+")")
	case strings.Contains(msg, "could not find default credentials"):
		return online.Errorf(online.KindNoCredentials, err, "no Google Cloud credentials found: "+adcHint)
	case code == codes.Unauthenticated:
		return online.Errorf(online.KindUnauthenticated, err, fmt.Sprintf(
			"Google Cloud rejected the credentials (%s: %s): they may have expired; run `gcloud auth application-default login`", reading, msg))
	case code == codes.PermissionDenied && reason(err) == "SERVICE_DISABLED":
		return online.Errorf(online.KindAPIDisabled, err, fmt.Sprintf(
			"the Filestore API is not enabled in project %s (%s): run `gcloud services enable file.googleapis.com --project %s`", t.project, reading, t.project))
	case code == codes.PermissionDenied:
		return online.Errorf(online.KindPermissionDenied, err, fmt.Sprintf(
			"permission denied %s (%s): the credentials need file.instances.get on project %s, e.g. role roles/file.viewer", reading, msg, t.project))
	case code == codes.ResourceExhausted:
		return online.Errorf(online.KindQuota, err, fmt.Sprintf(
			"Filestore API quota exhausted %s (%s): retry later, or raise the quota of file.googleapis.com for the credentials' quota project", reading, msg))
	case code == codes.Unavailable:
		return online.Errorf(online.KindNetwork, err, fmt.Sprintf(
			"cannot reach the Filestore API %s (%s): check the network connection", reading, msg))
	}
	return online.Errorf(online.KindOther, err, fmt.Sprintf("%s: %s: %s", reading, code, msg))
}

// reason returns the ErrorInfo reason of an API error, or "".
func reason(err error) string {
	if ae, ok := apierror.FromError(err); ok {
		return ae.Reason()
	}
	return ""
}

// regionOf returns the region of a zone, the location itself when it is a
// region, and "" otherwise.
func regionOf(loc string) string {
	if m := zoneRe().FindStringSubmatch(loc); m != nil {
		return m[1]
	}
	if regionRe().MatchString(loc) {
		return loc
	}
	return ""
}

// checkInstance reports the rules on one instance that exists.
func checkInstance(l *diag.List, c *ir.Cluster, t *target, inst *filestorepb.Instance, opt Options) {
	loc := t.location
	if m := instanceRe().FindStringSubmatch(inst.GetName()); m != nil {
		loc = m[2] // the location the API reports
	}
	for _, u := range t.uses {
		if !readyCheck(l, t, inst, u) {
			continue
		}
		locationCheck(l, c, t, loc, u)
		networkCheck(l, c, t, inst, u)
		if u.pool == nil {
			homeChecks(l, t, inst, u, opt)
		}
	}
}

// readyCheck reports an instance that is not READY; it returns false when
// the instance is going away or broken, so that nothing else is reported.
func readyCheck(l *diag.List, t *target, inst *filestorepb.Instance, u use) bool {
	st := inst.GetState()
	if st == filestorepb.Instance_READY {
		return true
	}
	detail := ""
	if m := online.OneLine(inst.GetStatusMessage()); m != "" {
		detail = ": " + m
	}
	if rs := inst.GetSuspensionReasons(); len(rs) > 0 {
		var names []string
		for _, r := range rs {
			names = append(names, r.String())
		}
		detail += " (suspended for " + strings.Join(names, ", ") + ")"
	}
	switch st {
	case filestorepb.Instance_DELETING, filestorepb.Instance_ERROR, filestorepb.Instance_SUSPENDED, filestorepb.Instance_SUSPENDING:
		l.Errorf(online.RuleNotReady, u.s.Pos, u.s.Path, "use an instance in state READY, or repair or resume this one",
			"Filestore instance %q is %s, not READY%s", t.id, st, detail)
		return false
	}
	l.Warnf(online.RuleNotReady, u.s.Pos, u.s.Path, "wait until the instance is READY before creating the cluster",
		"Filestore instance %q is %s, not READY yet%s", t.id, st, detail)
	return true
}

func locationCheck(l *diag.List, c *ir.Cluster, t *target, loc string, u use) {
	region := regionOf(loc)
	if region == "" {
		return
	}
	if cr := c.Region.Value; regionRe().MatchString(cr) && cr != region {
		l.Add(diag.Diagnostic{Rule: online.RuleLocationMismatch, Severity: diag.Error, Pos: u.s.Pos, Path: u.s.Path,
			Message: fmt.Sprintf("Filestore instance %q is in %s, but the cluster is in region %s", t.id, loc, cr),
			Hint:    fmt.Sprintf("use a Filestore instance in %s", cr),
			Related: []diag.Related{{Pos: c.Region.Pos, Path: c.Region.Path, Message: "the cluster's region"}}})
		return
	}
	pools := c.NodePools
	if u.pool != nil {
		pools = []*ir.NodePool{u.pool}
	}
	seen := map[string]bool{}
	for _, p := range pools {
		zone := p.Zone.Value
		zr := regionOf(zone)
		if seen[zone] || zr == "" || !zoneRe().MatchString(zone) {
			continue
		}
		seen[zone] = true
		switch {
		case zr != region:
			l.Errorf(online.RuleLocationMismatch, u.s.Pos, u.s.Path, fmt.Sprintf("use a Filestore instance in %s (or zone %s)", zr, zone),
				"Filestore instance %q is in %s, but node pool %q is in zone %s (region %s)", t.id, loc, p.ID.Value, zone, zr)
		case zoneRe().MatchString(loc) && loc != zone:
			l.Warnf(online.RuleLocationMismatch, u.s.Pos, u.s.Path, fmt.Sprintf("put the instance in %s, or the pool in %s", zone, loc),
				"zonal Filestore instance %q is in %s, but node pool %q is in zone %s: every file access crosses zones", t.id, loc, p.ID.Value, zone)
		}
	}
}

// network is a VPC network name split into project and name; project is ""
// when unknown.
type network struct{ project, name string }

func (n network) String() string {
	if n.project == "" {
		return n.name
	}
	return "projects/" + n.project + "/global/networks/" + n.name
}

// parseNetwork reads "N", "projects/P/global/networks/N" or a compute URL
// ending in it; a short name belongs to defaultProject.
func parseNetwork(s, defaultProject string) network {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, "projects/"); i > 0 {
		s = s[i:]
	}
	parts := strings.Split(s, "/")
	if len(parts) == 5 && parts[0] == "projects" && parts[2] == "global" && parts[3] == "networks" {
		return network{project: parts[1], name: parts[4]}
	}
	return network{project: defaultProject, name: parts[len(parts)-1]}
}

// sameNetwork compares two networks; the projects are compared only when
// both are known and both are ids or both numbers.
func sameNetwork(a, b network) bool {
	if a.name != b.name {
		return false
	}
	if a.project == "" || b.project == "" || numberRe().MatchString(a.project) != numberRe().MatchString(b.project) {
		return true
	}
	return a.project == b.project
}

func networkCheck(l *diag.List, c *ir.Cluster, t *target, inst *filestorepb.Instance, u use) {
	if c.Network.Value == "" || len(inst.GetNetworks()) == 0 {
		return
	}
	want := parseNetwork(c.Network.Value, c.Project.Value)
	var got []string
	for _, n := range inst.GetNetworks() {
		have := parseNetwork(n.GetNetwork(), t.project)
		if sameNetwork(have, want) {
			return
		}
		got = append(got, have.String())
	}
	l.Add(diag.Diagnostic{Rule: online.RuleNetworkMismatch, Severity: diag.Error, Pos: u.s.Pos, Path: u.s.Path,
		Message: fmt.Sprintf("Filestore instance %q is on network %s, but the cluster's network is %s: the nodes cannot reach it",
			t.id, strings.Join(got, ", "), want),
		Hint:    fmt.Sprintf("use an instance on %s (an instance's network cannot be changed), or put the cluster on %s", want, got[0]),
		Related: []diag.Related{{Pos: c.Network.Pos, Path: c.Network.Path, Message: "the cluster's network"}}})
}

// homeChecks reports the rules that concern /home only: tier, protocol
// and capacity.
func homeChecks(l *diag.List, t *target, inst *filestorepb.Instance, u use, opt Options) {
	switch tier := inst.GetTier(); tier {
	case filestorepb.Instance_BASIC_HDD, filestorepb.Instance_STANDARD:
		l.Warnf(online.RuleTier, u.s.Pos, u.s.Path, "use a ZONAL or REGIONAL instance for /home",
			"the /home Filestore instance %q is on tier %s: hard disks with about 600 read IOPS for all the nodes' logins and job starts", t.id, tier)
	case filestorepb.Instance_BASIC_SSD, filestorepb.Instance_PREMIUM:
		l.Add(diag.Diagnostic{Rule: online.RuleTier, Severity: diag.Info, Pos: u.s.Pos, Path: u.s.Path,
			Hint:    "a ZONAL or REGIONAL instance scales performance and has snapshots",
			Message: fmt.Sprintf("the /home Filestore instance %q is on tier %s: fixed performance, grows only, no snapshots", t.id, tier)})
	}
	if inst.GetProtocol() == filestorepb.Instance_NFS_V4_1 {
		l.Warnf(online.RuleProtocol, u.s.Pos, u.s.Path, "use an NFS_V3 instance for /home, or check that the nodes mount it with vers=4.1",
			"the /home Filestore instance %q serves NFSv4.1 only; the spec cannot ask the nodes to mount NFSv4.1, and /home is expected on NFSv3", t.id)
	}
	var gib int64
	for _, fs := range inst.GetFileShares() {
		gib += fs.GetCapacityGb()
	}
	if opt.MinHomeCapacityGiB > 0 && gib > 0 && gib < opt.MinHomeCapacityGiB {
		l.Warnf(online.RuleCapacity, u.s.Pos, u.s.Path,
			fmt.Sprintf("grow the file share to at least %d GiB, or lower --min-home-capacity-gib", opt.MinHomeCapacityGiB),
			"the /home Filestore instance %q has %d GiB, less than the minimum of %d GiB", t.id, gib, opt.MinHomeCapacityGiB)
	}
}
