package realslurm

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/lab/fidelity"
	"github.com/slurmspec/slurmspec/lab/localslurm"
	"github.com/slurmspec/slurmspec/render/importconf"
	"github.com/slurmspec/slurmspec/render/importconf/importtest"
)

// corpusSpecs imports every slurm.conf of testdata/slurmconf (with its
// gres.conf) and makes the decisions the import leaves to a person.
func corpusSpecs(t *testing.T) []spec {
	t.Helper()
	dir := filepath.Join(repoRoot, "testdata", "slurmconf")
	confs, _ := filepath.Glob(filepath.Join(dir, "*", "slurm.conf"))
	singles, _ := filepath.Glob(filepath.Join(dir, "*.conf"))
	var out []spec
	for _, p := range append(confs, singles...) {
		conf, err := importconf.ReadInput(p)
		if err != nil {
			t.Fatal(err)
		}
		var gres []byte
		if filepath.Base(p) == "slurm.conf" {
			gres, err = importconf.ReadInput(filepath.Join(filepath.Dir(p), "gres.conf"))
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				t.Fatal(err)
			}
		}
		name, _ := filepath.Rel(filepath.Join(repoRoot), p)
		imported, _, err := importconf.Import(conf, gres, importconf.Options{IncludeDir: filepath.Dir(p)})
		if err != nil {
			t.Errorf("import %s: %v", name, err)
			continue
		}
		decided, err := importtest.DecideFirst(imported)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		// The spec is YAML: name it so, next to the file it comes from.
		out = append(out, spec{name: filepath.ToSlash(name) + ".yaml", data: decided})
	}
	if len(out) < 20 {
		t.Fatalf("the corpus gave %d specs; it should give at least 20", len(out))
	}
	return out
}

// TestImportCorpusOnSlurm imports every slurm.conf of the corpus, makes
// the decisions the import leaves (importtest.DecideFirst), lints the spec
// for Slurm 22.05 and, as a person following lint would, drops each config
// setting lint reports as an error (every other error fails the test),
// then renders it and starts it on slurmctld 22.05 with slurmdbd: it must
// be accepted (harnessErrors aside) and show its partitions, nodes and
// settings; and the same on 24.11 and 26.05, whose `scontrol show`
// displays some values differently, each difference explained where it is
// allowed (noneShownNull, powerSaveShown).
func TestImportCorpusOnSlurm(t *testing.T) {
	t.Parallel()
	specs := corpusSpecs(t)
	for _, release := range localslurm.Releases() {
		t.Run(release, func(t *testing.T) {
			t.Parallel()
			requirePrereqsFor(t, release)
			for _, s := range specs {
				t.Run(subtestName(s.name), func(t *testing.T) {
					t.Parallel() // each config starts its own cluster: they share nothing
					importedOnSlurm(t, s, release)
				})
			}
		})
	}
}

// importedOnSlurm runs one imported spec on one release.
func importedOnSlurm(t *testing.T, s spec, release string) {
	c := lintClean(t, s, release)
	dir, _ := renderSpecVersion(t, c, release)
	cl := start(t, dir, localslurm.Options{Release: release, Accounting: true, StandIns: cloudStandIns(c.cluster)})
	if accounts, qos := siteAccounts(c), siteQOS(c); len(accounts)+len(qos) > 0 {
		addAccounts(t, cl, dir, accounts, qos)
	}
	warned := fidelity.WarnedRules()
	t.Run("accepted", func(t *testing.T) {
		var errs []string
		for _, e := range cl.LogErrors() {
			if why := harnessError(e, cl.Overrides()); why != "" {
				t.Logf("not counted: %s (%s)", e, why)
				continue
			}
			if w := warnedLine(e, c.diags, warned); w != "" {
				t.Logf("predicted by lint's warning: %s (%s)", e, w)
				continue
			}
			errs = append(errs, e)
		}
		if len(errs) > 0 {
			t.Errorf("slurmctld %s logged error lines for %s:\n  %s", release, s.name, strings.Join(errs, "\n  "))
		}
	})
	t.Run("config", func(t *testing.T) { checkCorpusConfig(t, cl, c) })
	t.Run("partitions", func(t *testing.T) { checkPartitions(t, cl, c) })
	t.Run("nodes", func(t *testing.T) { checkNodes(t, cl, c) })
	t.Run("stop leaves no process", cl.stopAndCheck)
}

// siteAccounts returns the accounts the spec's partitions name
// (AllowAccounts, DenyAccounts). A site creates them in slurmdbd with
// sacctmgr; a fresh database has only root, and slurmctld 24.11 logs
// "accounts_list_build: No association for account X" for each missing one.
func siteAccounts(c compiled) []string {
	return partitionNames(c, "allowaccounts", "denyaccounts")
}

// siteQOS returns the QOS the spec's partitions allow or deny (AllowQos,
// DenyQos) other than normal, which a fresh database has. A site creates
// them with sacctmgr; slurmctld logs "Ignoring invalid Allow/DenyQOS value:
// X" for each missing one (src/slurmctld/read_config.c, all three
// releases) and leaves it out of the partition's list.
func siteQOS(c compiled) []string {
	var out []string
	for _, q := range partitionNames(c, "allowqos", "denyqos") {
		if !strings.EqualFold(q, "normal") {
			out = append(out, q)
		}
	}
	return out
}

// partitionNames returns the names the partitions' list-valued keys hold,
// each once, in order, ALL left out.
func partitionNames(c compiled, keys ...string) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range c.cluster.Slurm.Partitions {
		for _, kv := range p.Config {
			if !slices.Contains(keys, strings.ToLower(kv.Key.Value)) {
				continue
			}
			for a := range strings.SplitSeq(kv.Value.Value, ",") {
				if a = strings.TrimSpace(a); a != "" && !strings.EqualFold(a, "ALL") && !seen[a] {
					seen[a] = true
					out = append(out, a)
				}
			}
		}
	}
	return out
}

// addAccounts creates the site's accounts and QOS in the cluster's
// slurmdbd, as the site did before it started slurmctld, and restarts
// slurmctld (and the stand-ins) on the same rendered directory so that it
// reads them.
func addAccounts(t *testing.T, cl *cluster, dir string, accounts, qos []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, a := range accounts {
		if out, err := cl.Command(ctx, "sacctmgr", "-i", "add", "account", a).CombinedOutput(); err != nil {
			t.Fatalf("sacctmgr add account %s: %v\n%s", a, err, out)
		}
	}
	for _, q := range qos {
		if out, err := cl.Command(ctx, "sacctmgr", "-i", "add", "qos", q).CombinedOutput(); err != nil {
			t.Fatalf("sacctmgr add qos %s: %v\n%s", q, err, out)
		}
	}
	t.Logf("added what the partitions name (accounts: %s; QOS: %s); restarting slurmctld", orNone(accounts), orNone(qos))
	if err := cl.RestartController(ctx, dir); err != nil {
		t.Fatalf("restart slurmctld after adding the accounts: %v", err)
	}
}

// lintClean compiles and lints a spec for a release; each error-level finding
// about a config setting, and each config-key-version warning (a key or value
// that release ignores as obsolete or defunct, which slurmctld logs as an
// error), removes that setting's line (and is logged), as a person acting on
// lint would; any other error fails the test.
func lintClean(t *testing.T, s spec, release string) compiled {
	t.Helper()
	for round := 0; ; round++ {
		c := compileSpecVersion(t, s, release)
		if c.cluster != nil && !c.diags.HasErrors() && !hasObsolete(c.diags) {
			return c
		}
		lines := strings.Split(string(s.data), "\n")
		drop := map[int]bool{}
		for _, d := range c.diags {
			if d.Severity != diag.Error && !isObsolete(d) {
				continue
			}
			if !strings.Contains(d.Path, "config.") || d.Pos.Line < 1 || d.Pos.Line > len(lines) || round > 5 {
				t.Fatalf("the imported spec has an error a person cannot fix by dropping a setting:\n  %s\n--- spec\n%s", d, s.data)
			}
			t.Logf("lint: %s; dropping %q", d, strings.TrimSpace(lines[d.Pos.Line-1]))
			drop[d.Pos.Line-1] = true
		}
		var kept []string
		for i, l := range lines {
			if !drop[i] {
				kept = append(kept, l)
			}
		}
		s.data = []byte(strings.Join(kept, "\n"))
	}
}

// isObsolete reports a warning that the release ignores a config key or
// value: a config-key-version warning (obsolete, defunct), or an
// invalid-config-value warning for a value that is defunct ("defunct
// option: Slurm logs an error and ignores it", CommunicationParameters=
// NoAddrCache from 23.11) or has no effect ("PrivateData value "cloud" has
// no effect in 24.11", shown as none), or a plugin the release's Debian
// packages do not ship (acct_gather_interconnect/ofed before 26.05:
// slurmctld exits, "cannot find acct_gather_interconnect plugin"; the
// oracle's "warned, this build lacks the plugin"). A person acting on lint
// removes it.
func isObsolete(d diag.Diagnostic) bool {
	if d.Severity != diag.Warning || !strings.Contains(d.Path, "config.") {
		return false
	}
	if strings.Contains(d.Message, "packages do not ship this plugin") {
		return true
	}
	switch d.Rule {
	case "config-key-version":
		return true
	case "invalid-config-value":
		return strings.Contains(d.Message, "defunct") || strings.Contains(d.Message, "has no effect")
	}
	return false
}

// hasObsolete reports whether any diagnostic is such a warning.
func hasObsolete(ds diag.List) bool {
	for _, d := range ds {
		if isObsolete(d) {
			return true
		}
	}
	return false
}

// warnedLine returns the warning of lint that predicts an error line
// slurmctld logged, or "": a warning of a rule the differential oracle
// accepts as the answer to such a line (fidelity.WarnedRules, decided in
// docs/fidelity.md, "Warnings slurmctld logs as errors"), whose line
// matches the rule's Logs and, for a rule whose lines name the key, names
// the key the warning is about. A person reads the warning and may keep
// the setting (a site's Unix group this host lacks, an
// UnkillableStepTimeout below 5×MessageTimeout), as the oracle counts it.
func warnedLine(line string, ds diag.List, warned map[string]fidelity.WarnedRule) string {
	lower := strings.ToLower(line)
	for _, d := range ds {
		r, ok := warned[d.Rule]
		if !ok || d.Severity != diag.Warning {
			continue
		}
		key := configKeyOf(d.Path)
		if key != "" && (!r.NamesKey || strings.Contains(lower, strings.ToLower(key))) && r.Logs.MatchString(line) {
			return d.Rule + ": " + d.Message
		}
	}
	return ""
}

// configKeyOf returns the config key a spec path names
// (orchestratorSpec.slurmSpec.partitions[2].config.AllowGroups:
// AllowGroups), or "".
func configKeyOf(path string) string {
	i := strings.LastIndex(path, ".config.")
	if i < 0 {
		return ""
	}
	key := path[i+len(".config."):]
	if j := strings.IndexAny(key, ".["); j >= 0 {
		key = key[:j]
	}
	return key
}

// orNone joins names with commas, or says "none".
func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ",")
}

// harnessError says why an error line of slurmctld comes from running the
// rendered file on this host rather than from the spec, or "".
func harnessError(line string, overrides []localslurm.Override) string {
	overridden := func(key string) bool {
		for _, o := range overrides {
			if strings.EqualFold(o.Key, key) {
				return true
			}
		}
		return false
	}
	switch {
	case strings.Contains(line, "power_save module disabled, NULL SuspendProgram"):
		// SuspendProgram is a reserved key: the service sets it, the
		// rendered file does not, so power saving is off here.
		return "SuspendProgram is the service's, not in the rendered file"
	case strings.Contains(line, "PrologFlags=Contain") && overridden("ProctrackType"):
		return "the harness replaced ProctrackType"
	}

	return ""
}

// shownAs lists how `scontrol show config` of Slurm 22.05 shows a value
// other than as written: the written value must be a part of it.
var shownAs = map[string]string{
	// Contain implies Alloc, which Slurm adds.
	"prologflags": "a superset",
	// slurmctld prepends its default TRES.
	"accountingstoragetres": "a superset",
	// DEPTH_OBLIVIOUS sets NO_FAIR_TREE, which Slurm shows (22.05, 24.11).
	"priorityflags": "a superset",
}

// noneShownNull lists, per release, the plugin keys whose value slurmctld
// drops when it holds "none" anywhere (xstrcasestr, so "task/none" and
// "jobcomp/none" alike; MpiDefault also drops "openmpi"): the configuration
// then holds no plugin, and `scontrol show config` prints "(null)". Read in
// src/common/read_config.c, _validate_and_set_defaults: since 23.11
// (slurm-23-11-0-1); 22.05 keeps the value. 26.05 (slurm-26-05-3-1) has
// NamespaceType (JobContainerType is read into it) and no longer nulls
// TopologyPlugin.
// TopologyPlugin is nulled too, but then set to its default (topologyShown).
var noneShownNull = map[string]map[string]bool{
	"24.11": setOf("acctgatherenergytype", "acctgatherprofiletype", "acctgatherinterconnecttype", "acctgatherfilesystemtype",
		"clifilterplugins", "jobacctgathertype", "jobcomptype", "jobcontainertype", "mcsplugin", "mpidefault",
		"accountingstoragetype", "prioritysitefactorplugin", "switchtype", "taskplugin"),
	"26.05": setOf("acctgatherenergytype", "acctgatherprofiletype", "acctgatherinterconnecttype", "acctgatherfilesystemtype",
		"clifilterplugins", "jobacctgathertype", "jobcomptype", "jobcontainertype", "namespacetype", "mcsplugin", "mpidefault",
		"accountingstoragetype", "prioritysitefactorplugin", "switchtype", "taskplugin"),
}

func setOf(keys ...string) map[string]bool {
	m := map[string]bool{}
	for _, k := range keys {
		m[k] = true
	}
	return m
}

// shownNull reports whether slurmctld of the release holds no plugin for
// key=value and so shows "(null)" (noneShownNull).
func shownNull(release, key, value string) bool {
	v := strings.ToLower(value)
	return noneShownNull[release][key] && (strings.Contains(v, "none") || key == "mpidefault" && strings.Contains(v, "openmpi"))
}

// topologyShown reports whether slurmctld of the release holds the
// default topology plugin for a TopologyPlugin value that names none, and
// shows it: 24.11 drops a value containing "none" and sets
// topology/default (src/common/read_config.c at slurm-24-11-5-1); 26.05
// maps none, default, topology/none and topology/default to topology/flat
// (slurm-26-05-3-1).
func topologyShown(release, key, want, got string) bool {
	if key != "topologyplugin" {
		return false
	}
	w := strings.ToLower(want)
	switch release {
	case "24.11":
		return strings.Contains(w, "none") && got == "topology/default"
	case "26.05":
		return (w == "none" || w == "default" || w == "topology/none" || w == "topology/default") && got == "topology/flat"
	}
	return false
}

// taskParamShown reports whether 22.05 shows TaskPluginParam as written
// but for SlurmdOffSpec: read_config.c sets it (SLURMD_OFF_SPEC), but
// `scontrol show config` prints the value with slurm_sprint_cpu_bind_type
// (src/api/config_info.c, src/common/slurm_resource_info.c at
// slurm-22-05-8-1), which knows only the binding bits and prints "(null
// type)" when none is set. 24.11 prints it with _sprint_task_plugin_params,
// which names SlurmdOffSpec.
func taskParamShown(release, key, want, got string) bool {
	if release != "22.05" || key != "taskpluginparam" {
		return false
	}
	var rest []string
	for item := range strings.SplitSeq(want, ",") {
		if item = strings.TrimSpace(item); item != "" && !strings.EqualFold(item, "SlurmdOffSpec") {
			rest = append(rest, item)
		}
	}
	if len(rest) == 0 {
		return got == "(null type)"
	}
	return sameValue(strings.Join(rest, ","), got)
}

// preemptNoneNull reports whether slurmctld of the release holds no
// preemption plugin for PreemptType=preempt/none and so shows "(null)":
// _validate_and_set_defaults in src/common/read_config.c frees the value
// when it is exactly preempt/none (xstrcmp; read at slurm-24-11-5-1 and
// slurm-26-05-3-1); 22.05 keeps it.
func preemptNoneNull(release, key, want string) bool {
	return key == "preempttype" && want == "preempt/none" && (release == "24.11" || release == "26.05")
}

// partLimitsShown reports whether EnforcePartLimits is shown as Slurm
// names the value it reads: parse_part_enforce_type
// (src/common/slurm_protocol_defs.c, the same in 22.05 and 26.05) reads
// yes, up, true, 1 and any as ANY, no, down, false and 0 as NO (none), all
// as ALL, and `scontrol show config` prints ANY, NO or ALL.
func partLimitsShown(key, want, got string) bool {
	if key != "enforcepartlimits" {
		return false
	}
	switch strings.ToLower(want) {
	case "yes", "up", "true", "1", "any":
		return got == "ANY"
	case "no", "down", "false", "0":
		return got == "NO"
	case "all":
		return got == "ALL"
	}
	return false
}

// enforceImplies lists what each AccountingStorageEnforce item sets besides
// itself, as _validate_accounting_storage_enforce in
// src/common/read_config.c does (the same at slurm-22-05-8-1,
// slurm-24-11-5-1 and slurm-26-05-3-1); `scontrol show config` prints every
// flag set. "all" is left out: it prints every flag.
var enforceImplies = map[string][]string{
	"1":       {"associations"},
	"2":       {"associations", "limits"},
	"limits":  {"associations"},
	"safe":    {"associations", "limits"},
	"wckeys":  {"associations"},
	"qos":     {"associations"},
	"nojobs":  {"nosteps"},
	"nosteps": nil,
}

// enforceShown reports whether AccountingStorageEnforce is shown as the
// written items with what each implies (enforceImplies), exactly.
func enforceShown(key, want, got string) bool {
	if key != "accountingstorageenforce" {
		return false
	}
	var items []string
	for item := range strings.SplitSeq(strings.ToLower(want), ",") {
		item = strings.TrimSpace(item)
		implied, ok := enforceImplies[item]
		if item == "1" || item == "2" {
			items = append(items, implied...)
			continue
		}
		if !ok && item != "associations" {
			return false
		}
		items = append(append(items, item), implied...)
	}
	return sameSet(items, strings.Split(got, ","))
}

// memUnlimitedShown reports whether a partition's memory limit of 0 (no
// limit) is shown as Slurm shows it: UNLIMITED. src/api/partition_info.c
// prints DefMemPerCPU/MaxMemPerCPU=UNLIMITED for 0 per CPU and
// DefMemPerNode/MaxMemPerNode=UNLIMITED for 0 per node (all three
// releases).
func memUnlimitedShown(key, want, got string) bool {
	switch strings.ToLower(key) {
	case "defmempercpu", "maxmempercpu", "defmempernode", "maxmempernode":
		return strings.TrimSpace(want) == "0" && got == "UNLIMITED"
	}
	return false
}

// overSubscribeShown reports whether a partition's OverSubscribe=YES or
// FORCE without a job count is shown with the count Slurm gives it, 4
// (slurm.conf(5), "the default value is 4"; YES:4 seen on 22.05 and
// 24.11).
func overSubscribeShown(key, want, got string) bool {
	w := strings.ToUpper(strings.TrimSpace(want))
	return strings.EqualFold(key, "OverSubscribe") && (w == "YES" || w == "FORCE") && got == w+":4"
}

// propagateShown reports whether PropagateResourceLimits=ALL is shown as
// Slurm 22.05 and 24.11 show it, "(null)": ALL is the default, which
// slurmctld holds as no list (seen on both).
func propagateShown(key, want, got string) bool {
	return key == "propagateresourcelimits" && strings.EqualFold(strings.TrimSpace(want), "ALL") && got == "(null)"
}

// notShown are keys `scontrol show config` of Slurm 22.05 does not list.
var notShown = map[string]bool{"defmempergpu": true}

// checkCorpusConfig compares `scontrol show config` with every config key
// of the spec (what the import carried over), as checkConfig does for the
// spec's keys, knowing shownAs and notShown.
func checkCorpusConfig(t *testing.T, cl *cluster, c compiled) {
	cfg, err := cl.ShowConfig()
	if err != nil {
		t.Fatal(err)
	}
	overridden := map[string]bool{}
	for _, ov := range cl.Overrides() {
		overridden[strings.ToLower(ov.Key)] = true
	}
	for _, kv := range c.cluster.Slurm.Config {
		key, want := kv.Key.Value, kv.Value.Value
		lower := strings.ToLower(key)
		if overridden[lower] || notShown[lower] {
			continue
		}
		if k, ok := showConfigKey[lower]; ok {
			key = k
		}
		shown, got, ok := lookupFold(cfg, key)
		switch {
		case !ok:
			t.Errorf("config %s=%s: slurmctld does not show %s", kv.Key.Value, want, key)
		case shownAs[lower] != "" && sameSet(intersect(strings.Split(want, ","), strings.Split(got, ",")), strings.Split(want, ",")):
		case boolValue(want) != "" && boolValue(want) == boolValue(got):
		case strings.HasSuffix(lower, "debug") && debugLevel(want) == strings.ToLower(got):
		case got == "(null)" && shownNull(cl.Release().Series, lower, want):
		case topologyShown(cl.Release().Series, lower, want, got):
		case taskParamShown(cl.Release().Series, lower, want, got):
		case enforceShown(lower, want, got):
		case partLimitsShown(lower, want, got):
		case got == "(null)" && preemptNoneNull(cl.Release().Series, lower, want):
		case propagateShown(lower, want, got):
		case !sameValue(want, got):
			t.Errorf("config %s=%s: slurmctld shows %s = %q", kv.Key.Value, want, shown, got)
		}
	}
}

// boolValue reads a Slurm boolean (YES/NO, TRUE/FALSE, UP/DOWN, 1/0) as
// "yes" or "no", or "" for anything else.
func boolValue(s string) string {
	switch strings.ToLower(s) {
	case "yes", "true", "up", "1":
		return "yes"
	case "no", "false", "down", "0":
		return "no"
	}
	return ""
}

// debugLevel names a numeric debug level (SlurmctldDebug=3 is "info"),
// as slurmctld shows it; a name is returned lower-cased.
func debugLevel(s string) string {
	names := []string{"quiet", "fatal", "error", "info", "verbose", "debug", "debug2", "debug3", "debug4", "debug5"}
	if n, err := strconv.Atoi(s); err == nil && n >= 0 && n < len(names) {
		return names[n]
	}
	return strings.ToLower(s)
}

// intersect returns the items of a found in b (case-insensitive).
func intersect(a, b []string) []string {
	var out []string
	for _, x := range a {
		for _, y := range b {
			if strings.EqualFold(strings.TrimSpace(x), strings.TrimSpace(y)) {
				out = append(out, x)
				break
			}
		}
	}
	return out
}

// TestImportCorpusNamesSubtests keeps subtest names apart.
func TestImportCorpusNamesSubtests(t *testing.T) {
	seen := map[string]string{}
	for _, s := range corpusSpecs(t) {
		n := subtestName(s.name)
		if prev, dup := seen[n]; dup {
			t.Errorf("%s and %s share the subtest name %s", prev, s.name, n)
		}
		seen[n] = s.name
		if strings.Contains(n, " ") {
			t.Errorf("subtest name %q holds a space", n)
		}
	}
}

// TestShownDifferences pins the display differences the corpus test
// allows (each explained by Slurm's source where it is defined) and what
// they must not allow.
func TestShownDifferences(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"24.11 jobcomp/none", shownNull("24.11", "jobcomptype", "jobcomp/none")},
		{"26.05 task/none", shownNull("26.05", "taskplugin", "task/none")},
		{"24.11 MpiDefault=openmpi", shownNull("24.11", "mpidefault", "openmpi")},
		{"24.11 topology/none", topologyShown("24.11", "topologyplugin", "topology/none", "topology/default")},
		{"26.05 topology/default", topologyShown("26.05", "topologyplugin", "topology/default", "topology/flat")},
		{"22.05 SlurmdOffSpec", taskParamShown("22.05", "taskpluginparam", "SlurmdOffSpec", "(null type)")},
		{"22.05 SlurmdOffSpec,verbose", taskParamShown("22.05", "taskpluginparam", "SlurmdOffSpec,Verbose", "verbose")},
		{"26.05 EXCLUSIVE", exclusiveShown("OverSubscribe", "EXCLUSIVE", localslurm.Fields{"OverSubscribe": "NO", "Exclusive": "NODE"})},
		{"26.05 ExclusiveUser", exclusiveShown("ExclusiveUser", "YES", localslurm.Fields{"OverSubscribe": "NO", "Exclusive": "USER"})},
		{"24.11 preempt/none", preemptNoneNull("24.11", "preempttype", "preempt/none")},
		{"EnforcePartLimits=YES", partLimitsShown("enforcepartlimits", "YES", "ANY")},
		{"EnforcePartLimits=0", partLimitsShown("enforcepartlimits", "0", "NO")},
		{"nojobs implies nosteps", enforceShown("accountingstorageenforce", "associations,limits,qos,safe,nojobs", "associations,limits,nojobs,nosteps,qos,safe")},
		{"safe implies limits and associations", enforceShown("accountingstorageenforce", "safe", "associations,limits,safe")},
		{"MaxMemPerCPU=0", memUnlimitedShown("MaxMemPerCPU", "0", "UNLIMITED")},
		{"OverSubscribe=YES", overSubscribeShown("OverSubscribe", "YES", "YES:4")},
		{"PropagateResourceLimits=ALL", propagateShown("propagateresourcelimits", "ALL", "(null)")},
	} {
		if !tc.ok {
			t.Errorf("%s: not allowed, want allowed", tc.name)
		}
	}
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"22.05 keeps jobcomp/none", shownNull("22.05", "jobcomptype", "jobcomp/none")},
		{"24.11 a real plugin", shownNull("24.11", "jobcomptype", "jobcomp/filetxt")},
		{"24.11 TopologyPlugin is not null", shownNull("24.11", "topologyplugin", "topology/none")},
		{"26.05 topology/tree", topologyShown("26.05", "topologyplugin", "topology/tree", "topology/flat")},
		{"24.11 SlurmdOffSpec", taskParamShown("24.11", "taskpluginparam", "SlurmdOffSpec", "(null type)")},
		{"22.05 a lost binding", taskParamShown("22.05", "taskpluginparam", "SlurmdOffSpec,Verbose", "(null type)")},
		{"before 26.05 no Exclusive field", exclusiveShown("OverSubscribe", "EXCLUSIVE", localslurm.Fields{"OverSubscribe": "NO"})},
		{"26.05 EXCLUSIVE lost", exclusiveShown("OverSubscribe", "EXCLUSIVE", localslurm.Fields{"OverSubscribe": "NO", "Exclusive": "NO"})},
		{"26.05 ExclusiveUser lost", exclusiveShown("ExclusiveUser", "YES", localslurm.Fields{"OverSubscribe": "NO", "Exclusive": "NO"})},
		{"22.05 keeps preempt/none", preemptNoneNull("22.05", "preempttype", "preempt/none")},
		{"EnforcePartLimits=YES is not ALL", partLimitsShown("enforcepartlimits", "YES", "ALL")},
		{"EnforcePartLimits=ALL lost", partLimitsShown("enforcepartlimits", "ALL", "NO")},
		{"26.05 a real preemption plugin", preemptNoneNull("26.05", "preempttype", "preempt/qos")},
		{"nosteps does not imply nojobs", enforceShown("accountingstorageenforce", "nosteps", "nojobs,nosteps")},
		{"an enforcement lost", enforceShown("accountingstorageenforce", "associations,limits,qos", "associations,limits")},
		{"an enforcement added", enforceShown("accountingstorageenforce", "associations", "associations,qos")},
		{"MaxMemPerCPU=100", memUnlimitedShown("MaxMemPerCPU", "100", "UNLIMITED")},
		{"MaxTime=0", memUnlimitedShown("MaxTime", "0", "UNLIMITED")},
		{"OverSubscribe=YES:2", overSubscribeShown("OverSubscribe", "YES", "YES:2")},
		{"PropagateResourceLimits=CORE", propagateShown("propagateresourcelimits", "CORE", "(null)")},
	} {
		if tc.ok {
			t.Errorf("%s: allowed, want a difference", tc.name)
		}
	}
}

// TestWarnedLine pins which error lines of slurmctld a warning of lint
// explains in the corpus test, and which it must not.
func TestWarnedLine(t *testing.T) {
	warned := fidelity.WarnedRules()
	groups := diag.Diagnostic{Rule: "partition-groups", Severity: diag.Warning, Path: "orchestratorSpec.slurmSpec.partitions[4].config.AllowGroups"}
	unkillable := diag.Diagnostic{Rule: "message-timeout", Severity: diag.Warning, Path: "orchestratorSpec.slurmSpec.config.UnkillableStepTimeout"}
	obsolete := diag.Diagnostic{Rule: "config-key-version", Severity: diag.Warning, Path: "orchestratorSpec.slurmSpec.config.FastSchedule"}
	const groupLine = "slurmctld: error: _get_group_members: Could not find configured group longrun"
	const timeoutLine = `slurmctld: error: UnkillableStepTimeout must be at least 5 times greater than MessageTimeout, otherwise nodes may go down with the reason "KillTaskFailed". Current values: UnkillableStepTimeout=180, MessageTimeout=60`
	for _, tc := range []struct {
		name string
		line string
		ds   diag.List
		want bool
	}{
		{"a group warned about", groupLine, diag.List{groups}, true},
		{"UnkillableStepTimeout warned about", timeoutLine, diag.List{unkillable}, true},
		{"no warning", groupLine, nil, false},
		{"another rule's warning", groupLine, diag.List{unkillable}, false},
		{"an error, not a warning", groupLine, diag.List{{Rule: "partition-groups", Severity: diag.Error, Path: groups.Path}}, false},
		{"a rule that names its key, another key", "slurmctld: error: Ignoring obsolete SchedulerPort option.", diag.List{obsolete}, false},
		{"a rule that names its key, its key", "slurmctld: error: Ignoring obsolete FastSchedule=1 option.", diag.List{obsolete}, true},
	} {
		if got := warnedLine(tc.line, tc.ds, warned) != ""; got != tc.want {
			t.Errorf("%s: explained %v, want %v", tc.name, got, tc.want)
		}
	}
	if k := configKeyOf("orchestratorSpec.slurmSpec.partitions[2].config.AllowGroups"); k != "AllowGroups" {
		t.Errorf("configKeyOf = %q", k)
	}
}
