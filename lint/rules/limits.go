package rules

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// Communication and controller limits: constraints.md C1-C6 and L1-L21
// (C1, C4 and L11 are checked inside one value by invalid-config-value;
// the identity, auth and path keys are reserved). The partition lines'
// constraints, Q1-Q7, are in partitionlines.go.

// KeepAliveTimeConflict reports a KeepAliveTime that Slurm ignores (C2):
// CommunicationParameters keepalivetime= takes precedence over it, and a
// value above INT_MAX (UNLIMITED among them) is dropped with an error.
var KeepAliveTimeConflict = &lint.Rule{
	ID:       "keepalive-time-conflict",
	Severity: diag.Error,
	Summary:  "KeepAliveTime is ignored: CommunicationParameters keepalivetime= is also set, or it is outside 1..32767",
	Doc: doc("KeepAliveTime moved to CommunicationParameters=keepalivetime=. When both are set the "+
		"CommunicationParameters value wins and KeepAliveTime is ignored; a KeepAliveTime above 2147483647 "+
		"(UNLIMITED included) is ignored with an error (\"KeepAliveTime 4294967295 invalid, ignoring it\"), and "+
		"one outside Linux's TCP keepalive range 1..32767 makes every connection log \"Unable to set keepalive "+
		"socket time: Invalid argument\" (slurmctld 24.11 and 26.05, with 0 and with 40000). "+
		"Either way the sockets do not use the value written.",
		`config: {KeepAliveTime: "60", CommunicationParameters: "keepalivetime=30"}`,
		`config: {CommunicationParameters: "keepalivetime=30"}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		kv := e.user("KeepAliveTime")
		if kv == nil {
			return
		}
		if n, ok := slurmUint(kv); ok && n > math.MaxInt32 {
			reportValue(p, kv, "use CommunicationParameters=keepalivetime=SECONDS with at most 2147483647",
				"KeepAliveTime=%s is above 2147483647: slurmctld logs \"KeepAliveTime %d invalid, ignoring it\"", kv.Value.Value, n)
			return
		}
		// From 24.11 slurmctld sets the keepalive on its own connections
		// (22.05 logs nothing for these values at start: not judged there).
		if n, ok := slurmUint(kv); ok && e.v >= catalog.V2411 && (n == 0 || n > maxTCPKeepIdle) {
			reportValue(p, kv, "use CommunicationParameters=keepalivetime=SECONDS between 1 and 32767",
				"KeepAliveTime=%s is outside Linux's TCP keepalive range 1..32767: every connection logs \"Unable to set keepalive socket time: Invalid argument\"", kv.Value.Value)
			return
		}
		if e.has("CommunicationParameters", "keepalivetime") {
			reportKey(p, kv, "remove KeepAliveTime", "KeepAliveTime is ignored: CommunicationParameters=%s sets keepalivetime", e.val("CommunicationParameters"))
		}
	},
}

// maxTCPKeepIdle is Linux's MAX_TCP_KEEPIDLE: setsockopt(TCP_KEEPIDLE)
// refuses 0 and anything above it with EINVAL.
const maxTCPKeepIdle = 32767

// IPv4Disabled reports CommunicationParameters=DisableIPv4 (C1 with
// EnableIPv6; without it the catalog reports Slurm's own refusal): the
// cluster's network is IPv4 only.
var IPv4Disabled = &lint.Rule{
	ID:       "ipv4-disabled",
	Severity: diag.Error,
	Summary:  "CommunicationParameters=DisableIPv4 on the cluster's IPv4-only network",
	Doc: doc("The subnetwork slurmspec deploys has only an IPv4 range (render/pulumimodel), so the controller "+
		"and the nodes have no IPv6 address. With DisableIPv4 Slurm resolves host names over IPv6 only: "+
		"slurmctld cannot resolve its own host or reach slurmdbd (\"Unable to resolve\", then fatal), as seen on "+
		"Slurm 22.05.",
		`config: {CommunicationParameters: "DisableIPv4,EnableIPv6"}`,
		`config: {CommunicationParameters: EnableIPv6}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		kv := e.user("CommunicationParameters")
		if kv == nil || !hasToken(kv.Value.Value, "disableipv4") || !hasToken(kv.Value.Value, "enableipv6") {
			return
		}
		reportValue(p, kv, "remove DisableIPv4",
			"CommunicationParameters=%s: the cluster's network has no IPv6 addresses; slurmctld cannot resolve or reach its hosts", kv.Value.Value)
	},
}

// MCSParametersPlugin reports MCSParameters and MCSPlugin that do not fit
// (C5).
var MCSParametersPlugin = &lint.Rule{
	ID:       "mcs-parameters-plugin",
	Severity: diag.Error,
	Summary:  "MCSParameters without an MCSPlugin, or MCSPlugin=mcs/group without MCSParameters",
	Doc: doc("slurmctld rejects MCSParameters without MCSPlugin, and mcs/group without MCSParameters (which "+
		"name the groups). With mcs/none the parameters are ignored.",
		`config: {MCSParameters: "enforced,select"}`,
		`config: {MCSPlugin: mcs/user, MCSParameters: "enforced,select"}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		params, plugin := e.user("MCSParameters"), e.user("MCSPlugin")
		switch {
		case params != nil && plugin == nil:
			reportKey(p, params, "set MCSPlugin (mcs/account, mcs/group, mcs/user or mcs/label), or remove MCSParameters",
				"MCSParameters without MCSPlugin: slurmctld rejects it")
		case params != nil && strings.Contains(strings.ToLower(plugin.Value.Value), "none"):
			p.ReportAs(diag.Warning, params.Key.Pos, params.Key.Path, "remove MCSParameters, or choose an MCS plugin",
				"MCSParameters is ignored with MCSPlugin=%s", plugin.Value.Value)
		case params == nil && plugin != nil && pluginIs(plugin.Value.Value, "mcs/group"):
			reportValue(p, plugin, "add MCSParameters naming the groups (e.g. enforced,select:group1|group2)",
				"MCSPlugin=mcs/group without MCSParameters: slurmctld rejects it")
		}
	},
}

// maxJobID is Slurm's MAX_JOB_ID.
const maxJobID = 0x03FFFFFF

// JobIDRange reports FirstJobId, MaxJobId, MaxJobCount and MaxStepCount
// values Slurm rejects or changes (L5).
var JobIDRange = &lint.Rule{
	ID:       "job-id-range",
	Severity: diag.Error,
	Summary:  "FirstJobId, MaxJobId, MaxJobCount or MaxStepCount out of range or inconsistent",
	Doc: doc("FirstJobId must not be 0 (fatal) nor exceed MaxJobId (rejected); MaxJobId above 67108863 is reset "+
		"with an error (an error here); "+
		"MaxJobCount and MaxStepCount must be at least 1 (rejected), and MaxJobCount is lowered to "+
		"MaxJobId-FirstJobId+1 when larger.",
		`config: {FirstJobId: "70000000"}`,
		`config: {FirstJobId: "1000"}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		first, firstOK := e.num("FirstJobId")
		maxID, _ := e.num("MaxJobId")
		if kv := e.user("MaxJobId"); kv != nil {
			// read_config.c: "MaxJobId can not exceed MAX_JOB_ID,
			// resetting value" (an error line; UNLIMITED too).
			if n, ok := slurmUint(kv); ok && n > maxJobID {
				reportValue(p, kv, fmt.Sprintf("use at most %d", maxJobID), "MaxJobId=%s exceeds %d: slurmctld logs an error and uses %d", kv.Value.Value, maxJobID, maxJobID)
				maxID = maxJobID
			}
		}
		if kv := e.user("FirstJobId"); kv != nil && firstOK {
			switch {
			case first == 0:
				reportValue(p, kv, "start at 1 or more", "FirstJobId=0: slurmctld exits")
			case first > maxID:
				reportValue(p, kv, fmt.Sprintf("use a FirstJobId below MaxJobId (%d)", maxID), "FirstJobId=%d exceeds MaxJobId=%d: slurmctld rejects it", first, maxID)
			}
		}
		if kv := e.user("MaxJobId"); kv != nil && e.user("FirstJobId") == nil && firstOK && first > maxID {
			reportValue(p, kv, fmt.Sprintf("use a MaxJobId of at least FirstJobId (%d)", first),
				"MaxJobId=%d is below FirstJobId=%d: slurmctld rejects it (\"FirstJobId > MaxJobId\")", maxID, first)
		}
		for _, k := range []string{"MaxJobCount", "MaxStepCount"} {
			kv := e.user(k)
			if kv == nil {
				continue
			}
			if n, ok := e.num(k); ok && n < 1 {
				what := map[string]string{"MaxJobCount": "jobs", "MaxStepCount": "steps"}[k]
				reportValue(p, kv, "use at least 1", "%s=%d permits no %s: slurmctld rejects it", k, n, what)
			}
		}
		if kv := e.user("MaxJobCount"); kv != nil && firstOK && first > 0 && first <= maxID {
			if n, ok := e.num("MaxJobCount"); ok && n > maxID-first+1 {
				reportValueAs(p, diag.Warning, kv, "raise MaxJobId or lower MaxJobCount",
					"MaxJobCount=%d exceeds MaxJobId-FirstJobId+1=%d: Slurm lowers it", n, maxID-first+1)
			}
		}
	},
}

// threshold compares one global integer key, read as Slurm reads it
// (UNLIMITED is the kind's INFINITE), with a bound.
type threshold struct {
	key     string
	bad     func(n int64) bool
	from    catalog.Version
	message string
	hint    string
}

func checkThreshold(p *lint.Pass, t threshold) {
	e := effective(p)
	if t.from != 0 && e.v < t.from {
		return
	}
	kv := e.user(t.key)
	if kv == nil {
		return
	}
	if n, ok := slurmUint(kv); ok && n <= math.MaxInt64 && t.bad(int64(n)) {
		reportValue(p, kv, t.hint, "%s=%s %s", kv.Key.Value, kv.Value.Value, t.message)
	}
}

// slurmUint is the number Slurm stores for a global integer key's value
// (catalog.ParseNumber); ok is false for other keys and malformed values,
// which invalid-config-value reports.
func slurmUint(kv *ir.KV) (uint64, bool) {
	param, ok := catalog.Default().Lookup(catalog.ScopeGlobal, kv.Key.Value)
	if !ok {
		return 0, false
	}
	return catalog.ParseNumber(param, kv.Value.Value)
}

// MaxDBDMsgs reports MaxDBDMsgs below 10000 (L6).
var MaxDBDMsgs = &lint.Rule{
	ID:       "max-dbd-msgs",
	Severity: diag.Error,
	Summary:  "MaxDBDMsgs is below 10000",
	Doc: doc("MaxDBDMsgs bounds the messages slurmctld queues while slurmdbd is down; slurmctld rejects values "+
		"below 10000.",
		`config: {MaxDBDMsgs: "5000"}`,
		`config: {MaxDBDMsgs: "20000"}`),
	Check: func(p *lint.Pass) {
		checkThreshold(p, threshold{key: "MaxDBDMsgs", bad: func(n int64) bool { return n < 10000 },
			message: "is below 10000; slurmctld rejects it", hint: "use 10000 or more, or remove it"})
	},
}

// MaxArraySize reports MaxArraySize above Slurm's limit (L7).
var MaxArraySize = &lint.Rule{
	ID:       "max-array-size",
	Severity: diag.Warning,
	Summary:  "MaxArraySize is above 4000001",
	Doc: doc("Slurm logs an error for MaxArraySize values above 4000001.",
		`config: {MaxArraySize: "10000000"}`,
		`config: {MaxArraySize: "100001"}`),
	Check: func(p *lint.Pass) {
		checkThreshold(p, threshold{key: "MaxArraySize", bad: func(n int64) bool { return n > 4000001 },
			message: "is above 4000001; slurmctld logs an error", hint: "use at most 4000001"})
	},
}

// MinJobAge reports MinJobAge below 2 (L8).
var MinJobAge = &lint.Rule{
	ID:       "min-job-age",
	Severity: diag.Error,
	Summary:  "MinJobAge is below 2",
	Doc: doc("slurmctld logs \"MinJobAge must be at least 2\" and runs with 2 instead: the value written "+
		"is not the one used.",
		`config: {MinJobAge: "0"}`,
		`config: {MinJobAge: "300"}`),
	Check: func(p *lint.Pass) {
		checkThreshold(p, threshold{key: "MinJobAge", bad: func(n int64) bool { return n < 2 },
			message: "is below 2: slurmctld logs an error and uses 2", hint: "use 2 or more"})
	},
}

// MessageTimeout reports MessageTimeout and UnkillableStepTimeout values
// Slurm warns about (L9).
var MessageTimeout = &lint.Rule{
	ID:       "message-timeout",
	Severity: diag.Warning,
	Summary:  "MessageTimeout of 0 or above 100, or UnkillableStepTimeout below 5×MessageTimeout",
	Doc: doc("A MessageTimeout above 100 seconds hurts fault tolerance. From 24.05 an UnkillableStepTimeout "+
		"below five times MessageTimeout makes nodes go down with KillTaskFailed. MessageTimeout=0 is an error: "+
		"every message times out at once and slurmctld cannot reach slurmdbd.",
		`config: {MessageTimeout: "30", UnkillableStepTimeout: "60"}`,
		`config: {MessageTimeout: "30", UnkillableStepTimeout: "150"}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		mt, _ := e.num("MessageTimeout")
		if kv := e.user("MessageTimeout"); kv != nil && mt == 0 {
			// Slurm takes 0 as written: every message then times out at
			// once, and slurmctld cannot reach slurmdbd ("Socket timed out
			// on send/recv operation", then fatal or retrying for ever:
			// related seed 20261207 on 22.05 and 24.11).
			reportValueAs(p, diag.Error, kv, "remove it for the default (10), or give seconds",
				"MessageTimeout=0: every message times out at once; slurmctld cannot reach slurmdbd or the nodes")
		}
		if kv := e.user("MessageTimeout"); kv != nil && mt > 100 {
			reportValue(p, kv, "use 100 or less", "MessageTimeout=%d is too high for effective fault tolerance", mt)
		}
		if kv := e.user("UnkillableStepTimeout"); kv != nil && e.v >= catalog.V2405 {
			if n, ok := e.num("UnkillableStepTimeout"); ok && n < 5*mt {
				reportValue(p, kv, fmt.Sprintf("use at least %d", 5*mt),
					"UnkillableStepTimeout=%d is below 5×MessageTimeout (%d): nodes may go down with KillTaskFailed", n, 5*mt)
			}
		}
	},
}

// HealthCheckTimeout reports health check timeouts Slurm resets or warns
// about (L10).
var HealthCheckTimeout = &lint.Rule{
	ID:       "health-check-timeout",
	Severity: diag.Warning,
	Summary:  "HealthCheckTimeout is 0, or not below HealthCheckInterval",
	Doc: doc("From 26.05 HealthCheckTimeout (default 60 seconds) must be below HealthCheckInterval; slurmctld "+
		"logs an error and keeps the values (a warning). HealthCheckTimeout=0 is an error: slurmctld resets it "+
		"to 60. A HealthCheckInterval under 60 seconds therefore needs a smaller HealthCheckTimeout.",
		`config: {HealthCheckProgram: /usr/sbin/nhc, HealthCheckInterval: "30"}`,
		`config: {HealthCheckProgram: /usr/sbin/nhc, HealthCheckInterval: "30", HealthCheckTimeout: "20"}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		if e.v < catalog.V2605 {
			return
		}
		timeout := int64(60)
		tkv := e.user("HealthCheckTimeout")
		if tkv != nil {
			if n, ok := e.num("HealthCheckTimeout"); ok {
				if n == 0 {
					reportValueAs(p, diag.Error, tkv, "use a positive number of seconds", "HealthCheckTimeout=0 is invalid: slurmctld logs an error and uses 60")
				} else {
					timeout = n
				}
			}
		}
		ikv := e.user("HealthCheckInterval")
		if ikv == nil {
			return
		}
		if n, ok := e.num("HealthCheckInterval"); ok && n > 0 && timeout >= n {
			at := ikv
			if tkv != nil {
				at = tkv
			}
			reportValue(p, at, fmt.Sprintf("set HealthCheckTimeout below %d", n),
				"HealthCheckTimeout (%d) must be less than HealthCheckInterval (%d)", timeout, n)
		}
	},
}

// SchedLogNeedsFile reports a scheduler log level without a log file
// (L12).
var SchedLogNeedsFile = &lint.Rule{
	ID:       "sched-log-needs-file",
	Severity: diag.Error,
	Summary:  "SlurmSchedLogLevel is set without SlurmSchedLogFile",
	Doc: doc("A non-zero SlurmSchedLogLevel needs SlurmSchedLogFile; slurmctld rejects it otherwise.",
		`config: {SlurmSchedLogLevel: "1"}`,
		`config: {SlurmSchedLogLevel: "1", SlurmSchedLogFile: /var/log/slurm/sched.log}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		kv := e.user("SlurmSchedLogLevel")
		if kv == nil || e.user("SlurmSchedLogFile") != nil {
			return
		}
		if n, ok := slurmUint(kv); ok && n != 0 {
			reportValue(p, kv, "add SlurmSchedLogFile", "SlurmSchedLogLevel=%s without SlurmSchedLogFile: slurmctld rejects it", kv.Value.Value)
		}
	},
}

// SchedulerSizeLimits reports script and submit line sizes above Slurm's
// bounds (L13).
var SchedulerSizeLimits = &lint.Rule{
	ID:       "scheduler-size-limits",
	Severity: diag.Error,
	Summary:  "SchedulerParameters max_script_size= above 512 MiB or max_submit_line_size= above 2 MiB",
	Doc: doc("slurmctld exits when max_script_size exceeds 512 MiB (536870912) or max_submit_line_size "+
		"(23.11+) exceeds 2 MiB (2097152).",
		`config: {SchedulerParameters: "max_script_size=1073741824"}`,
		`config: {SchedulerParameters: "max_script_size=67108864"}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		kv := e.user("SchedulerParameters")
		if kv == nil {
			return
		}
		toks := tokenList(kv.Value.Value)
		for _, lim := range []struct {
			name  string
			max   int64
			from  catalog.Version
			human string
		}{{"max_script_size", 512 << 20, 0, "512 MiB"}, {"max_submit_line_size", 2 << 20, catalog.V2311, "2 MiB"}} {
			arg, ok := toks[lim.name]
			if !ok || e.v < lim.from {
				continue
			}
			if n, err := strconv.ParseInt(arg, 10, 64); err == nil && n > lim.max {
				reportValue(p, kv, fmt.Sprintf("use at most %d", lim.max), "SchedulerParameters %s=%d exceeds %s: slurmctld exits", lim.name, n, lim.human)
			}
		}
	},
}

// BfLicensesBuiltin reports bf_licenses under sched/builtin (L14).
var BfLicensesBuiltin = &lint.Rule{
	ID:       "bf-licenses-builtin",
	Severity: diag.Warning,
	Summary:  "SchedulerParameters bf_licenses with SchedulerType=sched/builtin",
	Doc: doc("bf_licenses is a backfill option; sched/builtin ignores it.",
		`config: {SchedulerType: sched/builtin, SchedulerParameters: bf_licenses}`,
		`config: {SchedulerParameters: bf_licenses}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		kv := e.user("SchedulerParameters")
		if kv == nil || !hasToken(kv.Value.Value, "bf_licenses") || !pluginIs(e.val("SchedulerType"), "sched/builtin") {
			return
		}
		reportValue(p, kv, "use sched/backfill (the default), or drop bf_licenses", "bf_licenses is ignored with SchedulerType=sched/builtin")
	},
}

// TreeWidthZero reports TreeWidth=0 (L15).
var TreeWidthZero = &lint.Rule{
	ID:       "tree-width-zero",
	Severity: diag.Error,
	Summary:  "TreeWidth is 0",
	Doc: doc("slurmctld logs \"TreeWidth=0 is invalid\" and falls back to the default (50 in 22.05, 16 in 26.05): "+
		"the value written is not the one used.",
		`config: {TreeWidth: "0"}`,
		`config: {TreeWidth: "32"}`),
	Check: func(p *lint.Pass) {
		checkThreshold(p, threshold{key: "TreeWidth", bad: func(n int64) bool { return n == 0 },
			message: "is invalid: slurmctld logs an error and uses the default", hint: "remove it, or use a positive fan-out"})
	},
}

// PropagateLimitsExcept reports both PropagateResourceLimits keys (L17).
var PropagateLimitsExcept = &lint.Rule{
	ID:       "propagate-limits-except",
	Severity: diag.Warning,
	Summary:  "PropagateResourceLimits and PropagateResourceLimitsExcept are both set",
	Doc: doc("When PropagateResourceLimitsExcept is set Slurm does not read PropagateResourceLimits.",
		`config: {PropagateResourceLimits: NONE, PropagateResourceLimitsExcept: MEMLOCK}`,
		`config: {PropagateResourceLimitsExcept: MEMLOCK}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		kv := e.user("PropagateResourceLimits")
		if kv == nil || e.user("PropagateResourceLimitsExcept") == nil {
			return
		}
		reportKey(p, kv, "keep one of the two", "PropagateResourceLimits is ignored because PropagateResourceLimitsExcept is set")
	},
}

// BcastExcludePaths reports BcastExclude entries that are not absolute
// paths (L18).
var BcastExcludePaths = &lint.Rule{
	ID:       "bcast-exclude-paths",
	Severity: diag.Error,
	Summary:  "BcastExclude has an entry that is not an absolute path",
	Doc: doc("BcastExclude is a comma list of absolute directories, or exactly none; slurmctld rejects anything else.",
		`config: {BcastExclude: "lib64,/usr/lib64"}`,
		`config: {BcastExclude: "/lib64,/usr/lib64"}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		kv := e.user("BcastExclude")
		if kv == nil || strings.EqualFold(kv.Value.Value, "none") {
			return
		}
		for _, ent := range strings.Split(kv.Value.Value, ",") {
			if !strings.HasPrefix(ent, "/") {
				reportValue(p, kv, "write absolute paths, or none", "BcastExclude entry %q is not an absolute path: slurmctld rejects it", ent)
				return
			}
		}
	},
}

// EpilogMsgTime reports EpilogMsgTime above its bound (L19).
var EpilogMsgTime = &lint.Rule{
	ID:       "epilog-msg-time",
	Severity: diag.Error,
	Summary:  "EpilogMsgTime is above 1000000 microseconds",
	Doc: doc("From 25.11 Slurm resets an EpilogMsgTime above 1000000 µs (one second) to the default with an "+
		"error: the cluster runs with another value than the one written.",
		`config: {EpilogMsgTime: "5000000"}`,
		`config: {EpilogMsgTime: "3000"}`),
	Check: func(p *lint.Pass) {
		checkThreshold(p, threshold{key: "EpilogMsgTime", bad: func(n int64) bool { return n > 1000000 }, from: catalog.V2511,
			message: "is above 1000000; Slurm resets it to the default", hint: "use at most 1000000"})
	},
}

// PrologEpilogTimeout reports a PrologEpilogTimeout that both specific keys
// override (L21).
var PrologEpilogTimeout = &lint.Rule{
	ID:       "prolog-epilog-timeout",
	Severity: diag.Warning,
	Summary:  "PrologEpilogTimeout is set together with both PrologTimeout and EpilogTimeout",
	Doc: doc("From 25.05 PrologTimeout and EpilogTimeout win over PrologEpilogTimeout, which is only their "+
		"fallback; with both set it has no effect.",
		`config: {PrologEpilogTimeout: "600", PrologTimeout: "300", EpilogTimeout: "300"}`,
		`config: {PrologTimeout: "300", EpilogTimeout: "300"}`),
	Check: func(p *lint.Pass) {
		e := effective(p)
		kv := e.user("PrologEpilogTimeout")
		if kv == nil || e.v < catalog.V2505 || e.user("PrologTimeout") == nil || e.user("EpilogTimeout") == nil {
			return
		}
		reportKey(p, kv, "remove PrologEpilogTimeout", "PrologEpilogTimeout has no effect: PrologTimeout and EpilogTimeout are both set")
	},
}
