package lint

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/schema/slurmconf"
)

// ProjectConfigFile is the name of a project's lint configuration file.
const ProjectConfigFile = ".slurmspec.yaml"

// maxProjectConfigSize bounds the configuration file; it is a few lines.
const maxProjectConfigSize = 1 << 20

// ProjectConfig is a project's .slurmspec.yaml:
//
//	disable: [implicit-default-partition, placeholder]
//	severity: {unused-pool: error, preemption-never-fires: error}
//	slurmVersion: "22.05"
//
// Every key is optional; unknown keys are errors. Rule ids are checked
// against a rule list by Check (Apply calls it), since package lint does
// not know the rules.
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
}

// projectFile is the YAML shape of ProjectConfig.
type projectFile struct {
	Disable      []string          `yaml:"disable"`
	Severity     map[string]string `yaml:"severity"`
	SlurmVersion string            `yaml:"slurmVersion"`
}

// LoadProjectConfig reads and checks a project configuration file.
func LoadProjectConfig(path string) (ProjectConfig, error) {
	f, err := os.Open(path)
	if err != nil {
		return ProjectConfig{}, fmt.Errorf("read project config: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxProjectConfigSize+1))
	if err != nil {
		return ProjectConfig{}, fmt.Errorf("read project config %s: %w", path, err)
	}
	if len(data) > maxProjectConfigSize {
		return ProjectConfig{}, fmt.Errorf("project config %s: larger than %d bytes", path, maxProjectConfigSize)
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
		return pc, fmt.Errorf("project config %s: %w (known keys: disable, severity, slurmVersion)", path, err)
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
		v, err := slurmconf.ParseVersion(raw.SlurmVersion)
		if err != nil {
			problems = append(problems, fmt.Sprintf("slurmVersion: %v", err))
		} else {
			pc.SlurmVersion = v.String()
		}
	}
	if len(problems) > 0 {
		return pc, fmt.Errorf("project config %s:\n  %s", path, strings.Join(problems, "\n  "))
	}
	return pc, nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Check reports rule ids of the configuration that rules does not have,
// with a did-you-mean, and overrides that would silence a guarded rule.
func (pc ProjectConfig) Check(rules []*Rule) error {
	ids := make([]string, 0, len(rules))
	for _, r := range rules {
		ids = append(ids, r.ID)
	}
	var problems []string
	check := func(where, id string) {
		if Find(rules, id) == nil {
			problems = append(problems, fmt.Sprintf("%s: unknown rule %q (%s)", where, id, diag.DidYouMean(id, ids, "see `slurmspec rules`")))
		}
	}
	for _, id := range pc.Disable {
		check("disable", id)
	}
	for _, id := range sortedKeys(pc.Severity) {
		check("severity", id)
	}
	if err := CheckOverrides(rules, pc.Disable, pc.Severity); err != nil {
		problems = append(problems, err.Error())
	}
	if len(problems) > 0 {
		return fmt.Errorf("project config %s:\n  %s", pc.Path, strings.Join(problems, "\n  "))
	}
	return nil
}

// Apply checks the configuration against rules and merges it into cfg:
// its disabled rules are added, and its SlurmVersion is used when cfg has
// none (a version given on the command line wins). cfg is not modified.
func (pc ProjectConfig) Apply(cfg Config, rules []*Rule) (Config, error) {
	if err := pc.Check(rules); err != nil {
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
	if out.SlurmVersion == "" {
		out.SlurmVersion = pc.SlurmVersion
	}
	return out, nil
}

// Adjust returns the findings with the configuration's severity overrides
// applied to every finding of the overridden rules. It does not know the
// rules: check the configuration first (Check, or Apply), which refuses
// lowering a guarded rule.
func (pc ProjectConfig) Adjust(l diag.List) diag.List {
	if len(pc.Severity) == 0 {
		return l
	}
	out := make(diag.List, len(l))
	for i, d := range l {
		if sev, ok := pc.Severity[d.Rule]; ok {
			d.Severity = sev
		}
		out[i] = d
	}
	return out
}

// FindProjectConfig looks for .slurmspec.yaml in startDir and its parents,
// up to the repository root (the first directory that holds .git) or the
// file system root. It returns the file's path, or "" when there is none.
func FindProjectConfig(startDir string) (string, error) {
	dir, err := filepath.Abs(startDir)
	if err != nil {
		return "", fmt.Errorf("find project config: %w", err)
	}
	for {
		candidate := filepath.Join(dir, ProjectConfigFile)
		switch st, err := os.Stat(candidate); {
		case err == nil && !st.IsDir():
			return candidate, nil
		case err == nil:
			return "", fmt.Errorf("find project config: %s is a directory", candidate)
		case !errors.Is(err, fs.ErrNotExist):
			return "", fmt.Errorf("find project config: %w", err)
		}
		switch _, err := os.Stat(filepath.Join(dir, ".git")); {
		case err == nil:
			return "", nil // the repository root: stop here
		case !errors.Is(err, fs.ErrNotExist):
			return "", fmt.Errorf("find project config: %w", err)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", nil
		}
		dir = parent
	}
}
