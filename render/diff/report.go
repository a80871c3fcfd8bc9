package diff

import (
	"fmt"
	"io"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/escape"
)

// Report is the result of a comparison.
type Report struct {
	// Changes are ordered by decreasing impact, then by place.
	Changes []Change
	// SlurmVersion is the release series the changes were classified for.
	SlurmVersion string
	// Target is the Slurm the changes are meant for, in prose ("Slurm
	// 26.05 (the service's build)", Options.Target): the first line of
	// the text and Markdown forms names it.
	Target string
	// ConfDiff is a unified diff of the lines of slurm.conf that Slurm
	// reads (no comments), as the files hold them; empty when slurm.conf
	// did not change.
	ConfDiff string
	// Accounting are the changes of the accounting file beside the spec
	// (Options.OldAccounting, NewAccounting), which sacctmgr applies.
	Accounting []AccountingChange
}

// HasChanges reports whether anything changed.
func (r *Report) HasChanges() bool { return len(r.Changes) > 0 || len(r.Accounting) > 0 }

// MaxImpact returns the highest impact of any change; None when nothing
// changed.
func (r *Report) MaxImpact() Impact {
	m := None
	for _, c := range r.Changes {
		m = max(m, c.Impact)
	}
	return m
}

// HurtsJobs returns how many changes can hurt running or pending jobs.
func (r *Report) HurtsJobs() int {
	n := 0
	for _, c := range r.Changes {
		if c.HurtsJobs != "" {
			n++
		}
	}
	return n
}

// Summary is one line: "3 changes — restarts slurmctld, replaces node pool
// a4", or "no changes".
func (r *Report) Summary() string {
	if !r.HasChanges() {
		return "no changes"
	}
	if len(r.Changes) == 0 {
		return r.accountingSummary()
	}
	s := fmt.Sprintf("%d changes", len(r.Changes))
	if len(r.Changes) == 1 {
		s = "1 change"
	}
	has := map[Impact]bool{}
	ctld := false
	pools := map[string]bool{}
	for _, c := range r.Changes {
		has[c.Impact] = true
		switch c.Impact {
		case Restart:
			ctld = ctld || strings.Contains(c.Reason, "slurmctld") || strings.Contains(c.Reason, "every daemon")
		case ReplacePool:
			pools[c.Path] = true
		}
	}
	// Most severe first.
	var parts []string
	if has[ReplaceCluster] {
		parts = append(parts, "replaces the whole cluster")
	}
	if has[ReplacePool] {
		parts = append(parts, "replaces node pool "+strings.Join(sortedKeys(pools), ", "))
	}
	if n := r.HurtsJobs(); n > 0 {
		parts = append(parts, fmt.Sprintf("%d may hurt running jobs", n))
	}
	if has[Restart] {
		if ctld {
			parts = append(parts, "restarts slurmctld")
		} else {
			parts = append(parts, "restarts slurmd")
		}
	}
	if has[Reconfigure] {
		parts = append(parts, "needs scontrol reconfigure")
	}
	if r.MaxImpact() == InPlace {
		parts = append(parts, "applies in place")
	}
	if len(r.Accounting) > 0 {
		parts = append(parts, r.accountingSummary())
	}
	return s + " — " + strings.Join(parts, ", ")
}

// Text writes the report for a terminal: the summary, one block per
// change, then the diffs of scripts and files.
func (r *Report) Text(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "slurmspec: %s; target %s\n", r.Summary(), r.Target)
	if len(r.Changes) > 0 {
		fmt.Fprintf(&b, "max impact: %s (classified for Slurm %s)\n", r.MaxImpact(), r.SlurmVersion)
	}
	const indent = "                 "
	for _, c := range r.Changes {
		// Keys and values come from the spec: escaped, so that they
		// cannot forge lines (compiler/escape).
		fmt.Fprintf(&b, "\n%-15s  %s\n", c.Impact, escape.Text(c.Subject()))
		fmt.Fprintf(&b, "%s%s\n", indent, escape.Text(oneLine(c.values("->"))))
		fmt.Fprintf(&b, "%swhy: %s\n", indent, c.Reason)
		if c.Effective != "" {
			fmt.Fprintf(&b, "%seffective: %s\n", indent, c.Effective)
		}
		if c.HurtsJobs != "" {
			fmt.Fprintf(&b, "%shurts jobs: %s\n", indent, c.HurtsJobs)
		}
	}
	if r.ConfDiff != "" {
		b.WriteString("\nslurm.conf:\n" + r.ConfDiff)
	}
	for _, c := range r.Changes {
		if c.Diff != "" {
			b.WriteString("\n" + c.Diff)
		}
	}
	r.accountingText(&b)
	if len(r.Changes) > 0 {
		b.WriteString("\nwho applies what:\n")
		for _, i := range r.impacts() {
			fmt.Fprintf(&b, "  %-15s  %s\n", i, i.AppliedBy())
		}
	}
	return write(w, b.String())
}

func write(w io.Writer, s string) error {
	// The diffs of scripts are printed as is; a line of a script must not
	// read as a workflow command in a CI log (escape.Block).
	if _, err := io.WriteString(w, escape.Block(s)); err != nil {
		return fmt.Errorf("writing report: %w", err)
	}
	return nil
}

// impacts returns the impacts of the changes, most severe first, each once.
func (r *Report) impacts() []Impact {
	var out []Impact
	for i := ReplaceCluster; i > None; i-- {
		for _, c := range r.Changes {
			if c.Impact == i {
				out = append(out, i)
				break
			}
		}
	}
	return out
}
