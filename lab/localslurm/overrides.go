package localslurm

import (
	"fmt"
	"net"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/hostlist"
	"github.com/slurmspec/slurmspec/render/slurmconf"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// layout is where this run puts everything the rendered file points
// elsewhere, and which optional parts of the cluster it starts.
type layout struct {
	workDir     string
	mungeSocket string
	ctldPort    int
	slurmdPort  int
	standInPort []int // one port for each stand-in after the first
	dbdPort     int
	restPort    int // slurmrestd's (Options.RestAPI)
	accounting  bool
	restAPI     bool
	standIns    []string
	// series is the Slurm release series that runs (24.11), zero when
	// unknown.
	series catalog.Series
}

// atLeast reports whether the layout's series is first or later; an
// unknown series counts as new.
func (l layout) atLeast(first catalog.Version) bool {
	return l.series.IsZero() || !l.series.Before(first.Series())
}

func (l layout) path(elem ...string) string {
	return filepath.Join(append([]string{l.workDir}, elem...)...)
}

// Reasons shared by several overrides.
const (
	reasonPort     = "free local port, so parallel runs and any Slurm already on this host do not collide"
	reasonLocation = "runtime location moved into the harness's work directory"
	reasonUser     = "daemons of the throwaway cluster run as root; the rendered user need not exist on this host"
	reasonMunge    = "the harness's own munged socket in the work directory"
	reasonCgroup   = "a local stand-in slurmd runs jobs, and the cgroup plugins fail once a job runs on these machines (cgroup controllers not usable from here)"
)

// applyOverrides changes the rendered configuration only where this host
// needs it, and records every change in c.overrides.
func applyOverrides(c *conf, l layout) error {
	if v, ok := c.get("SlurmUser"); ok && v != "root" && v != "0" {
		c.set("SlurmUser", "root", reasonUser)
	}
	if v, ok := c.get("SlurmdUser"); ok && v != "root" && v != "0" {
		c.set("SlurmdUser", "root", reasonUser)
	}
	c.set("SlurmctldPort", strconv.Itoa(l.ctldPort), reasonPort)
	c.set("SlurmdPort", strconv.Itoa(l.slurmdPort), reasonPort)
	c.set("StateSaveLocation", l.path("state"), reasonLocation)
	c.set("SlurmdSpoolDir", l.path("spool", "%n"), reasonLocation)
	c.set("SlurmctldPidFile", l.path("run", "slurmctld.pid"), reasonLocation)
	c.set("SlurmdPidFile", l.path("run", "slurmd-%n.pid"), reasonLocation)
	c.set("SlurmctldLogFile", l.path("log", "slurmctld.log"), reasonLocation)
	c.set("SlurmdLogFile", l.path("log", "slurmd-%n.log"), reasonLocation)
	if _, ok := c.get("SlurmSchedLogFile"); ok {
		c.set("SlurmSchedLogFile", l.path("log", "sched.log"), reasonLocation)
	}
	authInfo, _ := c.get("AuthInfo")
	c.set("AuthInfo", withOption(authInfo, "socket", l.mungeSocket), reasonMunge)

	storage, _ := c.get("AccountingStorageType")
	if l.accounting {
		if storage != "accounting_storage/slurmdbd" {
			return fmt.Errorf("accounting requested, but the rendered slurm.conf has AccountingStorageType=%q, not accounting_storage/slurmdbd", storage)
		}
		if host, ok := c.get("AccountingStorageHost"); ok {
			if ip := net.ParseIP(host); ip != nil && !ip.IsLoopback() {
				c.set("AccountingStorageHost", "127.0.0.1", "the rendered address is not on this host; the harness's slurmdbd listens on loopback")
			}
		}
		c.set("AccountingStoragePort", strconv.Itoa(l.dbdPort), reasonPort)
		c.set("AccountingStoragePass", l.mungeSocket, "slurmdbd authentication goes through "+reasonMunge)
	} else if storage == "accounting_storage/slurmdbd" {
		c.set("AccountingStorageType", "accounting_storage/none", "accounting not requested, so no slurmdbd runs; slurmctld refuses to start with slurmdbd unreachable")
		c.remove("AccountingStorageEnforce", "slurmctld refuses AccountingStorageEnforce without accounting storage")
	}

	if l.restAPI {
		restOverrides(c, l)
	}

	for _, key := range []string{"Prolog", "Epilog"} {
		v, ok := c.get(key)
		if !ok {
			continue
		}
		dirName := strings.ToLower(key) + ".d"
		parts := strings.Split(v, ",")
		changed := false
		for i, p := range parts {
			if filepath.Base(filepath.Dir(p)) == dirName {
				parts[i] = l.path(dirName, filepath.Base(p))
				changed = true
			}
		}
		if changed {
			c.set(key, strings.Join(parts, ","), "points at the rendered "+dirName+" copied into the work directory")
		}
	}

	if len(l.standIns) == 0 {
		return nil
	}
	if err := standInPorts(c, l); err != nil {
		return err
	}
	if v, ok := c.get("ProctrackType"); !ok || v == "proctrack/cgroup" {
		// PrologFlags=X11 with proctrack/linuxproc is fatal
		// (read_config.c), about the harness, not the spec: pgid then.
		stand := "proctrack/linuxproc"
		if flags, _ := c.get("PrologFlags"); slices.ContainsFunc(strings.Split(flags, ","), func(f string) bool { return strings.EqualFold(strings.TrimSpace(f), "X11") }) {
			stand = "proctrack/pgid"
		}
		c.set("ProctrackType", stand, reasonCgroup)
	}
	if v, ok := c.get("TaskPlugin"); ok {
		var kept []string
		cgroup := false
		for p := range strings.SplitSeq(v, ",") {
			if p != "task/cgroup" && p != "cgroup" {
				kept = append(kept, p)
			} else {
				cgroup = true
			}
		}
		reason := reasonCgroup
		if cgroup {
			// task/cray_aries exits unless task/cgroup follows it
			// (task_cray_aries.c init): about the harness, not the spec.
			before := len(kept)
			kept = slices.DeleteFunc(kept, func(p string) bool { return p == "task/cray_aries" || p == "cray_aries" })
			if len(kept) < before {
				reason += "; task/cray_aries goes with it (slurmd exits when task/cgroup does not follow it)"
			}
		}
		if !slices.ContainsFunc(kept, func(p string) bool { return p != "" }) {
			// Nothing but empty items left ("task/cgroup," leaves ""):
			// task/none takes the place of what went, and the spec's
			// empty items stay for slurmctld to judge ("task/none,";
			// "TaskPlugin=" alone is a parse error of the harness's
			// making: related seed 20265005 case 142).
			kept = append([]string{"task/none"}, kept...)
		}
		c.set("TaskPlugin", strings.Join(kept, ","), reason)
		// OOMKillStep (24.11+) and SlurmdSpecOverride (25.05+) are
		// task/cgroup's: with task/cgroup gone, slurmctld is fatal on
		// them, about the harness, not the spec.
		if params, ok := c.get("TaskPluginParam"); ok {
			var rest, dropped []string
			for p := range strings.SplitSeq(params, ",") {
				// Only where the release knows them: an older one refuses
				// the token itself, which is the spec's to answer for.
				if strings.EqualFold(p, "OOMKillStep") && l.atLeast(catalog.V2411) || strings.EqualFold(p, "SlurmdSpecOverride") && l.atLeast(catalog.V2505) {
					dropped = append(dropped, p)
				} else {
					rest = append(rest, p)
				}
			}
			why := strings.Join(dropped, " and ") + " needs task/cgroup, which the harness removes: " + reasonCgroup
			switch {
			case len(dropped) == 0:
			case len(rest) == 0:
				c.remove("TaskPluginParam", why)
			default:
				c.set("TaskPluginParam", strings.Join(rest, ","), why)
			}
		}
	}
	if v, ok := c.get("JobAcctGatherType"); ok && v == "jobacct_gather/cgroup" {
		c.set("JobAcctGatherType", "jobacct_gather/linux", reasonCgroup)
	}
	params, _ := c.get("SlurmdParameters")
	list := splitList(params)
	if !slices.Contains(list, "config_overrides") {
		list = append(list, "config_overrides")
		c.set("SlurmdParameters", strings.Join(list, ","), "the stand-in slurmd runs on a host far smaller than the rendered node; without this slurmctld marks it INVALID for low CPUs and RealMemory")
	}
	return nil
}

// standInPorts gives every stand-in after the first its own slurmd port:
// all stand-ins share this host, and slurmd cannot share a port. Slurm takes
// a per-node Port= on the NodeName line, one port for each node of the line
// in order; nodes that are not stand-ins keep SlurmdPort.
func standInPorts(c *conf, l layout) error {
	if len(l.standIns) < 2 {
		return nil
	}
	if len(l.standInPort) < len(l.standIns)-1 {
		return fmt.Errorf("%d stand-ins need %d extra ports, got %d", len(l.standIns), len(l.standIns)-1, len(l.standInPort))
	}
	portOf := map[string]int{l.standIns[0]: l.slurmdPort}
	for i, n := range l.standIns[1:] {
		portOf[n] = l.standInPort[i]
	}
	for i := range c.lines {
		line := &c.lines[i]
		if len(line.pairs) == 0 || !strings.EqualFold(line.firstKey(), "NodeName") || strings.EqualFold(line.pairs[0].value, "DEFAULT") {
			continue
		}
		names, err := hostlist.Expand(line.pairs[0].value, nil)
		if err != nil {
			return fmt.Errorf("NodeName=%s: %w", line.pairs[0].value, err)
		}
		ports := make([]string, len(names))
		hasStandIn := false
		for j, n := range names {
			p, ok := portOf[n]
			if !ok {
				p = l.slurmdPort
			} else {
				hasStandIn = true
			}
			ports[j] = strconv.Itoa(p)
		}
		if !hasStandIn {
			continue
		}
		value := strings.Join(ports, ",")
		rendered := line.setPair("Port", value)
		line.note = "localslurm override (rendered Port: " + rendered + "): several stand-in slurmd daemons share this host, so each needs its own port"
		c.overrides = append(c.overrides, Override{
			Key:      "NodeName=" + line.pairs[0].value + " Port",
			Rendered: rendered,
			Value:    value,
			Reason:   "several stand-in slurmd daemons share this host, so each needs its own port",
		})
	}
	return nil
}

// withOption sets opt=value in a comma-separated option list such as
// AuthInfo, keeping every other option.
func withOption(list, opt, value string) string {
	var out []string
	for _, item := range splitList(list) {
		if k, _, _ := strings.Cut(item, "="); !strings.EqualFold(k, opt) {
			out = append(out, item)
		}
	}
	return strings.Join(append(out, opt+"="+value), ",")
}

func splitList(s string) []string {
	var out []string
	for item := range strings.SplitSeq(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// hostNames returns every name the rendered cluster expects to resolve:
// controllers, nodes, node host names and addresses given as names, and the
// accounting host.
func hostNames(c *conf) ([]string, error) {
	names := c.controllerHosts()
	defs, err := c.nodes()
	if err != nil {
		return nil, err
	}
	for _, d := range defs {
		names = append(names, d.names...)
		names = append(names, d.hostname...)
		names = append(names, d.addr...)
	}
	if h, ok := c.get("AccountingStorageHost"); ok {
		names = append(names, h)
	}
	var out []string
	seen := map[string]bool{"localhost": true}
	for _, n := range names {
		if n == "" || seen[n] || net.ParseIP(n) != nil {
			continue
		}
		seen[n] = true
		out = append(out, n)
	}
	return out, nil
}

// gresConf builds gres.conf lines for the stand-in nodes. GPUs need device
// files (slurmd drops a file-less GPU), so each GPU gets one under devDir;
// other GRES get a plain Count. devices lists the files to create.
func gresConf(c *conf, standIns []string, devDir string) (lines, devices []string, err error) {
	defs, err := c.nodes()
	if err != nil {
		return nil, nil, err
	}
	gresOf := map[string]string{}
	for _, d := range defs {
		for _, n := range d.names {
			gresOf[n] = d.gres
		}
	}
	for _, node := range standIns {
		entries, err := slurmconf.ParseGres(gresOf[node])
		if err != nil {
			return nil, nil, fmt.Errorf("node %s: %w", node, err)
		}
		next := 0 // GPU device index on this node, across GPU types
		for _, e := range entries {
			line := "NodeName=" + node + " Name=" + e.Name
			if e.Type != "" {
				line += " Type=" + e.Type
			}
			count := int(min(e.Count, 1<<16)) // a stand-in has no more devices
			if e.Name == "gpu" && count > 0 {
				base := filepath.Join(devDir, node, "nvidia")
				for i := range count {
					devices = append(devices, base+strconv.Itoa(next+i))
				}
				if count == 1 {
					line += " File=" + base + strconv.Itoa(next)
				} else {
					line += fmt.Sprintf(" File=%s[%d-%d]", base, next, next+count-1)
				}
				next += count
			} else {
				line += " Count=" + strconv.FormatInt(e.Count, 10)
			}
			lines = append(lines, line)
		}
	}
	return lines, devices, nil
}
