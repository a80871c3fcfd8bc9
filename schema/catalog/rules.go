package catalog

import (
	"fmt"
	"strings"
)

// checkRules applies the rules between tokens of one value that Slurm's
// parsers enforce (data/constraints.md). It runs only when every token is
// known, and only for the global and partition keys named below.
func (c *checker) checkRules(value string) {
	toks := map[string]int{}
	var order, written []string
	for _, t := range strings.Split(value, ",") {
		t = strings.ToLower(strings.TrimSpace(t))
		if j := strings.IndexByte(t, '='); j >= 0 {
			t = t[:j]
		}
		if t == "" {
			continue
		}
		if toks[t] == 0 {
			order = append(order, t)
		}
		toks[t]++
		written = append(written, t)
	}
	has := func(names ...string) bool {
		for _, n := range names {
			if toks[n] > 0 {
				return true
			}
		}
		return false
	}
	count := func(names ...string) (n int, found []string) {
		for _, t := range order {
			for _, name := range names {
				if t == name {
					n++
					found = append(found, t)
				}
			}
		}
		return n, found
	}
	// times counts the tokens of names each time they are written: Slurm's
	// parsers that allow one token of a kind count as they read, so the
	// same one twice is two (CR_Core,CR_Core: "Bad SelectTypeParameter",
	// fatal; fidelity seed 20261219, 24.11).
	times := func(names ...string) (n int, found []string) {
		for _, t := range written {
			for _, name := range names {
				if t == name {
					n++
					found = append(found, t)
				}
			}
		}
		return n, found
	}
	p := c.p
	switch {
	case strings.EqualFold(p.Name, "PreemptMode"):
		// P1: one base mode, each one written counting (preempt_mode_num:
		// REQUEUE,REQUEUE is two); GANG excludes WITHIN and PRIORITY. P2:
		// a global SUSPEND needs GANG.
		if n, found := times("off", "cluster", "cancel", "requeue", "suspend", "on"); n > 1 {
			c.add(SeverityError, fmt.Sprintf("PreemptMode=%s has more than one base mode (%s)", value, strings.Join(found, ", ")),
				"use one of OFF, CANCEL, REQUEUE, SUSPEND, plus modifiers GANG, WITHIN, PRIORITY")
		}
		if has("gang") && has("within", "priority") {
			c.add(SeverityError, fmt.Sprintf("PreemptMode=%s combines GANG with WITHIN or PRIORITY", value), "")
		}
		if p.Scope == ScopeGlobal && has("suspend", "on") && !has("gang") {
			c.add(SeverityError, "PreemptMode=SUSPEND needs GANG at the global scope", "write SUSPEND,GANG")
		}
	case strings.EqualFold(p.Name, "SelectTypeParameters") && p.Scope == ScopeGlobal:
		// S1: at most one resource unit, each one written counting
		// (_parse_select_type_param's param_cnt); CR_ONE_TASK_PER_CORE
		// excludes CR_CPU*.
		units := []string{"cr_cpu", "cr_cpu_memory", "cr_core", "cr_core_memory", "cr_socket", "cr_socket_memory", "cr_memory"}
		if n, found := times(units...); n > 1 {
			c.add(SeverityError, fmt.Sprintf("SelectTypeParameters=%s has more than one resource unit (%s)", value, strings.Join(found, ", ")), "")
		}
		if has("cr_one_task_per_core") && has("cr_cpu", "cr_cpu_memory") {
			c.add(SeverityError, "SelectTypeParameters: CR_ONE_TASK_PER_CORE cannot be combined with CR_CPU*", "")
		}
	case strings.EqualFold(p.Name, "TaskPluginParam"):
		// T1: one binding unit; autobind at most once. The same unit twice
		// counts twice ("Bad TaskPluginParam: None" for None,None, fatal;
		// fidelity seed 20261216, 26.05).
		_, found := count("none", "sockets", "cores", "threads")
		if n := toks["none"] + toks["sockets"] + toks["cores"] + toks["threads"]; n > 1 {
			c.add(SeverityError, fmt.Sprintf("TaskPluginParam=%s has more than one binding unit (%s)", value, strings.Join(found, ", ")), "")
		}
		if toks["autobind"] > 1 {
			c.add(SeverityError, "TaskPluginParam: autobind= may appear only once", "")
		}
	case strings.EqualFold(p.Name, "PrologFlags"):
		// T6.
		// RunInJob and X11 imply Contain (read_config.c prolog_str2flags).
		if has("nohold") && has("contain", "x11", "runinjob") {
			c.add(SeverityError, "PrologFlags: NoHold cannot be combined with Contain, X11 or RunInJob, which implies Contain (fatal)", "")
		}
		if has("runinjob") && has("serial") {
			c.add(SeverityError, "PrologFlags: Serial is incompatible with RunInJob (slurmctld logs an error)", "")
		}
	case strings.EqualFold(p.Name, "TaskPlugin"):
		// task_cray_aries.c init (22.05-23.11): fatal unless "cgroup"
		// occurs in the value after "cray" (xstrstr on the whole value).
		// From 23.02 read_config.c sorts the list in reverse alphabetical
		// order first (_sort_task_plugin), so only the order of 22.05
		// matters.
		if has("task/cray_aries", "cray_aries") {
			cray, cg := strings.Index(value, "cray"), strings.Index(value, "cgroup")
			if cg < 0 || (c.v < V2302 && cg < cray) {
				c.add(SeverityError, fmt.Sprintf("TaskPlugin=%s: task/cray_aries needs task/cgroup listed after it; slurmd exits (\"task/cgroup must be used with, and listed after, task/cray in TaskPlugin\")", value),
					"write task/cray_aries,task/cgroup")
			}
		}
	case strings.EqualFold(p.Name, "LogTimeFormat"):
		// read_config.c tests the value with xstrcasestr, one time format
		// in an else-if chain, then (23.11-24.11) format_stderr: a second
		// time format is ignored.
		if n, found := count("iso8601_ms", "iso8601", "rfc5424_ms", "rfc5424", "rfc3339", "clock", "short", "thread_id"); n > 1 {
			c.add(SeverityError, fmt.Sprintf("LogTimeFormat=%s has more than one time format (%s); Slurm uses one and ignores the rest", value, strings.Join(found, ", ")), "keep one time format")
		}
	case strings.EqualFold(p.Name, "CommunicationParameters"):
		// C1.
		if has("disableipv4") && !has("enableipv6") {
			c.add(SeverityError, "CommunicationParameters: DisableIPv4 without EnableIPv6 is fatal", "add EnableIPv6")
		}
		c.keepaliveRules(value)
	case strings.EqualFold(p.Name, "LaunchParameters"):
		// C4.
		if has("enable_nss_slurm") && has("disable_send_gids") {
			c.add(SeverityError, "LaunchParameters: enable_nss_slurm and disable_send_gids exclude each other (fatal)", "")
		}
	case strings.EqualFold(p.Name, "JobAcctGatherParams"):
		// T13.
		if has("usepss") && has("noshared", "noshare") {
			c.add(SeverityError, "JobAcctGatherParams: UsePss and NoShared exclude each other (fatal)", "")
		}
	case strings.EqualFold(p.Name, "SlurmdParameters"):
		// T14.
		// slurmctld and slurmd log "... are mutually exclusive. Ignoring
		// numa_node_as_socket." and run without it: an error, as the
		// value written is not the one used (docs/fidelity.md).
		if has("l3cache_as_socket") && has("numa_node_as_socket") && c.v >= V2405 {
			c.add(SeverityError, "SlurmdParameters: l3cache_as_socket and numa_node_as_socket exclude each other; slurmctld and slurmd ignore numa_node_as_socket", "keep one of them")
		}
	case strings.EqualFold(p.Name, "CpuBind"):
		// slurm_resource_info.c xlate_cpu_bind_str: one binding type at
		// most; slurmctld logs "CpuBind=... is invalid, ignored" (24.11).
		// The same type twice counts twice (have_binding is already set:
		// "CpuBind='core,core' is invalid", fidelity seed 20261212).
		binding := []string{"no", "none", "socket", "sockets", "ldom", "ldoms", "core", "cores", "thread", "threads", "off"}
		_, found := count(binding...)
		n := 0
		for _, b := range binding {
			n += toks[b]
		}
		if n > 1 {
			c.add(SeverityError, fmt.Sprintf("CpuBind=%s has more than one binding type (%s); Slurm ignores the value", value, strings.Join(found, ", ")), "keep one of none, sockets, ldoms, cores, threads, off")
		}
	case strings.EqualFold(p.Name, "CliFilterPlugins"):
		// 23.11+ read_config.c: "Ignoring invalid CliFilterPlugins: ...
		// You can't have 'none' with another plugin" (seen on 24.11), and
		// with itself: any comma beside none (26.05,
		// "cli_filter/none,,cli_filter/none"; fidelity seed 20261215).
		if strings.Contains(value, ",") && has("none", "cli_filter/none") && c.v >= V2311 {
			c.add(SeverityError, fmt.Sprintf("CliFilterPlugins=%s: none cannot be combined with another plugin; Slurm ignores the whole value", value), "remove none")
		}
	case strings.EqualFold(p.Name, "PropagateResourceLimits") || strings.EqualFold(p.Name, "PropagateResourceLimitsExcept"):
		// slurm_rlimits_info.c parse_rlimits: NONE and ALL count only as
		// the whole value, and names compare case-sensitively after an
		// optional RLIMIT_ prefix; anything else is "Bad rlimit name",
		// fatal ("Bad PropagateResourceLimitsExcept", seen on 24.11).
		if value == "NONE" || value == "ALL" {
			break
		}
		for _, t := range strings.FieldsFunc(value, func(r rune) bool { return strings.ContainsRune(", \t\n", r) }) {
			name := strings.TrimPrefix(t, "RLIMIT_")
			switch {
			case strings.EqualFold(name, "none") || strings.EqualFold(name, "all"):
				c.add(SeverityError, fmt.Sprintf("%s=%s: %s must be the whole value; slurmctld exits (\"Bad rlimit name: %s\")", p.Name, value, name, name), "write "+strings.ToUpper(name)+" alone, or list resource names")
			case name != strings.ToUpper(name):
				c.add(SeverityError, fmt.Sprintf("%s=%s: Slurm compares resource names case-sensitively; slurmctld exits (\"Bad rlimit name: %s\")", p.Name, value, name), "write "+strings.ToUpper(name))
			}
		}
	case strings.EqualFold(p.Name, "GresTypes"):
		// gres.c loads one plugin per type: a type listed again is
		// "Duplicate plugin gres/gpu ignored" (slurmctld and slurmd, 24.11
		// and 26.05; fidelity -mode doubled), and the type is loaded once:
		// the value as written, with a complaint.
		for _, t := range order {
			if toks[t] > 1 {
				c.add(PolicySeverity(TreatAsWritten), fmt.Sprintf("GresTypes=%s lists %s %d times: Slurm loads gres/%s once and logs \"Duplicate plugin gres/%s ignored\"", value, t, toks[t], t, t),
					"list each GRES type once")
			}
		}
	case strings.EqualFold(p.Name, "SchedulerParameters"):
		c.schedulerRules(value)
	case strings.EqualFold(p.Name, "HealthCheckNodeState"):
		// L11: START_ONLY and REBOOT_ONLY must stand alone (fatal from 26.05).
		if len(order) > 1 && has("start_only", "reboot_only") {
			sev := SeverityWarning
			if c.v >= V2605 {
				sev = SeverityError
			}
			c.add(sev, fmt.Sprintf("HealthCheckNodeState=%s: START_ONLY and REBOOT_ONLY must be the only value", value), "")
		}
	}
}

// schedArg finds "name=" in value as xstrcasestr does (the first occurrence,
// anywhere, any case) and reads the number after it with atoi.
func schedArg(value, name string) (int64, bool) {
	i := strings.Index(strings.ToLower(value), name+"=")
	if i < 0 {
		return 0, false
	}
	rest := value[i+len(name)+1:]
	if j := strings.IndexByte(rest, ','); j >= 0 {
		rest = rest[:j]
	}
	n, _ := ParseArg(ParseAtoi, rest)
	return n, true
}

// schedulerRules are the rules between the backfill options of
// SchedulerParameters (backfill.c _load_config, 22.05 to 26.05).
func (c *checker) schedulerRules(value string) {
	test, hasTest := schedArg(value, "bf_max_job_test")
	if _, ok := schedArg(value, "max_job_bf"); ok {
		if !hasTest {
			c.add(SeverityError, "SchedulerParameters: max_job_bf is no longer supported; slurmctld exits (\"Invalid parameter max_job_bf\")", "write bf_max_job_test instead")
			return
		}
		c.add(SeverityWarning, "SchedulerParameters: max_job_bf is no longer supported and bf_max_job_test overrides it", "remove max_job_bf")
	}
	if !hasTest || test < 1 || test > 1000000 {
		test = 500 // DEF_BF_MAX_JOB_TEST; an invalid value is reset to it
	}
	if _, ok := schedArg(value, "bf_node_space_size"); !ok && test < 2 {
		c.add(SeverityError, fmt.Sprintf("SchedulerParameters: bf_max_job_test=%d without bf_node_space_size, which defaults to it and must be at least 2; slurmctld logs \"Invalid SchedulerParameters bf_node_space_size: %d\"", test, test),
			"add bf_node_space_size=2")
	}
	if n, ok := schedArg(value, "bf_max_job_part"); ok && n > 0 && n >= test {
		c.add(SeverityError, fmt.Sprintf("SchedulerParameters: bf_max_job_part=%d is not below bf_max_job_test (%d); slurmctld logs an error", n, test),
			fmt.Sprintf("lower bf_max_job_part below %d or raise bf_max_job_test", test))
	}
	for _, name := range []string{"bf_max_job_user", "bf_max_job_user_part", "bf_max_job_assoc"} {
		if n, ok := schedArg(value, name); ok && n > 0 && n > test {
			c.add(SeverityWarning, fmt.Sprintf("SchedulerParameters: %s=%d is above bf_max_job_test (%d); slurmctld logs a warning", name, n, test),
				fmt.Sprintf("lower %s to at most %d", name, test))
		}
	}
}

// keepaliveRules: net.c net_set_keep_alive sets TCP_KEEPINTVL and
// TCP_KEEPCNT only when keepalivetime= is set; from 24.11 slurmctld does so
// on its own connections, and Linux refuses an interval outside 1..32767
// and a probe count outside 1..127 ("Unable to set keepalive interval",
// "Unable to set keepalive probes" on every connection).
func (c *checker) keepaliveRules(value string) {
	if c.v < V2411 {
		return
	}
	if _, ok := schedArg(value, "keepalivetime"); !ok {
		return
	}
	for _, o := range []struct {
		name, what string
		max        int64
	}{{"keepaliveinterval", "interval", 32767}, {"keepaliveprobes", "probes", 127}} {
		n, ok := schedArg(value, o.name)
		if ok && n >= 0 && n <= 2147483647 && (n < 1 || n > o.max) {
			c.add(SeverityError, fmt.Sprintf("CommunicationParameters: %s=%d with keepalivetime is outside Linux's 1..%d; every connection logs \"Unable to set keepalive %s: Invalid argument\"", o.name, n, o.max, o.what),
				fmt.Sprintf("write %s=N with N in 1..%d", o.name, o.max))
		}
	}
}
