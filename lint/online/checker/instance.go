package checker

// The checks of one Filestore instance against the spec: state,
// location, network, and for /home capacity, tier and protocol.

import (
	"fmt"
	"strings"

	"cloud.google.com/go/filestore/apiv1/filestorepb"
	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/lint/online"
)

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
