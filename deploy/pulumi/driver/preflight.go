package driver

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/slurmspec/slurmspec/render/pulumimodel"
)

// Preflight is what a run needs from the machine, checked all at once so
// that one run names every missing prerequisite instead of the first.
type Preflight struct {
	// Misses are prerequisites without which the run cannot start: the
	// pulumi CLI, a state backend, its passphrase or access token.
	Misses []string
	// Warnings are prerequisites the run may still find another way:
	// Google Cloud credentials (a Google Cloud VM's metadata server) and
	// the pinned provider plugin (the CLI downloads it when it can).
	Warnings []string
}

// Check checks every prerequisite of a run with cfg.
func Check(cfg Config) Preflight {
	var p Preflight
	if _, err := exec.LookPath("pulumi"); err != nil {
		p.Misses = append(p.Misses, ErrNoCLI.Error())
	}
	if _, err := CheckBackend(cfg); err != nil {
		p.Misses = append(p.Misses, err.Error())
	}
	if hint := GCPCredentialsHint(); hint != "" {
		p.Warnings = append(p.Warnings, hint)
	}
	if hint := ProviderPluginHint(); hint != "" {
		p.Warnings = append(p.Warnings, hint)
	}
	return p
}

// Err is nil when nothing is missing, else one error that lists every miss.
func (p Preflight) Err() error {
	if len(p.Misses) == 0 {
		return nil
	}
	return &PreflightError{Misses: p.Misses}
}

// PreflightError lists every missing prerequisite of a run.
type PreflightError struct {
	Misses []string
}

func (e *PreflightError) Error() string {
	if len(e.Misses) == 1 {
		return e.Misses[0]
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d prerequisites are missing:", len(e.Misses))
	for _, m := range e.Misses {
		b.WriteString("\n  - ")
		b.WriteString(m)
	}
	return b.String()
}

// ProviderPluginHint returns a warning when the pinned pulumi-gcp plugin
// (pulumimodel.ProviderVersion) is not installed in the CLI's plugin
// directory ($PULUMI_HOME/plugins, default ~/.pulumi/plugins), with the
// command that installs it ahead of time (an air-gapped CI runner cannot
// download it during the run); "" when it is there.
func ProviderPluginHint() string {
	home := os.Getenv("PULUMI_HOME")
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		home = filepath.Join(h, ".pulumi")
	}
	v := pulumimodel.ProviderVersion
	dir := filepath.Join(home, "plugins", "resource-gcp-v"+v)
	if st, err := os.Stat(dir); err == nil && st.IsDir() {
		return ""
	}
	return fmt.Sprintf("the pulumi-gcp provider plugin v%s is not installed (%s); the pulumi CLI downloads it on first use, which an air-gapped runner cannot: install it beforehand with `pulumi plugin install resource gcp v%s` (or `... --file PATH` from a downloaded archive)", v, dir, v)
}
