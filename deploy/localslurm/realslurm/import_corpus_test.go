package realslurm

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/deploy/localslurm"
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
// settings. 24.11 and 26.05 start the corpus too (importedOnSlurm takes
// the release), but `scontrol show` of those releases displays some values
// differently ("(null)" for the none plugins, OverSubscribe=EXCLUSIVE as
// NO), which checkCorpusConfig and checkPartitions do not know yet; they
// are left out until they do.
func TestImportCorpusOnSlurm(t *testing.T) {
	specs := corpusSpecs(t)
	for _, release := range []string{slurmVersion} {
		t.Run(release, func(t *testing.T) {
			requirePrereqsFor(t, release)
			for _, s := range specs {
				t.Run(subtestName(s.name), func(t *testing.T) { importedOnSlurm(t, s, release) })
			}
		})
	}
}

// importedOnSlurm runs one imported spec on one release.
func importedOnSlurm(t *testing.T, s spec, release string) {
	c := lintClean(t, s, release)
	dir, _ := renderSpecVersion(t, c, release)
	cl := start(t, dir, localslurm.Options{Release: release, Accounting: true, StandIns: cloudStandIns(c.cluster)})
	t.Run("accepted", func(t *testing.T) {
		var errs []string
		for _, e := range cl.LogErrors() {
			if why := harnessError(e, cl.Overrides()); why != "" {
				t.Logf("not counted: %s (%s)", e, why)
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

// isObsolete reports a config-key-version warning: the release ignores the
// key or value (obsolete, defunct) and slurmctld logs an error about it.
func isObsolete(d diag.Diagnostic) bool {
	return d.Severity == diag.Warning && d.Rule == "config-key-version" && strings.Contains(d.Path, "config.")
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
