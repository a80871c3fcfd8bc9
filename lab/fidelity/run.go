package fidelity

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/lab/localslurm"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/render"
	"github.com/slurmspec/slurmspec/render/output"
	"github.com/slurmspec/slurmspec/schema"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// Verdict is how lint and slurmctld agreed on one case.
type Verdict string

// The verdicts.
const (
	// BothAccept: lint clean, slurmctld up without an error line.
	BothAccept Verdict = "both accept"
	// BothRefuse: lint errors, and slurmctld refused the stand-in or
	// logged an error line.
	BothRefuse Verdict = "both refuse"
	// FalseNegative: lint clean, but slurmctld refused the rendered spec
	// or logged an error line.
	FalseNegative Verdict = "false negative"
	// FalsePositive: lint errors, but slurmctld started the stand-in
	// without an error line. A candidate, for review.
	FalsePositive Verdict = "false positive?"
	// WarnedLogged: lint clean, Slurm came up, and every error line it
	// logged is one an accepted warning of the case predicts (a rule of
	// WarnedRules: the line matches the rule's Logs and names the key the
	// warning is about). Counted as lint-clean, reported apart from the
	// false negatives. A refused start is always a false negative,
	// warning or not.
	WarnedLogged Verdict = "warned, slurmctld logs an error"
	// WarnedBuild: lint clean but for the warning that the release's
	// Debian packages do not ship a plugin the case sets (the plugin
	// depends on the build, issue 16), the library is really absent from
	// the plugin directory of the release's root (Result.Absent), and
	// every error line of Slurm names that plugin: its name (tls/s2n) or
	// its type ("tls plugin"). Slurm may refuse to start. Counted as
	// lint-clean, reported apart from the false negatives.
	WarnedBuild Verdict = "warned, this build lacks the plugin"
)

// WarnedRule is a lint rule whose warning is accepted as the right answer
// to an error line slurmctld logs but starts anyway: Logs matches the lines
// the warning predicts; when NamesKey is set, such a line must also name
// the key the warning is about (some lines name a group, an account or a
// QOS instead, or no key at all).
type WarnedRule struct {
	Logs     *regexp.Regexp
	NamesKey bool
	// Unnamed, when set, matches lines the rule's warnings predict that
	// name no key although the rule's other lines do (SlurmctldParameters
	// enable_rpc_queue: "enabled experimental rpc queuing system").
	Unnamed *regexp.Regexp
}

// WarnedRules returns the accepted rules by id, as the rules' owner decided
// them in docs/fidelity.md, "Warnings slurmctld logs as errors" (a rule is
// added there first, then here). Only a rule's warnings reach the oracle's
// warned verdict: its errors make the case lint-refused.
func WarnedRules() map[string]WarnedRule {
	re := regexp.MustCompile
	return map[string]WarnedRule{
		"deprecated-config-key":    {Logs: re(`(?i)renamed|has moved|deprecated|obsolete|defunct|no longer`), NamesKey: true},
		"config-key-version":       {Logs: re(`(?i)Ignoring obsolete|obsolete|defunct|no longer`), NamesKey: true},
		"invalid-config-value":     {Logs: re(`(?i)is defunct|Translating obsolete|obsolete|has been removed`), NamesKey: true, Unnamed: re(`enabled experimental rpc queuing system|Running with local config file despite slurmctld having been setup for configless operation|Duplicate plugin gres/\w+ ignored`)},
		"message-timeout":          {Logs: re(`MessageTimeout is too high|UnkillableStepTimeout must be at least 5 times|The default value for UnkillableStepTimeout`)},
		"max-array-size":           {Logs: re(`MaxArraySize value \(\d+\) is greater than 4000001`), NamesKey: true},
		"health-check-timeout":     {Logs: re(`must be less than HealthCheckInterval`), NamesKey: true},
		"rendered-key-override":    {Logs: re(`specified more than once, latest value used`), NamesKey: true},
		"partition-groups":         {Logs: re(`Could not find configured group`)},
		"partition-accounts":       {Logs: re(`No association for account`)},
		"priority-weight-overflow": {Logs: re(`PriorityWeight values too high`)},
		"partition-qos-unknown":    {Logs: re(`Ignoring invalid Allow/DenyQOS value`)},
		"prolog-contain-proctrack": {Logs: re(`If using PrologFlags=Contain for pam_slurm_adopt`)},
	}
}

// classify decides a case's verdict from lint's findings and slurmctld's
// start (see the Verdict constants).
func classify(res *Result, warned map[string]WarnedRule) Verdict {
	slurmOK := res.Up && len(res.Slurm) == 0
	lintOK := len(res.Lint) == 0
	switch {
	case lintOK && slurmOK:
		return BothAccept
	case lintOK && res.Up && warnedExplains(res, warned):
		return WarnedLogged
	case lintOK && buildLacks(res):
		return WarnedBuild
	case lintOK:
		return FalseNegative
	case slurmOK:
		return FalsePositive
	}
	return BothRefuse
}

// warnedExplains reports whether every error line slurmctld logged is one
// an accepted warning of the case predicts: it matches the rule's Logs
// and, for a rule whose lines name the key, names the key the warning is
// about.
func warnedExplains(res *Result, warned map[string]WarnedRule) bool {
	if len(res.Slurm) == 0 {
		return false
	}
	for _, line := range res.Slurm {
		lower := strings.ToLower(line)
		explained := false
		for _, w := range res.Warned {
			r, ok := warned[w.Rule]
			if !ok || w.Key == "" {
				continue
			}
			if r.Unnamed != nil && r.Unnamed.MatchString(line) || (!r.NamesKey || strings.Contains(lower, strings.ToLower(w.Key))) && r.Logs.MatchString(line) {
				explained = true
				break
			}
		}
		if !explained {
			return false
		}
	}
	return true
}

// buildLacks reports whether every error line Slurm logged names a plugin
// that a warning of the case says the release's Debian packages do not
// ship and that Run found absent from the release's plugin directory, or
// is a slurmd's start failing for it (startFailed) beside such a line.
func buildLacks(res *Result) bool {
	var lacking []buildPlugin
	for _, w := range res.Warned {
		if p, ok := notShipped(w.Message); ok && slices.Contains(res.Absent, p.Library) {
			lacking = append(lacking, p)
		}
	}
	if len(lacking) == 0 || len(res.Slurm) == 0 {
		return false
	}
	named := false
	for _, line := range res.Slurm {
		switch {
		case slices.ContainsFunc(lacking, func(p buildPlugin) bool { return p.namedBy(line) }):
			named = true
		case !startFailed.MatchString(line):
			return false
		}
	}
	return named
}

// startFailed matches the lines a daemon adds when a plugin it cannot load
// stops it, naming no plugin: slurmd's "slurmd initialization failed" and
// the harness's line for a slurmd that exited before it registered (its
// last output follows).
var startFailed = regexp.MustCompile(`^slurmd: error: slurmd initialization failed$|^slurmd-[\w.-]+: exited before registered: `)

// Warning is one lint warning on a case: its rule, the setting's key it is
// about ("" when it is about none of them) and its message.
type Warning struct {
	Rule, Key, Message string
}

// Result is one case's outcome.
type Result struct {
	Case Case
	// Lint holds lint's error-level findings as "rule: message".
	Lint []string
	// Warned holds lint's warnings.
	Warned []Warning
	// Up reports whether slurmctld came up and the slurmd registered;
	// Slurm holds their error and fatal lines (noise left out, see
	// localslurm.Cluster.LogErrors and SlurmdErrors), and the failed
	// stage when the slurmd did not come up.
	Up    bool
	Slurm []string
	// Harness holds the error lines left out of Slurm because the harness
	// caused them (splitHarness).
	Harness []string
	// Absent holds the libraries of the case's not-shipped warnings that
	// Run found missing from the plugin directory (PluginDir) of the
	// release's root file system.
	Absent []string
	Verdict
}

// Report is one release's run.
type Report struct {
	// Release is the series, Version what slurmctld -V reported.
	Release, Version string
	Seed             uint64
	Results          []Result
	// Elapsed is the run's wall time.
	Elapsed time.Duration
}

// Count returns how many results have the verdict.
func (r *Report) Count(v Verdict) int {
	n := 0
	for _, x := range r.Results {
		if x.Verdict == v {
			n++
		}
	}
	return n
}

// Options configures Run.
type Options struct {
	// Release is the Slurm series to run, one of localslurm.Releases().
	Release string
	// Seed and N choose the cases (Generate).
	Seed uint64
	N    int
	// Log receives progress; nil discards it.
	Log io.Writer
	// Cases, when not nil, are judged instead of generated ones (Seed and
	// N are then only reported).
	Cases []Case
	// Disabled holds lint rule ids not to run.
	Disabled map[string]bool
	// Warned overrides WarnedRules() (nil means WarnedRules()).
	Warned map[string]WarnedRule
	// ReadyTimeout bounds each slurmctld start; zero means 30 seconds
	// (a slurmctld that waits longer, as for a missing topology.conf,
	// counts as refused).
	ReadyTimeout time.Duration
}

// slurmdNode is the base spec's static GPU node, for which a slurmd runs
// next to slurmctld (a localslurm stand-in): keys only slurmd reads are
// judged too, and slurmd refusing to start or register, or logging an
// error line, counts as Slurm refusing the case.
const slurmdNode = "fid-gpu-0"

// Run generates the cases for the release and judges each: it starts one
// cluster (munged, MariaDB, slurmdbd, slurmctld, one slurmd) on the base
// spec, then restarts only slurmctld and the slurmd for each case.
func Run(ctx context.Context, o Options) (*Report, error) {
	began := time.Now()
	v, err := catalog.ParseVersion(o.Release)
	if err != nil {
		return nil, fmt.Errorf("fidelity: %w", err)
	}
	if o.ReadyTimeout <= 0 {
		o.ReadyTimeout = 30 * time.Second
	}
	logf := func(format string, args ...any) {
		if o.Log != nil {
			fmt.Fprintf(o.Log, "fidelity %s: "+format+"\n", append([]any{o.Release}, args...)...)
		}
	}
	sch, err := schema.New()
	if err != nil {
		return nil, fmt.Errorf("fidelity: %w", err)
	}
	work, err := os.MkdirTemp("", "fidelity-")
	if err != nil {
		return nil, fmt.Errorf("fidelity: %w", err)
	}
	defer os.RemoveAll(work)

	base := Case{Index: -1}
	if o.Warned == nil {
		o.Warned = WarnedRules()
	}
	c, l, _ := lintSpec(sch, "base.yaml", base.Spec(), o.Release, nil)
	if c == nil || len(l) > 0 {
		return nil, fmt.Errorf("fidelity: the base spec does not lint clean for Slurm %s: %v", o.Release, l)
	}
	baseDir := filepath.Join(work, "base")
	baseConf, err := renderTo(c, o.Release, baseDir)
	if err != nil {
		return nil, err
	}
	cl, err := localslurm.Start(ctx, localslurm.Options{Dir: baseDir, Release: o.Release, Accounting: true, ReadyTimeout: o.ReadyTimeout, StandIns: []string{slurmdNode}})
	if err != nil {
		return nil, fmt.Errorf("fidelity: start Slurm %s on the base spec: %w", o.Release, err)
	}
	defer cl.Stop()
	if errs := append(cl.LogErrors(), cl.SlurmdErrors(slurmdNode)...); len(errs) > 0 {
		return nil, fmt.Errorf("fidelity: slurmctld or slurmd %s logs errors for the base spec:\n%s", o.Release, strings.Join(errs, "\n"))
	}
	cfg, err := cl.ShowConfig()
	if err != nil {
		return nil, fmt.Errorf("fidelity: Slurm %s on the base spec: %w", o.Release, err)
	}
	pluginDir, root := cfg["PluginDir"], cl.Release().Root
	rep := &Report{Release: o.Release, Version: cl.Release().Version, Seed: o.Seed}
	logf("running %s, seed %d", cl.Release(), o.Seed)

	cases := o.Cases
	if cases == nil {
		cases = Generate(catalog.Default(), v, o.Seed, o.N)
	}
	for _, k := range cases {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		res := Result{Case: k}
		c, l, w := lintSpec(sch, fmt.Sprintf("case-%d.yaml", k.Index), k.Spec(), o.Release, o.Disabled)
		for _, d := range l {
			res.Lint = append(res.Lint, d.Rule+": "+d.Message)
		}
		for _, d := range w {
			res.Warned = append(res.Warned, Warning{Rule: d.Rule, Key: k.keyOf(d.Path), Message: d.Message})
			p, ok := notShipped(d.Message)
			if !ok || k.sets(catalog.ScopeGlobal, "PluginDir") {
				continue // a case's own PluginDir is not the one checked
			}
			absent, err := pluginAbsent(root, pluginDir, p.Library)
			if err != nil {
				logf("  %s: cannot tell whether %s has %s: %v", k, root, p.Library, err)
			}
			if absent && !slices.Contains(res.Absent, p.Library) {
				res.Absent = append(res.Absent, p.Library)
			}
		}
		dir := filepath.Join(work, fmt.Sprintf("case-%d", k.Index))
		if c != nil && len(l) == 0 {
			if _, err := renderTo(c, o.Release, dir); err != nil {
				// A lint-clean spec that does not render is a finding too.
				res.Lint = append(res.Lint, "render: "+err.Error())
			}
		}
		if len(res.Lint) > 0 {
			conf, err := standIn(baseConf, k.Settings)
			if err != nil {
				return nil, fmt.Errorf("fidelity: %s: %w", k, err)
			}
			if err := writeStandIn(dir, conf); err != nil {
				return nil, err
			}
		}
		err := cl.RestartController(ctx, dir)
		var se *localslurm.StartError
		switch {
		case err == nil:
			res.Up = true
			time.Sleep(500 * time.Millisecond) // errors logged just after start
			res.Slurm = append(cl.LogErrors(), cl.SlurmdErrors(slurmdNode)...)
		case errors.As(err, &se):
			res.Slurm = append(se.LogErrors, cl.SlurmdErrors(slurmdNode)...)
			if len(res.Slurm) == 0 || se.Stage != "slurmctld" {
				res.Slurm = append(res.Slurm, oneLine(se.Stage+": "+se.Err.Error()))
			}
		default:
			return nil, fmt.Errorf("fidelity: %s: %w", k, err)
		}
		res.Slurm, res.Harness = splitHarness(res.Slurm, cl.Overrides())
		res.Verdict = classify(&res, o.Warned)
		for _, h := range res.Harness {
			logf("  not counted (harness override): %s", h)
		}
		logf("%s: %s", k, res.Verdict)
		if res.Verdict != BothAccept && res.Verdict != BothRefuse {
			for _, s := range res.Lint {
				logf("  lint: %s", s)
			}
			for _, w := range res.Warned {
				logf("  lint warning: %s: %s", w.Rule, w.Message)
			}
			for _, s := range res.Slurm {
				logf("  slurm: %s", s)
			}
		}
		rep.Results = append(rep.Results, res)
		os.RemoveAll(dir)
	}
	rep.Elapsed = time.Since(began)
	return rep, nil
}

// splitHarness separates the error lines a harness override caused from
// the rest. The slurmd stand-in replaces the cgroup plugins
// (localslurm.Override): with ProctrackType replaced, slurmctld logs "If
// using PrologFlags=Contain for pam_slurm_adopt, proctrack/cgroup is
// required"; with task/cgroup removed, slurmd logs "Limited MemSpecLimit
// support" or "cgroup job confinement not configured" for a node's
// MemSpecLimit (src/slurmd/slurmd/slurmd.c, _resource_spec_init, needs
// task/cgroup and ConstrainRAMSpace). Neither says anything about the spec
// as rendered; nor does power saving without SuspendProgram or
// ResumeProgram, which the service writes.
func splitHarness(lines []string, overrides []localslurm.Override) (kept, harness []string) {
	overridden := map[string]bool{}
	for _, o := range overrides {
		overridden[strings.ToLower(o.Key)] = true
	}
	for _, l := range lines {
		switch {
		case overridden["proctracktype"] && strings.Contains(l, "PrologFlags=Contain") && strings.Contains(l, "proctrack/cgroup") && strings.Contains(l, "is required"):
			// 22.05: "either proctrack/cgroup or proctrack/cray_aries is
			// required"; 24.11+: "proctrack/cgroup is required".
			harness = append(harness, l)
		case overridden["taskplugin"] && (strings.Contains(l, "Limited MemSpecLimit support") || strings.Contains(l, "cgroup job confinement not configured")):
			harness = append(harness, l)
		case strings.Contains(l, "power_save module disabled, NULL SuspendProgram") || strings.Contains(l, "power_save module disabled, NULL ResumeProgram"):
			// The service writes SuspendProgram and ResumeProgram
			// (reserved keys the renderer leaves out); 24.11 logs their
			// absence once a SuspendTime enables power saving (fidelity
			// seed 20261212, SuspendTime=0).
			harness = append(harness, l)
		default:
			kept = append(kept, l)
		}
	}
	return kept, harness
}

// lintSpec runs the pipeline `slurmspec lint --slurm-version V --build debian` runs
// (lint/pipeline: load, schema, compile, every lint rule, suppressions;
// the oracle runs Debian's packages, so plugins are checked against them),
// with the rules in disabled turned off and no project config. It returns
// the compiled cluster (nil when the loader or the schema reported an
// error), the error-level findings and the warnings.
func lintSpec(sch *schema.Schema, name string, data []byte, version string, disabled map[string]bool) (*ir.Cluster, diag.List, diag.List) {
	p, err := pipeline.New(pipeline.Options{SlurmVersion: version, Build: catalog.BuildDebian.String()})
	if err != nil {
		var l diag.List
		l.Errorf("internal-error", diag.Pos{File: name, Line: 1, Col: 1}, "", "", "fidelity: %v", err)
		return nil, l, nil
	}
	s := &pipeline.Settings{Lint: lint.Config{Options: lint.Options{SlurmVersion: version, Build: catalog.BuildDebian.String()}, Disabled: disabled}}
	r, err := p.Analyse(pipeline.Bytes(name, data), pipeline.AnalyseOptions{Schema: sch, Settings: s})
	if err != nil {
		var l diag.List
		l.Errorf("internal-error", diag.Pos{File: name, Line: 1, Col: 1}, "", "", "fidelity: %v", err)
		return nil, l, nil
	}
	return r.Cluster, errorsOf(r.Diags), warningsOf(r.Diags)
}

func errorsOf(l diag.List) diag.List { return ofSeverity(l, diag.Error) }

func warningsOf(l diag.List) diag.List { return ofSeverity(l, diag.Warning) }

func ofSeverity(l diag.List, s diag.Severity) diag.List {
	var out diag.List
	for _, d := range l {
		if d.Severity == s {
			out = append(out, d)
		}
	}
	return out
}

// renderTo renders a cluster for the release into dir, as `slurmspec
// render` writes it, and returns the rendered slurm.conf.
func renderTo(c *ir.Cluster, version, dir string) (string, error) {
	set, l := render.Render(c, render.Options{SlurmVersion: version})
	if l.HasErrors() {
		return "", fmt.Errorf("render: %v", errorsOf(l))
	}
	if err := output.Write(dir, set); err != nil {
		return "", fmt.Errorf("write rendered spec: %w", err)
	}
	f := set.Get("slurm.conf")
	if f == nil {
		return "", errors.New("render: no slurm.conf")
	}
	return string(f.Data), nil
}

// writeStandIn writes the stand-in renderer's slurm.conf into a new dir.
func writeStandIn(dir, conf string) error {
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("stand-in directory: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("stand-in directory: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "slurm.conf"), []byte(conf), 0o644); err != nil {
		return fmt.Errorf("stand-in slurm.conf: %w", err)
	}
	return nil
}
