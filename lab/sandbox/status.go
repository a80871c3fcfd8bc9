package sandbox

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/slurmspec/slurmspec/compiler/escape"
)

// Report writes the sandbox's status for `slurmspec sandbox status`, and
// returns whether it is up with every recorded process running.
func (s *State) Report(w io.Writer) bool {
	healthy := s.Status == StatusUp && s.Supervisor.Running()
	var gone []string
	for _, p := range s.Processes {
		if !p.Running() {
			gone = append(gone, p.Name)
		}
	}
	healthy = healthy && len(gone) == 0
	state := string(s.Status)
	switch {
	case s.Status == StatusUp && !s.Supervisor.Running():
		state = "not running (its supervisor is gone; run `slurmspec sandbox down` to clear it)"
	case s.Status == StatusUp && len(gone) > 0:
		state = "up, but " + strings.Join(gone, ", ") + " exited (see the daemon logs)"
	case s.Status == StatusUp:
		state = "up since " + s.UpSince.Local().Format(time.DateTime)
	case s.Status == StatusStarting && s.Live():
		state = "starting"
	case s.Status == StatusFailed:
		state = "failed: " + s.Error
	}
	// Names and messages may come from the spec or the command line:
	// escaped, so that none forges a line (compiler/escape).
	fmt.Fprintf(w, "sandbox in %s: %s\n", escape.Text(s.Dir), escape.Text(state))
	fmt.Fprintf(w, "  cluster %q from %s, rendered for Slurm %s, running on slurmctld %s\n", s.Cluster, escape.Text(s.Spec), s.RenderedFor, s.SlurmVersion)
	procs := append([]Proc{s.Supervisor}, s.Processes...)
	for _, p := range procs {
		if p.PID == 0 {
			continue
		}
		run := "running"
		if !p.Running() {
			run = "gone"
		}
		fmt.Fprintf(w, "  %-26s pid %-8d %s\n", p.Name, p.PID, run)
	}
	if s.Namespace != "" {
		fmt.Fprintf(w, "  namespace %s, host name %s\n", s.Namespace, s.Hostname)
	}
	if len(s.StandIns) > 0 {
		fmt.Fprintf(w, "  stand-in nodes: %s\n", strings.Join(s.StandIns, ", "))
	}
	for _, c := range s.Changes {
		fmt.Fprintf(w, "  stated change: %s\n", escape.Text(fmt.Sprint(c)))
	}
	for _, n := range s.Notes {
		fmt.Fprintf(w, "  note: %s\n", escape.Text(n))
	}
	if len(s.Overrides) > 0 {
		fmt.Fprintf(w, "  %d runtime overrides of the rendered slurm.conf (everything else runs as rendered):\n", len(s.Overrides))
		for _, o := range s.Overrides {
			fmt.Fprintf(w, "    %s\n", escape.Text(fmt.Sprint(o)))
		}
	}
	if s.WorkDir != "" {
		fmt.Fprintf(w, "  work directory %s: slurm.conf in etc/, daemon logs in log/\n", escape.Text(s.WorkDir))
	}
	if s.Status == StatusUp {
		fmt.Fprintf(w, "  environment (bin/ wraps Slurm's commands to run in the sandbox's namespace):\n")
		for l := range strings.SplitSeq(strings.TrimSpace(s.ExportLines()), "\n") {
			fmt.Fprintf(w, "    %s\n", l)
		}
	}
	return healthy
}
