package realslurm

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/lab/localslurm"
)

// sched is a truthCase config setting SchedulerParameters.
func sched(v string) string { return `SchedulerParameters: "` + v + `"` }

// truthCases5 are numeric option arguments at and past the edges of the
// ranges Slurm checks (catalog EnumValue.ArgRanges, overrides.tsv
// arg_range; fidelity SweepArgRanges found each on real Slurm), and the
// rules between backfill options: each kind of line slurmctld logs once per
// release it appears in. The clean cases run accounting, as without it
// slurmctld logs "Job accounting information gathered, but not stored". Out of range, slurmctld logs an error and runs
// with its default (an error by docs/fidelity.md's rule) or exits.
var truthCases5 = []truthCase{
	// backfill.c _load_config: "Invalid SchedulerParameters <opt>: N".
	{name: "bf_interval 0", config: sched("bf_interval=0"), rule: "invalid-config-value", severity: diag.Error,
		logged: []string{"Invalid SchedulerParameters bf_interval: 0"}},
	{name: "bf_interval -1 disables backfill", config: sched("bf_interval=-1"), accounting: true},
	{name: "bf_interval at its maximum", config: sched("bf_interval=10800"), accounting: true},
	{name: "bf_node_space_size 1", config: sched("bf_node_space_size=1"), rule: "invalid-config-value", severity: diag.Error,
		logged: []string{"Invalid SchedulerParameters bf_node_space_size: 1"}},
	{name: "bf_max_job_test 1 without bf_node_space_size", config: sched("bf_max_job_test=1"), rule: "invalid-config-value", severity: diag.Error,
		logged: []string{"Invalid SchedulerParameters bf_node_space_size: 1"}},
	{name: "bf_max_job_test 1 with bf_node_space_size 2", config: sched("bf_max_job_test=1,bf_node_space_size=2"), accounting: true},
	{name: "bf_min_prio_reserve 0", config: sched("bf_min_prio_reserve=0"), rule: "invalid-config-value", severity: diag.Error,
		logged: []string{"Invalid SchedulerParameters bf_min_prio_reserve: 0"}},
	{name: "bf_hetjob_prio 1", config: sched("bf_hetjob_prio=1"), rule: "invalid-config-value", severity: diag.Error,
		logged: []string{"Invalid SchedulerParameters bf_hetjob_prio: 1"}},
	// xstrncasecmp(arg, "min", 3): accepted, only warned about.
	{name: "bf_hetjob_prio minimum", config: sched("bf_hetjob_prio=minimum"), accounting: true, rule: "invalid-config-value", severity: diag.Warning},
	// "Invalid backfill scheduler <opt>: N".
	{name: "bf_yield_sleep 0", config: sched("bf_yield_sleep=0"), rule: "invalid-config-value", severity: diag.Error,
		logged: []string{"Invalid backfill scheduler bf_yield_sleep: 0"}},
	{name: "bf_topopt_iterations 1", config: sched("bf_topopt_iterations=1"), rule: "invalid-config-value", severity: diag.Error,
		logged: []string{"Invalid backfill scheduler bf_topopt_iterations: 1"}, only: []string{"24.11", "26.05"}},
	{name: "bf_topopt_iterations 30", config: sched("bf_topopt_iterations=30"), accounting: true, only: []string{"24.11", "26.05"}},
	// A rule between options: the error line, no reset.
	{name: "bf_max_job_part not below bf_max_job_test", config: sched("bf_max_job_part=500"), rule: "invalid-config-value", severity: diag.Error,
		logged: []string{"bf_max_job_part >= bf_max_job_test (500 >= 500)"}},
	// select/cons_tres (cons_common.c in 22.05).
	{name: "bf_window_linear 0", config: sched("bf_window_linear=0"), rule: "invalid-config-value", severity: diag.Error,
		logged: []string{"Invalid SchedulerParameters bf_window_linear: 0"}},
	{name: "preempt_reorder_count -1", config: sched("preempt_reorder_count=-1"), rule: "invalid-config-value", severity: diag.Error,
		logged: []string{"Invalid PreemptParameters reorder_count: -1"}, only: []string{"24.11", "26.05"}},
	{name: "preempt_reorder_count -1 (22.05's wording)", config: sched("preempt_reorder_count=-1"), rule: "invalid-config-value", severity: diag.Error,
		logged: []string{"Invalid SchedulerParameters preempt_reorder_count: -1"}, only: []string{"22.05"}},
	// Fatal.
	{name: "max_job_bf", config: sched("max_job_bf=100"), rule: "invalid-config-value", severity: diag.Error,
		refused: []string{"Invalid parameter max_job_bf"}},
	// read_config.c: "CommunicationParameters option <opt>=N is invalid, ignored".
	{name: "keepaliveprobes -1", config: `CommunicationParameters: "keepaliveprobes=-1"`, rule: "invalid-config-value", severity: diag.Error,
		logged: []string{"CommunicationParameters option keepaliveprobes=-1 is invalid, ignored"}},
	// net.c: Linux's TCP keepalive limits, from 24.11 on slurmctld's own
	// connections.
	{name: "keepalivetime 0", config: `CommunicationParameters: "keepalivetime=0"`, rule: "invalid-config-value", severity: diag.Error,
		logged: []string{"Unable to set keepalive socket time"}, only: []string{"24.11", "26.05"}},
	{name: "keepaliveinterval 0 with keepalivetime", config: `CommunicationParameters: "keepalivetime=60,keepaliveinterval=0"`,
		rule: "invalid-config-value", severity: diag.Error, logged: []string{"Unable to set keepalive interval"}, only: []string{"24.11", "26.05"}},
	{name: "keepaliveprobes 128 with keepalivetime", config: `CommunicationParameters: "keepalivetime=60,keepaliveprobes=128"`,
		rule: "invalid-config-value", severity: diag.Error, logged: []string{"Unable to set keepalive probes"}, only: []string{"24.11", "26.05"}},
	{name: "keepalive at Linux's limits", config: `CommunicationParameters: "keepalivetime=32767,keepaliveinterval=32767,keepaliveprobes=127"`, accounting: true},
	// slurmctld/read_config.c: "... out of range, ignored" (23.02+).
	{name: "validate_nodeaddr_threads 65", config: `SlurmctldParameters: "validate_nodeaddr_threads=65"`, rule: "invalid-config-value", severity: diag.Error,
		logged: []string{"SlurmctldParameters option validate_nodeaddr_threads=65 out of range, ignored"}, only: []string{"24.11", "26.05"}},
	// conmgr (24.11+): fatal in 24.11, clamped with an error in 26.05.
	{name: "conmgr_threads 1", config: `SlurmctldParameters: "conmgr_threads=1"`, rule: "invalid-config-value", severity: diag.Error,
		refused: []string{"Invalid thread count=1"}, only: []string{"24.11"}},
	// 26.05 lowers CONMGR_THREAD_COUNT_MAX to 256.
	{name: "conmgr_threads 257", config: `SlurmctldParameters: "conmgr_threads=257"`, rule: "invalid-config-value", severity: diag.Error,
		logged: []string{"CONMGR_THREADS=257 too high, decreasing to 256"}, only: []string{"26.05"}},
	{name: "conmgr_threads 1024", config: `SlurmctldParameters: "conmgr_threads=1024"`, accounting: true, only: []string{"24.11"}},
	{name: "conmgr_max_connections 0", config: `SlurmctldParameters: "conmgr_max_connections=0"`, rule: "invalid-config-value", severity: diag.Error,
		refused: []string{"1 max connection"}, only: []string{"24.11", "26.05"}},
}

// TestLintAgreesWithSlurmctld5 runs each of truthCases5 (numeric option
// arguments at their edges) on real Slurm of the releases it names.
func TestLintAgreesWithSlurmctld5(t *testing.T) {
	runTruthCases(t, truthCases5)
}

// TestSchedulerPassArgRanges: the main scheduler (job_scheduler.c
// _schedule) reads its SchedulerParameters options on its first pass, not
// at start, so the oracle, which only starts slurmctld, sees no line for
// them. A submitted job starts a pass; slurmctld then logs each option
// lint reports out of range, and runs with its default.
func TestSchedulerPassArgRanges(t *testing.T) {
	const value = "batch_sched_delay=-1,build_queue_timeout=99,default_queue_depth=-1,sched_max_job_start=-1"
	wants := []string{"Invalid batch_sched_delay: -1", "Invalid build_queue_time: 99",
		"ignoring SchedulerParameters: default_queue_depth value of -1", "Invalid sched_max_job_start: -1"}
	t.Parallel()
	for _, release := range localslurm.Releases() {
		t.Run(release, func(t *testing.T) {
			t.Parallel()
			requirePrereqsFor(t, release)
			s := truthSpec(truthCase{config: sched(value)})
			all := compileSpecVersion(t, s, release)
			text := allText(all.diags)
			for _, opt := range strings.Split(value, ",") {
				if !strings.Contains(text, opt+" is outside") {
					t.Errorf("lint: no range error for %s:\n%s", opt, text)
				}
			}
			sp := compileSpecVersion(t, s, release, "invalid-config-value")
			if sp.cluster == nil || sp.diags.HasErrors() {
				t.Fatalf("spec must lint without errors (invalid-config-value disabled):\n%s", errorsText(sp.diags))
			}
			dir, _ := renderSpecVersion(t, sp, release)
			cl := start(t, dir, localslurm.Options{Release: release})
			if errs := strings.Join(cl.LogErrors(), "\n"); errs != "" {
				t.Logf("error lines at start (before a scheduling pass):\n%s", errs)
			}
			cl.submit(t, "-p", sp.cluster.Slurm.DefaultPartitionID.Value, "-D", "/tmp", "-o", "/dev/null", "--wrap", "true")
			errs := ""
			deadline := time.Now().Add(20 * time.Second)
			for time.Now().Before(deadline) {
				errs = strings.Join(cl.LogErrors(), "\n")
				if !slices.ContainsFunc(wants, func(w string) bool { return !strings.Contains(errs, w) }) {
					break
				}
				time.Sleep(250 * time.Millisecond)
			}
			for _, w := range wants {
				if !strings.Contains(errs, w) {
					t.Errorf("slurmctld's error lines lack %q:\n%s", w, errs)
				}
			}
			t.Logf("error lines after the job's scheduling pass:\n%s", errs)
			t.Run("stop leaves no process", cl.stopAndCheck)
		})
	}
}
