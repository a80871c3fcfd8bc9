// Package pipeline owns slurmspec's spec pipeline: load → schema → compile
// → lint. Every binary that reads a spec (slurmspec, slurmspec-deploy,
// slurmspec-online) and every test that needs a compiled spec goes through
// it, so they accept the same options (Options, declared as flags once),
// know the same diagnostic ids (Catalog), and
// merge a project's .slurmspec.yaml the same way (lint.ProjectConfig.Apply,
// per spec, from the spec's own directory).
//
// One round: a schema error hides no lint rule. The schema's result says
// which paths its errors leave unsound (schema.Validate); the compiler
// builds the IR of the rest, marking those values Unknown and leaving out
// objects whose id is unsound (compiler.CompilePartial); every rule runs on
// it, and lint.Run drops the findings at unsound paths and those of a rule
// that read an Unknown value (lint.Pass.ReadUnknown). That IR is for lint
// alone: a Result of a spec with errors has no Cluster, and Compile refuses
// it, so nothing is rendered or deployed from an unsound spec.
//
// It sits at the top of the lint layer: it imports compiler, schema and
// lint packages, never render or deploy, so that slurmspec-online (in the
// lint tree) can use it and render and deploy build on it.
package pipeline

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"github.com/slurmspec/slurmspec/compiler"
	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/diag/ids"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/compiler/machines"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/lint/online"
	"github.com/slurmspec/slurmspec/lint/rules"
	"github.com/slurmspec/slurmspec/lint/suppress"
	"github.com/slurmspec/slurmspec/schema"
	"github.com/slurmspec/slurmspec/schema/accounting"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// Rules lists the lint rules a run runs (rules.All).
func Rules() []*lint.Rule { return rules.All() }

// Catalog is the diagnostic catalog: every id a finding of any stage can
// carry. It joins the ids of the other stages (ids.Stages), the lint rules
// (each rule of rules.All is catalogued from its own value), the online
// Filestore checks (which report only from slurmspec-online), the findings
// of `slurmspec verify` (reported only from slurmspec-deploy) and the
// inline suppression comments' own ids. --disable, .slurmspec.yaml,
// `slurmspec explain`, `slurmspec rules`, docs/rules.md and the SARIF
// rules all read it.
func Catalog() *ids.Catalog {
	return ids.MustNew(lint.Entries(rules.All()), online.Entries(), online.VerifyEntries(), suppress.Entries(), ids.Stages())
}

// Pipeline is a checked set of options, ready to analyse specs. It is safe
// for concurrent use; each goroutine needs its own *schema.Schema.
type Pipeline struct {
	opt      Options
	format   load.Format
	identity compiler.Identity
	rules    []*lint.Rule
	cat      *ids.Catalog
	// flags is the lint configuration of the command line alone.
	flags lint.Config
	// explicit is the --config file, when given.
	explicit *lint.ProjectConfig
	// cue is the budget of CUE evaluation every spec the pipeline loads
	// shares: one abandoned evaluation, and CUE is evaluated no further.
	cue *load.CUEGate

	mu    sync.Mutex
	byDir map[string]settingsOrErr
}

type settingsOrErr struct {
	s   *Settings
	err error
}

// New checks the options that do not depend on a spec (the input format,
// the Slurm version, the rule ids, the identity flags, an explicit
// --config) and returns the pipeline. Its errors are usage errors: the
// command line, not a spec, is wrong.
func New(opt Options) (*Pipeline, error) {
	p := &Pipeline{opt: opt, rules: Rules(), cat: Catalog(), byDir: map[string]settingsOrErr{}, cue: load.NewCUEGate(0, 0)}
	f, err := load.ParseFormat(orDefault(opt.InputFormat, "auto"))
	if err != nil {
		return nil, fmt.Errorf("--%s: %w", FlagInputFormat, err)
	}
	p.format = f
	p.identity = compiler.Identity{Project: opt.Project, Region: opt.Region, ClusterID: opt.ClusterID}
	if err := p.identity.Check(); err != nil {
		return nil, err
	}
	if opt.SlurmVersion != "" {
		v, err := catalog.ParseVersion(opt.SlurmVersion)
		if err != nil {
			return nil, fmt.Errorf("--%s: %w", FlagSlurmVersion, err)
		}
		p.flags.SlurmVersion = v.String()
	}
	if opt.Build != "" {
		b, err := catalog.ParseBuild(opt.Build)
		if err != nil {
			return nil, fmt.Errorf("--%s: %w", FlagBuild, err)
		}
		p.flags.Build = b.String()
	}
	p.flags.Disabled = map[string]bool{}
	for _, id := range opt.Disable {
		id = strings.TrimSpace(id)
		if _, ok := p.cat.Lookup(id); !ok {
			return nil, fmt.Errorf("--%s: unknown rule %q (%s)", FlagDisable, id, diag.DidYouMean(id, p.cat.Select(ids.Entry.Configurable), "see `slurmspec rules`"))
		}
		p.flags.Disabled[id] = true
	}
	if err := lint.CheckOverrides(p.cat, opt.Disable, nil); err != nil {
		return nil, fmt.Errorf("--%s: %w", FlagDisable, err)
	}
	if opt.ConfigFile != "" {
		pc, err := lint.LoadProjectConfig(opt.ConfigFile)
		if err != nil {
			return nil, err
		}
		if err := pc.Check(p.cat); err != nil {
			return nil, err
		}
		p.explicit = &pc
	}
	return p, nil
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// Settings are what applies to one spec: the command line merged with the
// spec's project config.
type Settings struct {
	// Lint selects the rules, their severities and the target, Slurm
	// version and build (never empty: the flag's, else the config's, else
	// catalog.DefaultTarget's).
	Lint lint.Config
	// Project is the project config in force; its Path is "" when there
	// is none.
	Project lint.ProjectConfig
	// Strict makes warnings fail the spec.
	Strict bool
	// accountingFile is the spec's accounting file ("" for none); set
	// per spec file by Analyse (accountingFor).
	accountingFile string
}

// SlurmVersion is the release series the spec is checked and rendered for.
func (s *Settings) SlurmVersion() string { return s.Lint.SlurmVersion }

// Target is the release and build the spec is checked and rendered for:
// the flags', else the project config's, else catalog.DefaultTarget's.
func (s *Settings) Target() catalog.Target { return s.Lint.Target() }

// SettingsFor returns the settings of the spec file: "-" (standard
// input) counts as a spec in the working directory.
func (p *Pipeline) SettingsFor(file string) (*Settings, error) {
	dir := "."
	if file != "-" {
		dir = filepath.Dir(file)
	}
	return p.SettingsIn(dir)
}

// SettingsIn returns the settings of a spec in dir: the --config file, or
// else the .slurmspec.yaml lint.FindProjectConfig finds from dir, merged
// into the command line's settings by lint.ProjectConfig.Apply (flags
// win). Results are cached per directory. Its errors are usage errors.
func (p *Pipeline) SettingsIn(dir string) (*Settings, error) {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if r, ok := p.byDir[dir]; ok {
		return r.s, r.err
	}
	s, err := p.settingsIn(dir)
	p.byDir[dir] = settingsOrErr{s, err}
	return s, err
}

func (p *Pipeline) settingsIn(dir string) (*Settings, error) {
	var pc lint.ProjectConfig
	switch {
	case p.explicit != nil:
		pc = *p.explicit
	default:
		path, err := lint.FindProjectConfig(dir)
		if err != nil {
			return nil, err
		}
		if path != "" {
			if pc, err = lint.LoadProjectConfig(path); err != nil {
				return nil, err
			}
		}
	}
	cfg, err := pc.Apply(p.flags, p.cat)
	if err != nil {
		return nil, err
	}
	def := catalog.DefaultTarget()
	if cfg.SlurmVersion == "" {
		cfg.SlurmVersion = def.Release.String()
	}
	if cfg.Build == "" {
		cfg.Build = def.Build.String()
	}
	return &Settings{Lint: cfg, Project: pc, Strict: p.opt.Strict}, nil
}

// Result is one analysed spec.
type Result struct {
	// File is the spec as named on the command line ("-": standard input).
	File string
	// Doc is the loaded document (nil when the file could not be read).
	Doc *load.Document
	// Cluster is the compiled IR: nil when the spec did not get that far,
	// or when the loader or the schema reported an error (lint ran on a
	// partial IR; nothing may be rendered from it).
	Cluster *ir.Cluster
	// Diags are every stage's diagnostics, sorted.
	Diags diag.List
	// IOError is set when the file could not be read at all.
	IOError bool
	// Settings are the settings the spec was analysed with.
	Settings *Settings
	// Accounting is the spec's accounting file when it has one and the
	// file has no error.
	Accounting *accounting.File
	// Suppressed are the findings the spec's suppression comments
	// silenced (not in Diags).
	Suppressed []suppress.Suppressed
}

// Name is the spec's name in messages ("<stdin>" for standard input).
func (r *Result) Name() string {
	switch {
	case r.Doc != nil:
		return r.Doc.File
	case r.File == "-":
		return "<stdin>"
	}
	return r.File
}

// Failed reports whether the spec fails the run: an error, or with
// Strict a warning. A spec that did not compile always has an error.
func (r *Result) Failed() bool {
	if r.Settings != nil && r.Settings.Strict {
		return r.Diags.Count(diag.Warning) > 0
	}
	return r.Diags.HasErrors()
}

// Summary is "N errors, M warnings".
func (r *Result) Summary() string { return r.Diags.Summary() }

// AnalyseOptions are what one analysis uses besides its source. The zero
// value analyses with a schema of its own and the spec's own settings.
type AnalyseOptions struct {
	// Schema is the compiled schema to check with. CUE values are not
	// shared between goroutines: each needs its own. Nil compiles one,
	// as a command that reads one spec does.
	Schema *schema.Schema
	// Settings, when set, are used instead of the spec's own
	// (SettingsFor its name).
	Settings *Settings
}

// Analyse is the one way to analyse a spec: it runs load → schema →
// compile → lint on src, then applies its inline suppression comments
// (suppressed). The error is a usage error (the spec's project config is
// bad) or, when Analyse compiles a schema, an internal one; every problem
// of the spec itself is a diagnostic of the result, so with
// opt.Settings and opt.Schema given the error is always nil.
func (p *Pipeline) Analyse(src Source, opt AnalyseOptions) (*Result, error) {
	s := opt.Settings
	if s == nil {
		var err error
		if s, err = p.SettingsFor(src.name); err != nil {
			return nil, err
		}
	}
	sch := opt.Schema
	if sch == nil {
		var err error
		if sch, err = schema.New(); err != nil {
			return nil, fmt.Errorf("internal error: %w", err)
		}
	}
	if src.onDisk {
		s = accountingFor(src.name, s)
	}
	return p.suppressed(p.analyse(sch, src, s), s), nil
}

// analyse runs the pipeline on the document src reads, given the load
// options of the pipeline.
func (p *Pipeline) analyse(sch *schema.Schema, src Source, s *Settings) *Result {
	r := &Result{File: src.name, Settings: s}
	doc, l := src.read(load.Options{Format: p.format, Verbatim: sch.Verbatim, Strings: sch.Strings, CUE: p.cue})
	r.Doc, r.Diags = doc, l
	if doc == nil || doc.Root == nil {
		for _, d := range l {
			if d.Rule == load.RuleIO {
				r.IOError = true
			}
		}
		r.Diags = r.Diags.Sort()
		return r
	}
	c, sound, l := check(sch, doc, r.Diags, p.identity)
	r.Diags = append(r.Diags, l...)
	if c == nil {
		r.Diags = r.Diags.Sort()
		return r
	}
	if sound {
		r.Cluster = c
	}
	cfg := s.Lint
	if s.accountingFile != "" {
		var al diag.List
		r.Accounting, al = loadAccounting(s)
		r.Diags = append(r.Diags, al...)
		cfg = withAccounting(cfg, r.Accounting)
	}
	r.Diags = append(r.Diags, lint.Run(c, p.rules, cfg)...).Sort()
	return r
}

// check runs the schema and the compiler on a loaded document whose
// loading reported loaded. A spec with errors (the loader's or the
// schema's) is still compiled, from what is sound (compiler.CompilePartial:
// the values at the errors' paths are Unknown), so that lint reports every
// problem in one run; sound is then false, and that IR is for lint alone.
// It returns no cluster when the document is missing or not an object.
func check(sch *schema.Schema, doc *load.Document, loaded diag.List, id compiler.Identity) (c *ir.Cluster, sound bool, l diag.List) {
	if doc == nil || doc.Root == nil {
		return nil, false, nil
	}
	res := sch.Validate(doc)
	l = res.Diags
	u := res.Unsound
	for _, d := range loaded {
		if d.Severity == diag.Error {
			u.Add(d.Path) // a field given twice, say: which one counts?
		}
	}
	if u.Covers("") {
		return nil, false, l // not an object: nothing to compile
	}
	c, cl := compiler.CompilePartial(doc, id, machines.Default(), u)
	l = append(l, cl...)
	return c, u.Len() == 0, l
}

// ErrInvalid is returned (wrapped) by Compile for a spec with errors.
var ErrInvalid = errors.New("invalid spec")

// Compile is the compile-only path for trusted inputs (a stack's recorded
// inputs, test fixtures): load → schema → compile of data in the given
// format, no lint rules and no project config. A spec with an error-level
// diagnostic is an error wrapping ErrInvalid that names the first one
// (callers add which input it was); the list holds every diagnostic.
func Compile(sch *schema.Schema, name string, data []byte, format load.Format, id compiler.Identity) (*ir.Cluster, diag.List, error) {
	doc, l := load.Bytes(name, data, load.Options{Format: format, Verbatim: sch.Verbatim, Strings: sch.Strings})
	c, sound, cl := check(sch, doc, l, id)
	l = append(l, cl...).Sort()
	if c == nil || !sound || l.HasErrors() {
		return nil, l, fmt.Errorf("%w: %s", ErrInvalid, firstError(l))
	}
	return c, l, nil
}

func firstError(l diag.List) string {
	for _, d := range l {
		if d.Severity == diag.Error {
			if d.Path != "" {
				return d.Path + ": " + d.Message
			}
			return d.Message
		}
	}
	return "no document"
}
