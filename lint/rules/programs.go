package rules

import (
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// Programs, plugins and exit codes that slurmctld looks up when it starts:
// values a spec can name but the service's controller cannot provide.

// programKeys are the global keys that name a program the daemons or the
// client commands run.
var programKeys = []string{
	"PrologSlurmctld", "EpilogSlurmctld", "SlurmctldPrimaryOnProg", "SlurmctldPrimaryOffProg", "MailProg",
	"ResumeFailProgram", "RebootProgram", "HealthCheckProgram", "UnkillableStepProgram",
	"TaskProlog", "TaskEpilog", "SrunProlog", "SrunEpilog", "ResvProlog", "ResvEpilog",
}

// controllerProgramKeys are the program keys slurmctld itself runs, on
// the controller: the service's machine, whose file system a spec does not
// reach (nodePools[].nodeImage and the /home file system reach the nodes).
var controllerProgramKeys = []string{
	"PrologSlurmctld", "EpilogSlurmctld", "SlurmctldPrimaryOnProg", "SlurmctldPrimaryOffProg", "MailProg",
	"ResumeFailProgram", "ResvProlog", "ResvEpilog",
}

// systemDirs hold the programs a Slurm controller's operating system ships
// (mail, true, logger): a program there may be on the service's image.
var systemDirs = []string{"/bin/", "/sbin/", "/usr/bin/", "/usr/sbin/", "/usr/lib/", "/usr/libexec/"}

// inSystemDir reports whether a program path is in one of systemDirs.
func inSystemDir(p string) bool {
	c := path.Clean(p)
	return slices.ContainsFunc(systemDirs, func(d string) bool { return strings.HasPrefix(c, d) })
}

// jobcompScript reports whether a JobCompType value is jobcomp/script,
// whose JobCompLoc names the program slurmctld runs for each finished job
// (jobcomp_script.c stats it at start).
func jobcompScript(v string) bool {
	return strings.EqualFold(strings.TrimPrefix(strings.ToLower(strings.TrimSpace(v)), "jobcomp/"), "script")
}

// serviceConfDir is where the service writes slurm.conf and its companions;
// nothing a spec supplies is placed there.
const serviceConfDir = "/etc/slurm"

// ProgramPath reports program keys whose value cannot name a program on
// the cluster: a relative path, or a path in the service's configuration
// directory.
var ProgramPath = &lint.Rule{
	ID:       "program-path",
	Severity: diag.Error,
	Summary:  "A program key (PrologSlurmctld, MailProg, HealthCheckProgram, JobCompLoc of jobcomp/script, ...) is not an absolute path outside /etc/slurm",
	Doc: doc("Keys such as PrologSlurmctld, EpilogSlurmctld, SlurmctldPrimaryOnProg, MailProg, HealthCheckProgram, "+
		"TaskProlog or SrunEpilog name a program by its absolute path. A relative path names nothing Slurm can "+
		"run: slurmctld 22.05 logs \"Invalid PrologSlurmctld(`...`): No such file or directory\", 26.05 exits "+
		"(\"failed to initialize prep plugin\"). /etc/slurm is written by the service (slurm.conf, the rendered "+
		"prolog and epilog scripts), so a program there cannot come from the spec either. Put programs in the "+
		"node image or on the /home file system. The programs slurmctld itself runs (PrologSlurmctld, "+
		"EpilogSlurmctld, MailProg, ResumeFailProgram, SlurmctldPrimaryOnProg/OffProg, ResvProlog, ResvEpilog, "+
		"and JobCompLoc with JobCompType=jobcomp/script, the script slurmctld stats at start: 22.05 logs "+
		"\"jobcomp/script: failed to stat\" and runs nothing, 24.11 and 26.05 exit) run on the controller, the "+
		"service's own machine, which neither reaches: only a program of the operating system (/bin, /sbin, "+
		"/usr/bin, /usr/sbin, /usr/lib, /usr/libexec) can be there. jobcomp/filetxt opens its JobCompLoc on the "+
		"controller at start and exits when its directory is missing, so that file must be in /var/log/slurm, "+
		"the service's log directory.",
		`config: {PrologSlurmctld: prolog.sh}`,
		`config: {TaskProlog: /home/admin/bin/prolog.sh, MailProg: /usr/bin/mail}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		keys, onController := programKeys, controllerProgramKeys
		if jobcompScript(e.val("JobCompType")) {
			keys = append(slices.Clone(keys), "JobCompLoc")
			onController = append(slices.Clone(onController), "JobCompLoc")
		}
		for _, key := range keys {
			kv := e.user(key)
			if kv == nil {
				continue
			}
			v := kv.Value.Value
			switch {
			case !strings.HasPrefix(v, "/"):
				reportValue(p, kv, "write the program's absolute path",
					"%s=%s is not an absolute path: Slurm cannot find the program", key, v)
			case path.Clean(v) == serviceConfDir || strings.HasPrefix(path.Clean(v), serviceConfDir+"/"):
				reportValue(p, kv, "put the program in the node image or under /home",
					"%s=%s is in %s, which the service writes: the program cannot come from the spec", key, v, serviceConfDir)
			case slices.Contains(onController, key) && !inSystemDir(v):
				reportValue(p, kv, "remove it, or use a program the controller's image has (/usr/bin, /usr/sbin)",
					"%s=%s runs on the controller, which the service runs from its own image: a spec can put programs in node images and on /home, not there, so slurmctld cannot run it", key, v)
			}
		}
		if kv := e.user("JobCompLoc"); kv != nil && strings.EqualFold(e.val("JobCompType"), "jobcomp/filetxt") && !inDir(kv.Value.Value, serviceLogDir) {
			reportValue(p, kv, "name a file in "+serviceLogDir+", such as "+serviceLogDir+"/jobcomp.log",
				"JobCompLoc=%s: jobcomp/filetxt opens this file on the controller when slurmctld starts, and the service's controller has only %s of the directories a spec could name: slurmctld exits (\"open ...: No such file or directory\")", kv.Value.Value, serviceLogDir)
		}
	},
}

// serviceLogDir is the directory of the service's Slurm logs on the
// controller (SlurmctldLogFile is reserved there): the one directory a
// file slurmctld writes at a spec's request can be in.
const serviceLogDir = "/var/log/slurm"

// inDir reports whether the absolute path p is inside dir.
func inDir(p, dir string) bool {
	return strings.HasPrefix(p, "/") && strings.HasPrefix(path.Clean(p), dir+"/")
}

// SlurmctldPlugstack reports SlurmctldPlugstack, whose plugins the
// service's controller cannot load.
var SlurmctldPlugstack = &lint.Rule{
	ID:       "slurmctld-plugstack",
	Severity: diag.Error,
	Summary:  "SlurmctldPlugstack names slurmctld plugins the service's controller does not have",
	Doc: doc("SlurmctldPlugstack loads slurmctld/NAME plugins from PluginDir; slurmctld exits when one is missing "+
		"(\"cannot find slurmctld_plugstack plugin\", \"failed to initialize slurmctld_plugstack\"). Debian's "+
		"Slurm packages ship only slurmctld/nonstop, in 22.05, and it exits without a nonstop.conf next to "+
		"slurm.conf, which the service does not write.",
		"# --slurm-version 22.05\nconfig: {SlurmctldPlugstack: nonstop}",
		"# --slurm-version 22.05\nconfig: {}"),
	Check: func(p *lint.Pass) {
		e := effective(p)
		kv := e.user("SlurmctldPlugstack")
		if kv == nil || e.v >= catalog.V2302 {
			return // config-key-version reports the key after 22.05
		}
		reportValue(p, kv, "remove SlurmctldPlugstack",
			"SlurmctldPlugstack=%s: the service's controller has no such plugin (and nonstop needs a nonstop.conf): slurmctld exits", kv.Value.Value)
	},
}

// maxExitVal is job_mgr.c's MAX_EXIT_VAL, the largest exit code.
const maxExitVal = 255

// RequeueExitValues reports RequeueExit and RequeueExitHold values that are
// not lists of exit codes and ranges.
var RequeueExitValues = &lint.Rule{
	ID:       "requeue-exit-values",
	Severity: diag.Error,
	Summary:  "RequeueExit or RequeueExitHold is not a comma list of exit codes 0-255 and ranges N-M",
	Doc: doc("slurmctld reads RequeueExit and RequeueExitHold as a host-list style range of numbers "+
		"(job_mgr.c _make_requeue_array). Anything else is logged as an error and the whole value, or the "+
		"bad item, is ignored, so jobs with those exit codes are not requeued.",
		`config: {RequeueExit: "1,x"}`,
		`config: {RequeueExit: "1,3-5,142"}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		for _, key := range []string{"RequeueExit", "RequeueExitHold"} {
			kv := e.user(key)
			if kv == nil {
				continue
			}
			for _, item := range strings.Split(kv.Value.Value, ",") {
				if msg := exitRangeProblem(item); msg != "" {
					reportValue(p, kv, "write exit codes 0-255 and ranges such as 3-5, separated by commas",
						"%s item %q %s: slurmctld logs an error and ignores it", key, item, msg)
				}
			}
		}
	},
}

// exitRangeProblem says what is wrong with one RequeueExit item, or "".
func exitRangeProblem(item string) string {
	lo, hi, isRange := strings.Cut(item, "-")
	if !isRange {
		hi = lo
	}
	a, err1 := strconv.ParseUint(lo, 10, 32)
	b, err2 := strconv.ParseUint(hi, 10, 32)
	switch {
	case err1 != nil || err2 != nil || lo == "" || hi == "" || strings.ContainsAny(item, "+ "):
		return "is not a number or a range N-M"
	case a > b:
		return fmt.Sprintf("is a range from %d down to %d", a, b)
	case b > maxExitVal:
		return fmt.Sprintf("is above %d, the largest exit code", maxExitVal)
	}
	return ""
}

// TopologyName reports node and partition Topology, which name topologies
// of a topology.yaml the service does not write.
var TopologyName = &lint.Rule{
	ID:       "topology-name",
	Severity: diag.Error,
	Summary:  "A nodeSets or partition config sets Topology, which needs a topology.yaml the service does not write",
	Doc: doc("Topology on a NodeName line places the nodes in a topology (tree switch or block) and on a "+
		"PartitionName line picks one; both name topologies defined in topology.yaml. The service writes no "+
		"topology.yaml, so the default topology/flat is the only one: slurmctld 26.05 exits on a node Topology "+
		"(\"Invalid node topology specified ...\", \"Requested topology configuration is not available\").",
		"nodeSets:\n- {nodePoolId: a4, config: {Topology: \"default:s1\"}}",
		"nodeSets:\n- {nodePoolId: a4, config: {Features: b200}}"),
	Check: func(p *lint.Pass) {
		for _, ns := range p.Cluster.Slurm.NodeSets {
			if kv := lookupKV(ns.Config, "Topology"); kv != nil {
				reportKey(p, kv, "remove Topology: the service's cluster has no topology.yaml",
					"nodeSets entry for %q sets Topology=%s, but the service writes no topology.yaml: slurmctld exits", ns.NodePoolID.Value, kv.Value.Value)
			}
		}
		for _, part := range p.Cluster.Slurm.Partitions {
			if kv := lookupKV(part.Config, "Topology"); kv != nil {
				reportKey(p, kv, "remove Topology: the service's cluster has no topology.yaml",
					"partition %q sets Topology=%s, but the service writes no topology.yaml, so there is no such topology", part.ID.Value, kv.Value.Value)
			}
		}
	},
}

// HTTPAuthNeedsJWT reports SlurmctldHttpAuthParameters and
// SlurmdHttpAuthParameters, which load auth/jwt.
var HTTPAuthNeedsJWT = &lint.Rule{
	ID:       "http-auth-needs-jwt",
	Severity: diag.Error,
	Summary:  "SlurmctldHttpAuthParameters or SlurmdHttpAuthParameters loads auth/jwt, which needs a signing key a spec cannot supply",
	Doc: doc("From 26.05 any SlurmctldHttpAuthParameters (SlurmdHttpAuthParameters for slurmd) makes the daemon load "+
		"every http_auth plugin and auth/jwt (interfaces/http_auth.c). auth/jwt reads its key at start, "+
		"jwt_hs256.key in StateSaveLocation unless AuthAltParameters names jwt_key=; the service writes no such "+
		"file and a spec cannot supply one, so the daemon exits (\"auth/jwt: cannot stat .../jwt_hs256.key\", "+
		"seen on slurmctld and slurmd 26.05). Debian also ships auth/jwt in its own package, slurm-wlm-jwt-plugin; "+
		"without it the daemon exits earlier (\"http authentication plugins failed to load\").",
		`config: {SlurmctldHttpAuthParameters: "disable_token_creation"}`,
		`config: {}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		if e.v < catalog.V2605 {
			return // config-key-version reports the keys before 26.05
		}
		for _, key := range []string{"SlurmctldHttpAuthParameters", "SlurmdHttpAuthParameters"} {
			if kv := e.user(key); kv != nil && kv.Value.Value != "" {
				reportKey(p, kv, "remove "+key+": a spec cannot supply the JWT signing key auth/jwt reads",
					"%s makes Slurm 26.05 load auth/jwt, which needs a signing key (jwt_hs256.key in StateSaveLocation) that a spec cannot supply: the daemon exits", key)
			}
		}
	},
}
