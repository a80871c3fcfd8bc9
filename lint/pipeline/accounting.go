package pipeline

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/schema/accounting"
)

// accountingFor returns the settings of the spec file with its accounting
// file: the project config's accounting key, else the file beside the spec
// by convention (accounting.Beside). A spec in memory (Bytes, a git
// revision) has none.
func accountingFor(file string, s *Settings) *Settings {
	name := s.Project.Accounting
	if name == "" {
		name = accounting.Beside(file)
	}
	if name == "" {
		return s
	}
	out := *s
	out.accountingFile = relative(name)
	return &out
}

// relative returns name relative to the working directory when it is
// below it, as positions are best shown; name otherwise.
func relative(name string) string {
	if !filepath.IsAbs(name) {
		return name
	}
	wd, err := os.Getwd()
	if err != nil {
		return name
	}
	rel, err := filepath.Rel(wd, name)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return name
	}
	return rel
}

// withAccounting returns the lint configuration of a spec whose accounting
// file loaded as f: nil when the file has errors, and then the QOS the
// partitions name are not known either way, so partition-qos-unknown does
// not run (its findings would be consequences of the file's errors).
func withAccounting(cfg lint.Config, f *accounting.File) lint.Config {
	cfg.Accounting = f
	if f == nil {
		disabled := make(map[string]bool, len(cfg.Disabled)+1)
		for id, off := range cfg.Disabled {
			disabled[id] = off
		}
		disabled["partition-qos-unknown"] = true
		cfg.Disabled = disabled
	}
	return cfg
}

// loadAccounting loads the spec's accounting file. One the project config
// names that does not exist or cannot be read (a directory, a FIFO, no
// permission) is reported at the config's accounting key, where the
// mistake is, as the accounting file: the loader's "cannot read spec"
// named neither the config nor what the file is. A path through a
// symbolic link is accounting.Load's to refuse.
func loadAccounting(s *Settings) (*accounting.File, diag.List) {
	name := s.Project.Accounting
	if name == "" || load.LinkOnPath(s.accountingFile) != "" {
		return accounting.Load(s.accountingFile)
	}
	data, err := load.ReadFile(name, load.MaxFileSize)
	if err == nil {
		return accounting.LoadBytes(s.accountingFile, data)
	}
	pos := s.Project.AccountingPos
	if pos.File == "" {
		pos.File = s.Project.Path
	}
	pos.File = relative(pos.File)
	what, hint := "does not exist", "create it (docs/accounting.md), or correct or remove the accounting key"
	if !errors.Is(err, fs.ErrNotExist) {
		what, hint = unreadable(name, err), "make it a regular file you can read, or correct or remove the accounting key"
	}
	var l diag.List
	l.Errorf(load.RuleIO, pos, "", hint, "accounting file %s, which %s names, %s", s.accountingFile, pos.File, what)
	return nil, l
}

// unreadable says why the file name could not be read, without naming it
// again: "cannot be read: permission denied", "is a directory, not a
// file".
func unreadable(name string, err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return "cannot be read: " + pe.Err.Error()
	}
	if rest, ok := strings.CutPrefix(err.Error(), name+" "); ok {
		return rest
	}
	return "cannot be read: " + err.Error()
}
