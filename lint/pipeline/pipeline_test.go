package pipeline_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/slurmspec/slurmspec/compiler"
	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/diag/ids"
	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/lint/online"
	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/lint/pipeline/pipelinetest"
	"github.com/slurmspec/slurmspec/lint/rules"
	"github.com/slurmspec/slurmspec/lint/suppress"
	"github.com/slurmspec/slurmspec/schema"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

func write(t *testing.T, path, content string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCatalog: the catalog joins the lint rules, the online checks, the
// ids of slurmspec verify, the suppression comments' ids and the other stages' ids, each of its stage;
// Rules is the lint rules alone.
func TestCatalog(t *testing.T) {
	cat := pipeline.Catalog()
	if n, want := len(cat.IDs()), len(rules.All())+len(online.Entries())+len(online.VerifyEntries())+len(suppress.Entries())+len(ids.Stages()); n != want {
		t.Fatalf("Catalog has %d ids, want %d", n, want)
	}
	for id, stage := range map[string]ids.Stage{"placeholder": ids.Lint, online.RuleCapacity: ids.Online, online.RuleVerifyJobRefused: ids.Online, suppress.RuleUnused: ids.Lint,
		"schema-type": ids.Schema, "load-syntax": ids.Load, "cluster-identity": ids.Compile, "render-unsafe": ids.Render, "usage": ids.Usage} {
		if e, ok := cat.Lookup(id); !ok || e.Stage != stage {
			t.Errorf("Catalog: %s is %+v, want stage %s", id, e, stage)
		}
	}
	if len(pipeline.Rules()) != len(rules.All()) {
		t.Errorf("Rules has %d rules, want the %d lint rules", len(pipeline.Rules()), len(rules.All()))
	}
}

func TestNewChecksOptions(t *testing.T) {
	for _, tc := range []struct {
		opt  pipeline.Options
		want string // "" accepted
	}{
		{pipeline.Options{}, ""},
		{pipeline.Options{Disable: []string{"placeholder", " " + online.RuleCapacity}}, ""},
		{pipeline.Options{Disable: []string{"placeholders"}}, `--disable: unknown rule "placeholders" (did you mean "placeholder"?)`},
		{pipeline.Options{Disable: []string{suppress.RuleUnused}}, ""},
		{pipeline.Options{Disable: []string{"schema-type"}}, "--disable: schema-type cannot be disabled: it is a schema finding, which must be fixed"},
		{pipeline.Options{Disable: []string{"reserved-key"}}, "--disable: rule reserved-key cannot be disabled: "},
		{pipeline.Options{SlurmVersion: "22.05"}, ""},
		{pipeline.Options{SlurmVersion: "21.08"}, "--slurm-version: "},
		{pipeline.Options{Build: "rpm"}, "--build: "},
		{pipeline.Options{InputFormat: "toml"}, "--input-format: "},
		{pipeline.Options{InputFormat: "yaml", Project: "acme-ml-prod", Region: "us-central1", ClusterID: "train"}, ""},
		{pipeline.Options{Project: "123456789"}, ""},
		{pipeline.Options{ClusterID: "Train_1"}, `--cluster-id "Train_1": want 1-10 lowercase letters`},
		{pipeline.Options{ClusterID: "abcdefghijk"}, `--cluster-id "abcdefghijk"`},
		{pipeline.Options{Project: "PROJECT_ID"}, `--project "PROJECT_ID"`},
		{pipeline.Options{Region: "us-central1-a"}, `--region "us-central1-a": want a region`},
		{pipeline.Options{Region: "../x"}, `--region "../x"`},
		{pipeline.Options{ConfigFile: filepath.Join(t.TempDir(), "missing.yaml")}, "read project config"},
	} {
		_, err := pipeline.New(tc.opt)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%+v: %v", tc.opt, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%+v: got %v, want an error containing %q", tc.opt, err, tc.want)
		}
	}
}

// TestSettingsTarget: the target is the flags', else the project
// config's (slurmVersion, build), else catalog.DefaultTarget.
func TestSettingsTarget(t *testing.T) {
	repo := t.TempDir()
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(repo, "deb", ".slurmspec.yaml"), "slurmVersion: \"24.11\"\nbuild: debian\n")
	for _, c := range []struct {
		opt  pipeline.Options
		dir  string
		want catalog.Target
	}{
		{pipeline.Options{}, repo, catalog.DefaultTarget()},
		{pipeline.Options{}, filepath.Join(repo, "deb"), catalog.Target{Release: catalog.V2411, Build: catalog.BuildDebian}},
		{pipeline.Options{Build: "service"}, filepath.Join(repo, "deb"), catalog.Target{Release: catalog.V2411, Build: catalog.BuildService}},
		{pipeline.Options{SlurmVersion: "22.05", Build: "debian"}, repo, catalog.Target{Release: catalog.V2205, Build: catalog.BuildDebian}},
	} {
		p, err := pipeline.New(c.opt)
		if err != nil {
			t.Fatal(err)
		}
		s, err := p.SettingsIn(c.dir)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Target(); got != c.want {
			t.Errorf("%+v in %s: target %v, want %v", c.opt, c.dir, got, c.want)
		}
	}
}

// TestSettingsPerSpec: each spec's project config comes from its own
// directory up to the repository root, merged with the flags (flags win).
func TestSettingsPerSpec(t *testing.T) {
	repo := t.TempDir()
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(repo, ".slurmspec.yaml"), "disable: [placeholder]\nslurmVersion: \"22.05\"\n")
	write(t, filepath.Join(repo, "strict", ".slurmspec.yaml"), "severity: {placeholder: error, filestore-capacity: error}\n")
	p, err := pipeline.New(pipeline.Options{Disable: []string{"unused-pool"}})
	if err != nil {
		t.Fatal(err)
	}
	root, err := p.SettingsFor(filepath.Join(repo, "a", "b", "spec.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !root.Lint.Disabled["placeholder"] || !root.Lint.Disabled["unused-pool"] || root.SlurmVersion() != "22.05" {
		t.Errorf("root config: %+v", root.Lint)
	}
	strict, err := p.SettingsFor(filepath.Join(repo, "strict", "spec.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if strict.Lint.Disabled["placeholder"] || strict.Lint.Severity["placeholder"] != diag.Error || strict.SlurmVersion() != catalog.Newest().String() {
		t.Errorf("nearest config: %+v", strict.Lint)
	}
	// --slurm-version wins over the file; --config replaces the lookup.
	explicit := write(t, filepath.Join(t.TempDir(), "c.yaml"), "disable: [memory-default-missing]\n")
	p, err = pipeline.New(pipeline.Options{SlurmVersion: "23.02", ConfigFile: explicit})
	if err != nil {
		t.Fatal(err)
	}
	s, err := p.SettingsFor(filepath.Join(repo, "spec.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if s.SlurmVersion() != "23.02" || s.Lint.Disabled["placeholder"] || !s.Lint.Disabled["memory-default-missing"] || s.Project.Path != explicit {
		t.Errorf("--config and --slurm-version: %+v, %+v", s.Lint, s.Project)
	}
	// A bad config is the spec's usage error, found when its settings are.
	write(t, filepath.Join(repo, "bad", ".slurmspec.yaml"), "disable: [placeholders]\n")
	p, _ = pipeline.New(pipeline.Options{})
	if _, err := p.SettingsFor(filepath.Join(repo, "bad", "x.yaml")); err == nil || !strings.Contains(err.Error(), `did you mean "placeholder"`) {
		t.Errorf("bad config: %v", err)
	}
}

// TestAnalyseAppliesConfig: a project config's disabled rules and
// severities reach the findings, through one Analyse.
func TestAnalyseAppliesConfig(t *testing.T) {
	repo := t.TempDir()
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	seed, err := os.ReadFile("../../examples/seed.jsonc")
	if err != nil {
		t.Fatal(err)
	}
	plain := write(t, filepath.Join(repo, "plain", "seed.jsonc"), string(seed))
	off := write(t, filepath.Join(repo, "off", "seed.jsonc"), string(seed))
	write(t, filepath.Join(repo, "off", ".slurmspec.yaml"), "disable: [placeholder]\n")
	loud := write(t, filepath.Join(repo, "loud", "seed.jsonc"), string(seed))
	write(t, filepath.Join(repo, "loud", ".slurmspec.yaml"), "severity: {placeholder: error}\n")

	p, err := pipeline.New(pipeline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sch, err := schema.New()
	if err != nil {
		t.Fatal(err)
	}
	count := func(file, rule string, sev diag.Severity) int {
		r, err := p.Analyse(pipeline.File(file, nil), pipeline.AnalyseOptions{Schema: sch})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, d := range r.Diags {
			if d.Rule == rule && d.Severity == sev {
				n++
			}
		}
		return n
	}
	if n := count(plain, "placeholder", diag.Warning); n == 0 {
		t.Fatal("the seed has no placeholder warnings")
	}
	if n := count(off, "placeholder", diag.Warning); n != 0 {
		t.Errorf("disabled by the config, still %d placeholder warnings", n)
	}
	if n := count(loud, "placeholder", diag.Error); n == 0 {
		t.Error("severity: placeholder: error gave no errors")
	}

	// Stream gives the same results, in order.
	var got []string
	err = p.Stream([]string{loud, plain, off}, nil, func(r *pipeline.Result) error {
		got = append(got, r.File+" "+r.Summary())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{loud + " 6 errors, 0 warnings, 1 note", plain + " 0 errors, 6 warnings, 1 note", off + " 0 errors, 0 warnings, 1 note"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Stream: got %q, want %q", got, want)
	}
}

func TestCompile(t *testing.T) {
	sch, err := schema.New()
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := pipeline.Compile(sch, "s.yaml", []byte(pipelinetest.Spec), load.FormatAuto, compiler.Identity{ClusterID: "c"})
	if err != nil || c == nil || len(c.NodePools) != 3 {
		t.Fatalf("got %v, %v", c, err)
	}
	bad := strings.Replace(pipelinetest.Spec, "loginNodePoolId: login", "loginNodePoolId: nosuch", 1)
	_, l, err := pipeline.Compile(sch, "s.yaml", []byte(bad), load.FormatAuto, compiler.Identity{ClusterID: "c"})
	if !errors.Is(err, pipeline.ErrInvalid) || !l.HasErrors() || !strings.Contains(err.Error(), "loginNodePoolId") {
		t.Errorf("invalid spec: %v, %v", err, l)
	}
	if _, _, err := pipeline.Compile(sch, "s.json", []byte("{"), load.FormatJSON, compiler.Identity{}); !errors.Is(err, pipeline.ErrInvalid) {
		t.Errorf("unreadable spec: %v", err)
	}
}

func TestOptionsArgsRoundTrip(t *testing.T) {
	opt := pipeline.Options{InputFormat: "yaml", Project: "acme-ml-prod", Region: "us-central1", ClusterID: "c",
		SlurmVersion: "22.05", Build: "debian", Disable: []string{"a", "b"}, Strict: true, ConfigFile: "x.yaml"}
	var back pipeline.Options
	fs := newFlagSet()
	back.RegisterFlags(fs)
	if err := fs.Parse(opt.Args()); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, opt) {
		t.Errorf("Args round trip: got %+v, want %+v", back, opt)
	}
}

func newFlagSet() *pflag.FlagSet { return pflag.NewFlagSet("t", pflag.ContinueOnError) }
