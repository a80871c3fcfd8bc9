package pipeline

import "github.com/slurmspec/slurmspec/schema/accounting"

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
	out.accountingFile = name
	return &out
}
