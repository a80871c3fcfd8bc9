package fidelity

import (
	"fmt"
	"strings"

	"github.com/slurmspec/slurmspec/lab/jobmix"
)

// WorkloadTable returns the Markdown table of workload reports, one row per
// release: specs generated, lint-refused (an error of a rule that predicts
// no shape), not started by Slurm, failed in the harness, run; shapes judged; shapes that run,
// that fail as a finding predicts, false negatives, false positives,
// undecided.
func WorkloadTable(reps []*WorkloadReport) string {
	var b strings.Builder
	b.WriteString("| release | slurmctld | seed | specs | lint-refused | Slurm did not start | harness error | run | shapes | run as predicted | fail as predicted | false negatives | false positives | undecided | time |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range reps {
		refused, harness, down, run, shapes, ok, failOK := 0, 0, 0, 0, 0, 0, 0
		for _, x := range r.Results {
			switch {
			case x.Refused:
				refused++
			case x.Harness != "":
				harness++
			case !x.Up:
				down++
			default:
				run++
			}
			shapes += len(x.Shapes)
			for _, j := range x.Shapes {
				if j.Class == jobmix.Agree && j.Outcome == jobmix.Runs {
					ok++
				} else if j.Class == jobmix.Agree {
					failOK++
				}
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %s |\n",
			r.Release, r.Version, r.Seed, len(r.Results), refused, down, harness, run, shapes, ok, failOK,
			r.Count(jobmix.FalseNegative), r.Count(jobmix.FalsePositive), r.Count(jobmix.NotDecided), r.Elapsed.Round(1e9))
	}
	return b.String()
}

// WorkloadFindings returns every false negative, false positive and
// undecided shape, and every case Slurm did not start, as Markdown list
// items: the release, the case, the shape, Slurm's verdict and the
// findings.
func WorkloadFindings(reps []*WorkloadReport) string {
	var b strings.Builder
	for _, c := range []jobmix.Class{jobmix.FalseNegative, jobmix.FalsePositive, jobmix.NotDecided} {
		fmt.Fprintf(&b, "\n##### %s (workload)\n\n", c)
		n := 0
		for _, r := range reps {
			for _, x := range r.Results {
				var lines []string
				for _, j := range x.Shapes {
					if j.Class != c {
						continue
					}
					l := fmt.Sprintf("  - `%s` (`%s`): %s", j.Shape.ID(), strings.Join(j.Shape.Args(), " "), j.Outcome)
					if j.Reason != "" {
						l += ": `" + oneLine(j.Reason) + "`"
					}
					for _, p := range j.Predicted {
						l += "; predicted by " + oneLine(p)
					}
					lines = append(lines, l)
				}
				if len(lines) == 0 {
					continue
				}
				n += len(lines)
				fmt.Fprintf(&b, "- **%s**, %s\n", r.Release, x.Case)
				for _, w := range x.Warned {
					fmt.Fprintf(&b, "  - lint warning: %s\n", oneLine(w))
				}
				b.WriteString(strings.Join(lines, "\n") + "\n")
			}
		}
		if n == 0 {
			b.WriteString("None.\n")
		}
	}
	b.WriteString("\n##### Slurm did not start, or the harness failed (workload)\n\n")
	n := 0
	for _, r := range reps {
		for _, x := range r.Results {
			if x.Refused || x.Up && x.Harness == "" {
				continue
			}
			n++
			fmt.Fprintf(&b, "- **%s**, %s\n", r.Release, x.Case)
			for _, l := range countedLines(x.Slurm) {
				fmt.Fprintf(&b, "  - Slurm: %s\n", l)
			}
			if x.Harness != "" {
				fmt.Fprintf(&b, "  - harness: %s\n", oneLine(x.Harness))
			}
		}
	}
	if n == 0 {
		b.WriteString("None.\n")
	}
	return b.String()
}

// Markers delimit the generated part of the workload section of
// docs/fidelity.md.
const (
	workloadBegin = "<!-- fidelity-workload:begin (make fidelity FIDELITY_MODE=workload rewrites this block) -->"
	workloadEnd   = "<!-- fidelity-workload:end -->"
)

// UpdateWorkloadDoc replaces the workload block of a Markdown file with
// text.
func UpdateWorkloadDoc(path, text string) error {
	return updateBlock(path, workloadBegin, workloadEnd, text)
}
