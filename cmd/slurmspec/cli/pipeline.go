package cli

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/slurmspec/slurmspec/compiler"
	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/compiler/machines"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/lint/format"
	"github.com/slurmspec/slurmspec/lint/online"
	"github.com/slurmspec/slurmspec/lint/rules"
	"github.com/slurmspec/slurmspec/schema"
	"github.com/slurmspec/slurmspec/schema/slurmconf"
)

// specFlags are the flags shared by every command that reads a spec.
type specFlags struct {
	inputFormat  string
	project      string
	region       string
	clusterID    string
	slurmVersion string
	disable      []string
	strict       bool
	configFile   string
	// projectConfig is the .slurmspec.yaml in force (zero when there is none).
	projectConfig lint.ProjectConfig
}

func (f *specFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.inputFormat, "input-format", "auto", "spec format: auto (by extension), json, yaml or cue")
	fs.StringVar(&f.project, "project", "", "Google Cloud project (when the spec has no name)")
	fs.StringVar(&f.region, "region", "", "region of the cluster (when the spec has no name)")
	fs.StringVar(&f.clusterID, "cluster-id", "", "cluster id, 1-10 lowercase letters and digits (when the spec has no name)")
	fs.StringVar(&f.slurmVersion, "slurm-version", slurmconf.Newest().String(), "Slurm release series the cluster runs ("+versionList()+")")
	fs.StringSliceVar(&f.disable, "disable", nil, "lint rule ids to skip (comma-separated or repeated)")
	fs.BoolVar(&f.strict, "strict", false, "fail on warnings too")
	fs.StringVar(&f.configFile, "config", "", "project config (default: .slurmspec.yaml in this directory or a parent, up to the repository root)")
}

func versionList() string {
	var vs []string
	for _, v := range slurmconf.Versions() {
		vs = append(vs, v.String())
	}
	return strings.Join(vs, ", ")
}

// validate checks flag values that do not depend on the spec and reads the
// project config. Flags win over the config file.
func (f *specFlags) validate(cmd *cobra.Command) error {
	path := f.configFile
	if path == "" {
		found, err := lint.FindProjectConfig(".")
		if err != nil {
			return usageError("%v", err)
		}
		path = found
	}
	if path != "" {
		pc, err := lint.LoadProjectConfig(path)
		if err != nil {
			return usageError("%v", err)
		}
		if err := pc.Check(allRules()); err != nil {
			return usageError("%v", err)
		}
		f.projectConfig = pc
		if pc.SlurmVersion != "" && !cmd.Flags().Changed("slurm-version") {
			f.slurmVersion = pc.SlurmVersion
		}
		f.disable = append(f.disable, pc.Disable...)
	}
	v, err := slurmconf.ParseVersion(f.slurmVersion)
	if err != nil {
		return usageError("--slurm-version: %v", err)
	}
	f.slurmVersion = v.String()
	return validateDisabled(f.disable)
}

// analysis is the outcome of reading one spec: its diagnostics and, when
// it got that far, its IR.
type analysis struct {
	file    string
	doc     *load.Document
	cluster *ir.Cluster
	diags   diag.List
	ioError bool // the file could not be read at all
}

// analyse runs load → schema → compile → lint on one file.
func analyse(sch *schema.Schema, file string, f *specFlags, e env) analysis {
	return analyseWith(sch, file, f, func(opt load.Options) (*load.Document, diag.List) {
		opt.Stdin = e.stdin
		return load.File(file, opt)
	})
}

// analyseBytes is analyse for a spec already in memory (read from git).
func analyseBytes(sch *schema.Schema, name string, data []byte, f *specFlags) analysis {
	return analyseWith(sch, name, f, func(opt load.Options) (*load.Document, diag.List) {
		return load.Bytes(name, data, opt)
	})
}

func analyseWith(sch *schema.Schema, file string, f *specFlags, read func(load.Options) (*load.Document, diag.List)) analysis {
	a := analysis{file: file}
	fmtID, err := load.ParseFormat(f.inputFormat)
	if err != nil {
		a.diags.Errorf("usage", diag.Pos{}, "", "", "%v", err)
		a.ioError = true
		return a
	}
	doc, l := read(load.Options{Format: fmtID, Verbatim: sch.Verbatim})
	a.diags = l
	a.doc = doc
	if doc == nil || doc.Root == nil {
		a.diags = a.diags.Sort()
		for _, d := range l {
			if d.Rule == load.RuleIO {
				a.ioError = true
			}
		}
		return a
	}
	a.diags = append(a.diags, sch.Check(doc)...)
	if a.diags.HasErrors() {
		a.diags = a.diags.Sort()
		return a
	}
	c, l := compiler.Compile(doc, compiler.Identity{Project: f.project, Region: f.region, ClusterID: f.clusterID}, machines.Default())
	a.diags = append(a.diags, l...)
	a.cluster = c
	disabled := map[string]bool{}
	for _, id := range f.disable {
		disabled[strings.TrimSpace(id)] = true
	}
	found := lint.Run(c, rules.All(), lint.Config{Options: lint.Options{SlurmVersion: f.slurmVersion}, Disabled: disabled})
	a.diags = append(a.diags, f.projectConfig.Adjust(found)...)
	a.diags = a.diags.Sort()
	return a
}

// allRules lists every rule a run can report: the lint rules and the online
// Filestore rules (whose checks run in slurmspec-online).
func allRules() []*lint.Rule { return append(rules.All(), online.Rules()...) }

// validateDisabled rejects unknown rule ids in --disable.
func validateDisabled(ids []string) error {
	all := allRules()
	var names []string
	for _, r := range all {
		names = append(names, r.ID)
	}
	for _, id := range ids {
		id = strings.TrimSpace(id)
		if lint.Find(all, id) == nil {
			return usageError("--disable: unknown rule %q (%s)", id, diag.DidYouMean(id, names, "see `slurmspec rules`"))
		}
	}
	if err := lint.CheckOverrides(all, ids, nil); err != nil {
		return usageError("--disable: %v", err)
	}
	return nil
}

// printDiags prints one spec's diagnostics in the text format.
func printDiags(w io.Writer, a analysis) {
	f := format.File{Name: displayName(a.file), Diags: a.diags, Error: a.ioError}
	if a.doc != nil {
		f.Name, f.Source = a.doc.File, a.doc.Source
	}
	_ = format.Text{Color: useColour(w)}.Format(w, format.Run{Files: []format.File{f}})
}

func useColour(w io.Writer) bool {
	if _, set := os.LookupEnv("NO_COLOR"); set {
		return false
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// failed reports whether diagnostics fail the run.
func failed(l diag.List, strict bool) bool {
	if strict {
		return l.Count(diag.Warning) > 0
	}
	return l.HasErrors()
}

func summary(l diag.List) string {
	e, w := l.Count(diag.Error), l.Count(diag.Warning)-l.Count(diag.Error)
	return fmt.Sprintf("%s, %s", plural(e, "error"), plural(w, "warning"))
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
