package lint_test

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/diag/ids"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/lint"
)

// testRules is a small catalog for Check and Apply: three lint rules and
// a schema id.
var testRules = ids.MustNew(lint.Entries([]*lint.Rule{
	{ID: "unused-pool", Severity: diag.Warning, Summary: "s", Doc: "d", Check: func(*lint.Pass) {}},
	{ID: "placeholder", Severity: diag.Warning, Summary: "s", Doc: "d", Check: func(*lint.Pass) {}},
	{ID: "reserved-key", Severity: diag.Error, Summary: "s", Doc: "d", Check: func(*lint.Pass) {}},
}), []ids.Entry{{ID: "schema-type", Stage: ids.Schema, Severity: diag.Error, Summary: "s", Doc: "d"}})

func write(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadProjectConfig(t *testing.T) {
	dir := t.TempDir()
	path := write(t, dir, ".slurmspec.yaml", `# project lint settings
disable: [placeholder]
severity:
  unused-pool: error
  reserved-key: warn
slurmVersion: 22.05.8
`)
	pc, err := lint.LoadProjectConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	want := lint.ProjectConfig{Path: path, Disable: []string{"placeholder"},
		Severity:     map[string]diag.Severity{"unused-pool": diag.Error, "reserved-key": diag.Warning},
		SlurmVersion: "22.05"}
	if !reflect.DeepEqual(pc, want) {
		t.Errorf("got %+v, want %+v", pc, want)
	}
	if err := pc.Check(testRules); err != nil {
		t.Error(err)
	}
}

func TestLoadProjectConfigUnquotedVersion(t *testing.T) {
	pc, err := lint.ParseProjectConfig("x.yaml", []byte("slurmVersion: 23.02\n"))
	if err != nil || pc.SlurmVersion != "23.02" {
		t.Errorf("got %+v, %v; want version 23.02", pc, err)
	}
}

func TestLoadProjectConfigBuild(t *testing.T) {
	pc, err := lint.ParseProjectConfig("x.yaml", []byte("build: Debian\n"))
	if err != nil || pc.Build != "debian" {
		t.Errorf("got %+v, %v; want build debian", pc, err)
	}
	if _, err := lint.ParseProjectConfig("x.yaml", []byte("build: rpm\n")); err == nil || !strings.Contains(err.Error(), "build: unknown build \"rpm\"") {
		t.Errorf("build: rpm: %v", err)
	}
	cfg, err := pc.Apply(lint.Config{}, testRules)
	if err != nil || cfg.Build != "debian" {
		t.Errorf("Apply: %+v, %v", cfg, err)
	}
	cfg, _ = pc.Apply(lint.Config{Options: lint.Options{Build: "service"}}, testRules)
	if cfg.Build != "service" {
		t.Errorf("the command line's build should win, got %q", cfg.Build)
	}
}

func TestLoadProjectConfigEmpty(t *testing.T) {
	for _, text := range []string{"", "# nothing\n", "{}\n"} {
		pc, err := lint.ParseProjectConfig("x.yaml", []byte(text))
		if err != nil || len(pc.Disable) != 0 || pc.Severity != nil || pc.SlurmVersion != "" {
			t.Errorf("%q: got %+v, %v; want an empty config", text, pc, err)
		}
	}
}

// TestProjectConfigPatterns: include and exclude are kept as written, for
// compiler/load/discover.
func TestProjectConfigPatterns(t *testing.T) {
	pc, err := lint.ParseProjectConfig("x.yaml", []byte("include: [drafts/*.yaml]\nexclude: [testdata/, '!testdata/keep.yaml']\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(pc.Include, []string{"drafts/*.yaml"}) || !slices.Equal(pc.Exclude, []string{"testdata/", "!testdata/keep.yaml"}) {
		t.Errorf("include %q, exclude %q", pc.Include, pc.Exclude)
	}
}

func TestLoadProjectConfigErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"disabled: [placeholder]\n", `line 1: unknown key "disabled" (known keys:`},
		{"disable: placeholder\n", "cannot unmarshal"},
		{"severity: {unused-pool: fatal}\n", "unknown severity \"fatal\""},
		{"slurmVersion: \"21.08\"\n", "series 21.08 is not in the catalog"},
		{"disable: [placeholder, placeholder]\n", "listed twice"},
		{"disable: [\"\"]\n", "empty rule id"},
		{"disable: [a]\n---\ndisable: [b]\n", "single YAML document"},
		{"disable: [\n", "project config x.yaml"},
		{"include: [\"\"]\n", "include: empty pattern"},
		{"exclude: [\"#notes.yaml\"]\n", "reads as a comment"},
		{"exclude: \"a\\nb\"\n", "cannot unmarshal"},
		{"exclude: [\"a\\nb\"]\n", "a pattern is one line"},
		{"disable: [\"\", a, a]\n", "project config x.yaml: disable: empty rule id; disable: a is listed twice"},
		{"disabled: []\nseverity: []\n", `project config x.yaml: line 1: unknown key "disabled"; line 2: cannot unmarshal`},
	} {
		_, err := lint.ParseProjectConfig("x.yaml", []byte(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got error %v, want one containing %q", tc.text, err, tc.want)
		}
		// One line: the CLIs print an error escaped, where a line break
		// would show as \n (as it does, rightly, inside a value the
		// decoder quotes: exclude: "a\nb").
		if err != nil && strings.Contains(strings.ReplaceAll(err.Error(), "a\nb", ""), "\n") {
			t.Errorf("%q: error %q spans lines", tc.text, err)
		}
	}
	if _, err := lint.LoadProjectConfig(filepath.Join(t.TempDir(), "missing.yaml")); err == nil {
		t.Error("missing file: no error")
	}
}

func TestProjectConfigUnknownRules(t *testing.T) {
	pc := lint.ProjectConfig{Path: "p.yaml", Disable: []string{"unused-pools"}, Severity: map[string]diag.Severity{"nope": diag.Error}}
	err := pc.Check(testRules)
	if err == nil {
		t.Fatal("no error for unknown rule ids")
	}
	if strings.Contains(err.Error(), "\n") {
		t.Errorf("error %q spans lines", err)
	}
	for _, want := range []string{`disable: unknown rule "unused-pools" (did you mean "unused-pool"?)`, `severity: unknown rule "nope"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if _, err := pc.Apply(lint.Config{}, testRules); err == nil {
		t.Error("Apply accepted unknown rule ids")
	}
	// An id of another stage is known to the catalog, but its findings
	// must be fixed: neither disable: nor severity: may name it.
	pc = lint.ProjectConfig{Path: "p.yaml", Disable: []string{"schema-type"}, Severity: map[string]diag.Severity{"schema-type": diag.Warning}}
	err = pc.Check(testRules)
	for _, want := range []string{"schema-type cannot be disabled: it is a schema finding", "schema-type cannot change severity"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("stage id in the config: error %v lacks %q", err, want)
		}
	}
}

func TestProjectConfigApply(t *testing.T) {
	pc := lint.ProjectConfig{Disable: []string{"placeholder"}, SlurmVersion: "22.05"}
	base := lint.Config{Disabled: map[string]bool{"unused-pool": true}}
	cfg, err := pc.Apply(base, testRules)
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.Disabled["placeholder"] || !cfg.Disabled["unused-pool"] || cfg.SlurmVersion != "22.05" {
		t.Errorf("got %+v", cfg)
	}
	if base.Disabled["placeholder"] {
		t.Error("Apply modified its argument")
	}
	cfg, _ = pc.Apply(lint.Config{Options: lint.Options{SlurmVersion: "26.05"}}, testRules)
	if cfg.SlurmVersion != "26.05" {
		t.Errorf("the command line's version should win, got %q", cfg.SlurmVersion)
	}
}

func TestProjectConfigSeverity(t *testing.T) {
	pc := lint.ProjectConfig{Severity: map[string]diag.Severity{"unused-pool": diag.Error, "reserved-key": diag.Info}}
	cfg, err := pc.Apply(lint.Config{}, testRules)
	if err != nil {
		t.Fatal(err)
	}
	in := diag.List{{Rule: "unused-pool", Severity: diag.Warning}, {Rule: "reserved-key", Severity: diag.Error}, {Rule: "placeholder", Severity: diag.Warning}}
	out := cfg.Adjust(in)
	got := []diag.Severity{out[0].Severity, out[1].Severity, out[2].Severity}
	if want := []diag.Severity{diag.Error, diag.Info, diag.Warning}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if in[0].Severity != diag.Warning {
		t.Error("Adjust modified its argument")
	}
	// lint.Run applies the overrides itself.
	rules := []*lint.Rule{{ID: "unused-pool", Severity: diag.Warning, Check: func(p *lint.Pass) { p.Report(diag.Pos{}, "", "", "x") }}}
	if l := lint.Run(&ir.Cluster{}, rules, cfg); len(l) != 1 || l[0].Severity != diag.Error {
		t.Errorf("Run with a severity override: %v", l)
	}
}

func TestFindProjectConfig(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	write(t, repo, ".git/HEAD", "ref: refs/heads/main\n")
	deep := filepath.Join(repo, "clusters", "prod")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	// A config above the repository root is never used.
	write(t, root, ".slurmspec.yaml", "disable: [placeholder]\n")
	if got, err := lint.FindProjectConfig(deep); err != nil || got != "" {
		t.Errorf("without a config in the repo: got %q, %v", got, err)
	}
	atRoot := write(t, repo, ".slurmspec.yaml", "{}\n")
	if got, err := lint.FindProjectConfig(deep); err != nil || got != atRoot {
		t.Errorf("got %q, %v; want %q", got, err, atRoot)
	}
	nearer := write(t, filepath.Join(repo, "clusters"), ".slurmspec.yaml", "{}\n")
	if got, err := lint.FindProjectConfig(deep); err != nil || got != nearer {
		t.Errorf("got %q, %v; want the nearest %q", got, err, nearer)
	}
	// A directory between the spec and the root without a config is
	// passed through; the root's own config applies from anywhere below.
	if got, err := lint.FindProjectConfig(filepath.Join(repo, "other", "x")); err != nil || got != atRoot {
		t.Errorf("got %q, %v; want %q", got, err, atRoot)
	}
}

// TestFindProjectConfigMissingSpecDir: a spec path through a file or a
// missing directory is the loader's to report, not a config error.
func TestFindProjectConfigMissingSpecDir(t *testing.T) {
	dir := t.TempDir()
	file := write(t, dir, "spec.yaml", "{}\n")
	for _, d := range []string{file, filepath.Join(dir, "missing", "deeper")} {
		if got, err := lint.FindProjectConfig(d); err != nil || got != "" {
			t.Errorf("FindProjectConfig(%s) = %q, %v", d, got, err)
		}
	}
}

// TestFindProjectConfigOutsideRepo is the regression test of #15 item 4: a
// .slurmspec.yaml planted in a shared parent directory (as in the system
// temp dir) must not apply to specs below it that are not in a
// repository; only the spec's own directory counts.
func TestFindProjectConfigOutsideRepo(t *testing.T) {
	shared := t.TempDir()
	write(t, shared, ".slurmspec.yaml", "disable: [reserved-key]\n")
	spec := filepath.Join(shared, "alice", "cluster")
	if err := os.MkdirAll(spec, 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := lint.FindProjectConfig(spec); err != nil || got != "" {
		t.Errorf("a config in a parent outside any repository was found: %q, %v", got, err)
	}
	own := write(t, spec, ".slurmspec.yaml", "{}\n")
	if got, err := lint.FindProjectConfig(spec); err != nil || got != own {
		t.Errorf("the spec directory's own config: got %q, %v; want %q", got, err, own)
	}
}

// TestFindProjectConfigForeignOwner: a .slurmspec.yaml above the spec
// that another user owns is refused, even under a directory that looks
// like a repository root (a .git planted in a shared /tmp); in the spec's
// own directory it is the spec author's choice and is used.
func TestFindProjectConfigForeignOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give a file to another user")
	}
	shared := t.TempDir()
	write(t, shared, ".git/HEAD", "ref: refs/heads/main\n")
	planted := write(t, shared, ".slurmspec.yaml", "disable: [reserved-key]\n")
	if err := os.Chown(planted, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	spec := filepath.Join(shared, "alice")
	if err := os.MkdirAll(spec, 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := lint.FindProjectConfig(spec); err == nil || !strings.Contains(err.Error(), "belongs to another user") {
		t.Errorf("a foreign config above the spec: %q, %v", got, err)
	}
	if got, err := lint.FindProjectConfig(shared); err != nil || got != planted {
		t.Errorf("the spec directory's own config: %q, %v", got, err)
	}
	if err := os.Chown(planted, 0, 0); err != nil {
		t.Fatal(err)
	}
	if got, err := lint.FindProjectConfig(spec); err != nil || got != planted {
		t.Errorf("a root-owned config: %q, %v", got, err)
	}
}

// TestProjectConfigNotRegular: a FIFO must not hang the lookup or the read,
// and a symbolic link must not redirect it (to a file outside the
// repository, or to /dev/zero).
func TestProjectConfigNotRegular(t *testing.T) {
	repo := t.TempDir()
	write(t, repo, ".git/HEAD", "ref: refs/heads/main\n")
	fifo := filepath.Join(repo, ".slurmspec.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 2)
	go func() {
		_, err := lint.FindProjectConfig(repo)
		done <- err
		_, err = lint.LoadProjectConfig(fifo)
		done <- err
	}()
	for _, what := range []string{"FindProjectConfig", "LoadProjectConfig"} {
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "not a regular file (a FIFO)") {
				t.Errorf("%s of a FIFO: %v, want a refusal", what, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s of a FIFO hangs", what)
		}
	}
	if err := os.Remove(fifo); err != nil {
		t.Fatal(err)
	}
	outside := write(t, t.TempDir(), "secret.yaml", "disable: [reserved-key]\n")
	for _, target := range []string{outside, "/dev/zero"} {
		if err := os.Symlink(target, fifo); err != nil {
			t.Fatal(err)
		}
		if _, err := lint.FindProjectConfig(repo); err == nil || !strings.Contains(err.Error(), "a symbolic link") {
			t.Errorf("FindProjectConfig of a link to %s: %v, want a refusal", target, err)
		}
		if _, err := lint.LoadProjectConfig(fifo); err == nil || !strings.Contains(err.Error(), "a symbolic link") {
			t.Errorf("LoadProjectConfig of a link to %s: %v, want a refusal", target, err)
		}
		if err := os.Remove(fifo); err != nil {
			t.Fatal(err)
		}
	}
	// An explicit --config that is too large is refused after a bounded read.
	big := write(t, repo, "big.yaml", strings.Repeat("#", 2<<20))
	if _, err := lint.LoadProjectConfig(big); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("a 2 MiB config: %v", err)
	}
}

func TestProjectConfigAccounting(t *testing.T) {
	pc, err := lint.ParseProjectConfig(filepath.Join("repo", ".slurmspec.yaml"), []byte("accounting: acct/teams.yaml\n"))
	if err != nil || pc.Accounting != filepath.Join("repo", "acct", "teams.yaml") {
		t.Errorf("accounting: got %q, %v", pc.Accounting, err)
	}
	for _, bad := range []string{"/etc/teams.yaml", "teams.txt", "../../root/.config/gcloud/application_default_credentials.json", "acct/../../x.yaml"} {
		if _, err := lint.ParseProjectConfig("x.yaml", []byte("accounting: "+bad+"\n")); err == nil || !strings.Contains(err.Error(), "accounting:") {
			t.Errorf("accounting: %s: got %v", bad, err)
		}
	}
}
