package pipeline

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/slurmspec/slurmspec/schema/accounting"
)

// accountingFor returns the settings of the spec file with its accounting
// file: the project config's accounting key, else the file beside the spec
// by convention (accounting.Beside). A spec in memory (AnalyseBytes, a git
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
