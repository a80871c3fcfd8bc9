package lint

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/diag/ids"
	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// ProjectConfigFile is the name of a project's lint configuration file.
const ProjectConfigFile = ".slurmspec.yaml"

// maxProjectConfigSize bounds the configuration file; it is a few lines.
const maxProjectConfigSize = 1 << 20

// ProjectConfig is a project's .slurmspec.yaml:
//
//	disable: [implicit-default-partition, placeholder]
//	severity: {unused-pool: error, preemption-never-fires: error}
//	slurmVersion: "24.11"
//	build: service
//	include: [clusters/*.tmpl.yaml]
//	exclude: [testdata/, "*.fixture.yaml"]
//
// Every key is optional; unknown keys are errors. Rule ids are checked
// against the diagnostic catalog by Check (Apply calls it), since package lint does
// not know the catalog. Apply is the one way a configuration takes effect.
type ProjectConfig struct {
	// Path is the file the configuration was read from.
	Path string
	// Disable lists rule ids not to run.
	Disable []string
	// Severity overrides the severity of every finding of a rule.
	Severity map[string]diag.Severity
	// SlurmVersion is the Slurm release series the project targets, as a
	// series label ("22.05"); empty when not set.
	SlurmVersion string
	// Build is the build profile the project targets (catalog.Build's
	// name: service or debian); empty when not set. With SlurmVersion it
	// is the project's target (catalog.Target), stated here once.
	Build string
	// Include and Exclude choose the files `slurmspec lint DIR` lints
	// beyond what it recognises by content (compiler/load/discover): .gitignore
	// patterns, relative to the configuration's directory. An included
	// file is a spec whatever its content; an excluded file or directory
	// is never searched, and Exclude wins.
	Include, Exclude []string
	// Accounting is the accounting file (schema/accounting) of the specs
	// the configuration covers: the accounting key, written relative to
	// the configuration's directory, joined to it; "" when not set.
	Accounting string
	// AccountingPos is where the accounting key's value is written in
	// the configuration (Path; no line when unknown), for a finding about
	// the file it names.
	AccountingPos diag.Pos
}

// projectFile is the YAML shape of ProjectConfig.
type projectFile struct {
	Disable      []string          `yaml:"disable"`
	Severity     map[string]string `yaml:"severity"`
	SlurmVersion string            `yaml:"slurmVersion"`
	Build        string            `yaml:"build"`
	Include      []string          `yaml:"include"`
	Exclude      []string          `yaml:"exclude"`
	Accounting   string            `yaml:"accounting"`
}

// LoadProjectConfig reads and checks a project configuration file. It
// reads only a regular file of at most maxProjectConfigSize bytes
// (load.ReadFile: a symbolic link, FIFO or device is refused without
// blocking, so it can neither redirect the read nor hang it).
func LoadProjectConfig(path string) (ProjectConfig, error) {
	data, err := load.ReadFile(path, maxProjectConfigSize)
	if err != nil {
		return ProjectConfig{}, fmt.Errorf("read project config: %w", err)
	}
	return ParseProjectConfig(path, data)
}

// ParseProjectConfig checks the content of a project configuration file;
// path is used in errors.
func ParseProjectConfig(path string, data []byte) (ProjectConfig, error) {
	pc := ProjectConfig{Path: path}
	var raw projectFile
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&raw); err != nil && !errors.Is(err, io.EOF) {
		return pc, fmt.Errorf("project config %s: %s (known keys: disable, severity, slurmVersion, build, include, exclude, accounting)", path, yamlProblems(err))
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return pc, fmt.Errorf("project config %s: want a single YAML document", path)
	}
	var problems []string
	seen := map[string]bool{}
	for _, id := range raw.Disable {
		id = strings.TrimSpace(id)
		switch {
		case id == "":
			problems = append(problems, "disable: empty rule id")
		case seen[id]:
			problems = append(problems, fmt.Sprintf("disable: %s is listed twice", id))
		default:
			pc.Disable = append(pc.Disable, id)
		}
		seen[id] = true
	}
	if len(raw.Severity) > 0 {
		pc.Severity = map[string]diag.Severity{}
	}
	for _, id := range sortedKeys(raw.Severity) {
		sev, err := diag.ParseSeverity(raw.Severity[id])
		if err != nil {
			problems = append(problems, fmt.Sprintf("severity: %s: %v", id, err))
			continue
		}
		pc.Severity[id] = sev
	}
	if raw.SlurmVersion != "" {
		v, err := catalog.ParseVersion(raw.SlurmVersion)
		if err != nil {
			problems = append(problems, fmt.Sprintf("slurmVersion: %v", err))
		} else {
			pc.SlurmVersion = v.String()
		}
	}
	if raw.Build != "" {
		b, err := catalog.ParseBuild(raw.Build)
		if err != nil {
			problems = append(problems, fmt.Sprintf("build: %v", err))
		} else {
			pc.Build = b.String()
		}
	}
	pc.Include, problems = patterns("include", raw.Include, problems)
	pc.Exclude, problems = patterns("exclude", raw.Exclude, problems)
	if raw.Accounting != "" {
		switch {
		case filepath.IsAbs(raw.Accounting) || !load.IsSpecFile(raw.Accounting):
			problems = append(problems, fmt.Sprintf("accounting: %q: want a .yaml, .yml, .json, .jsonc or .cue file relative to the configuration", raw.Accounting))
		case slices.Contains(strings.Split(filepath.ToSlash(raw.Accounting), "/"), ".."):
			// The config is the repository's: ../ would let it name any
			// file of the machine, whose lines a finding's excerpt prints.
			problems = append(problems, fmt.Sprintf("accounting: %q: name a file in the configuration's directory or below it (no ..)", raw.Accounting))
		default:
			pc.Accounting = filepath.Join(filepath.Dir(path), filepath.FromSlash(raw.Accounting))
			pc.AccountingPos = valuePos(path, data, "accounting")
		}
	}
	if len(problems) > 0 {
		return pc, fmt.Errorf("project config %s: %s", path, strings.Join(problems, "; "))
	}
	return pc, nil
}

// yamlProblems says what the YAML decoder refused, on one line (errors
// are printed on one line, escaped): the lines of a *yaml.TypeError
// ("unmarshal errors:\n  line 2: field foo not found in type
// lint.projectFile") joined by "; ", an unknown key as such.
func yamlProblems(err error) string {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return err.Error()
	}
	out := make([]string, len(te.Errors))
	for i, e := range te.Errors {
		if at, rest, ok := strings.Cut(e, ": field "); ok {
			if key, ok := strings.CutSuffix(rest, " not found in type lint.projectFile"); ok {
				e = fmt.Sprintf("%s: unknown key %q", at, key)
			}
		}
		out[i] = e
	}
	return strings.Join(out, "; ")
}

// patterns checks the include or exclude list: each entry a non-empty
// .gitignore pattern on one line, relative to the configuration's
// directory.
func patterns(key string, list []string, problems []string) ([]string, []string) {
	var out []string
	for _, p := range list {
		switch {
		case strings.TrimSpace(p) == "":
			problems = append(problems, key+": empty pattern")
		case strings.ContainsAny(p, "\x00\n\r"):
			problems = append(problems, fmt.Sprintf("%s: %q: a pattern is one line", key, p))
		case strings.HasPrefix(p, "#"):
			problems = append(problems, fmt.Sprintf("%s: %q: starts with #, which .gitignore reads as a comment (write \\# for a file name)", key, p))
		default:
			out = append(out, p)
		}
	}
	return out, problems
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Check reports rule ids of the configuration that the diagnostic catalog
// does not have, with a did-you-mean among those it may name, and
// overrides CheckOverrides refuses (an id of another stage than lint, a
// guarded rule silenced).
func (pc ProjectConfig) Check(cat *ids.Catalog) error {
	names := cat.Select(ids.Entry.Configurable)
	var problems []string
	check := func(where, id string) {
		if _, ok := cat.Lookup(id); !ok {
			problems = append(problems, fmt.Sprintf("%s: unknown rule %q (%s)", where, id, diag.DidYouMean(id, names, "see `slurmspec rules`")))
		}
	}
	for _, id := range pc.Disable {
		check("disable", id)
	}
	for _, id := range sortedKeys(pc.Severity) {
		check("severity", id)
	}
	if err := CheckOverrides(cat, pc.Disable, pc.Severity); err != nil {
		problems = append(problems, err.Error())
	}
	if len(problems) > 0 {
		return fmt.Errorf("project config %s: %s", pc.Path, strings.Join(problems, "; "))
	}
	return nil
}

// Apply checks the configuration against the catalog and merges it into cfg,
// the settings of the command line: its disabled rules are added, its
// severity overrides are used, and its SlurmVersion is used when cfg has
// none (a version given on the command line wins). cfg is not modified.
func (pc ProjectConfig) Apply(cfg Config, cat *ids.Catalog) (Config, error) {
	if err := pc.Check(cat); err != nil {
		return cfg, err
	}
	out := cfg
	out.Disabled = make(map[string]bool, len(cfg.Disabled)+len(pc.Disable))
	for id, off := range cfg.Disabled {
		out.Disabled[id] = off
	}
	for _, id := range pc.Disable {
		out.Disabled[id] = true
	}
	if len(cfg.Severity)+len(pc.Severity) > 0 {
		out.Severity = make(map[string]diag.Severity, len(cfg.Severity)+len(pc.Severity))
		for id, sev := range cfg.Severity {
			out.Severity[id] = sev
		}
		for id, sev := range pc.Severity {
			out.Severity[id] = sev
		}
	}
	if out.SlurmVersion == "" {
		out.SlurmVersion = pc.SlurmVersion
	}
	if out.Build == "" {
		out.Build = pc.Build
	}
	return out, nil
}

// FindProjectConfig finds the project configuration that applies to a
// spec in specDir: the nearest .slurmspec.yaml from specDir up to the
// repository root (the nearest directory holding .git), never above it.
// Outside a repository only specDir itself is searched, so a file planted
// in a shared parent directory (the system temp dir) never applies. A
// .slurmspec.yaml that is not a regular file (a directory, a symbolic
// link, a FIFO) is an error, not skipped, and so is one above specDir
// that belongs to another user (neither us nor root). It returns the
// file's path, or "" when there is none.
func FindProjectConfig(specDir string) (string, error) {
	dir, err := filepath.Abs(specDir)
	if err != nil {
		return "", fmt.Errorf("find project config: %w", err)
	}
	root, err := load.RepoRoot(dir)
	if err != nil {
		return "", err
	}
	if root == "" {
		root = dir // no repository: the spec's own directory only
	}
	own := dir
	for {
		candidate := filepath.Join(dir, ProjectConfigFile)
		switch st, err := os.Lstat(candidate); {
		case err == nil && st.Mode().IsRegular() && dir != own && !load.OwnedByUs(st):
			// As git's safe.directory: a file above the spec that another
			// user put there (a shared parent made to look like a
			// repository) never configures our run.
			return "", fmt.Errorf("find project config: %s belongs to another user: refusing it (pass --config to use it)", candidate)
		case err == nil && st.Mode().IsRegular():
			return candidate, nil
		case err == nil:
			return "", fmt.Errorf("find project config: %s is not a regular file (%s)", candidate, load.FileKind(st.Mode()))
		case !load.NotExist(err):
			return "", fmt.Errorf("find project config: %w", err)
		}
		if dir == root {
			return "", nil
		}
		dir = filepath.Dir(dir)
	}
}

// valuePos returns the position of the value of the top-level key in the
// YAML document data (path names it), or a position without a line when
// it cannot be found.
func valuePos(path string, data []byte, key string) diag.Pos {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return diag.Pos{File: path}
	}
	m := doc.Content[0].Content
	for i := 0; i+1 < len(m); i += 2 {
		if m[i].Value == key {
			return diag.Pos{File: path, Line: m[i+1].Line, Col: m[i+1].Column}
		}
	}
	return diag.Pos{File: path}
}
