package fidelity

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strings"
)

// Table returns the Markdown table of the reports, one row per release.
func Table(reps []*Report) string {
	var b strings.Builder
	b.WriteString("| release | slurmctld | seed | N | lint-clean | accepted | warned, slurmctld logs an error | warned, this build lacks the plugin | false negatives | lint errors | refused by both | false positives (candidates) | time |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range reps {
		clean := r.Count(BothAccept) + r.Count(WarnedLogged) + r.Count(WarnedBuild) + r.Count(FalseNegative)
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %s |\n",
			r.Release, r.Version, r.Seed, len(r.Results), clean, r.Count(BothAccept), r.Count(WarnedLogged), r.Count(WarnedBuild), r.Count(FalseNegative),
			len(r.Results)-clean, r.Count(BothRefuse), r.Count(FalsePositive), r.Elapsed.Round(1e9))
	}
	return b.String()
}

// Findings returns every false negative, warned case slurmctld logs an
// error for, warned case whose build lacks the plugin, and false-positive
// candidate, as Markdown list items: the release, the settings, lint's
// errors (and, for the warned ones, its warnings) and slurmctld's lines.
func Findings(reps []*Report) string {
	var b strings.Builder
	for _, v := range []Verdict{FalseNegative, WarnedLogged, WarnedBuild, FalsePositive} {
		fmt.Fprintf(&b, "\n### %s\n\n", v)
		n := 0
		for _, r := range reps {
			for _, x := range r.Results {
				if x.Verdict != v {
					continue
				}
				n++
				fmt.Fprintf(&b, "- **%s**, case %d:", r.Release, x.Case.Index)
				for _, s := range x.Case.Settings {
					fmt.Fprintf(&b, " `%s=%s` (%s, %s);", s.Key, s.Value, s.Scope, s.How)
				}
				b.WriteString("\n")
				for _, l := range x.Lint {
					fmt.Fprintf(&b, "  - lint: %s\n", oneLine(l))
				}
				if v == WarnedLogged || v == WarnedBuild {
					for _, w := range x.Warned {
						fmt.Fprintf(&b, "  - lint warning: %s: %s\n", w.Rule, oneLine(w.Message))
					}
				}
				if !x.Up {
					b.WriteString("  - Slurm did not come up (slurmctld, or the slurmd did not register)\n")
				}
				for _, l := range countedLines(x.Slurm) {
					fmt.Fprintf(&b, "  - Slurm: %s\n", l)
				}
			}
		}
		if n == 0 {
			b.WriteString("None.\n")
		}
	}
	return b.String()
}

// countedLines returns Slurm's lines as Markdown code spans, each line once
// in the order first seen, with "(×N)" after one logged N times (a
// connection error can repeat a hundred times in one start).
func countedLines(lines []string) []string {
	var order []string
	count := map[string]int{}
	for _, l := range lines {
		l = oneLine(l)
		if count[l] == 0 {
			order = append(order, l)
		}
		count[l]++
	}
	out := make([]string, len(order))
	for i, l := range order {
		out[i] = "`" + l + "`"
		if n := count[l]; n > 1 {
			out[i] += fmt.Sprintf(" (×%d)", n)
		}
	}
	return out
}

// Parts of slurmctld's lines that change from run to run, left out so that
// a run at the same seed prints the same findings.
var (
	logStamp = regexp.MustCompile(`^\[\d{4}-\d\d-\d\dT[\d:.]+\] `)
	workDir  = regexp.MustCompile(`/tmp/localslurm-\d+`)
)

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	s = logStamp.ReplaceAllString(s, "")
	s = workDir.ReplaceAllString(s, "$$WORK")
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
}

// Markers delimit the generated part of docs/fidelity.md.
const (
	beginMarker = "<!-- fidelity:begin (make fidelity rewrites this block) -->"
	endMarker   = "<!-- fidelity:end -->"
)

// UpdateDoc replaces the generated block of a Markdown file with text.
func UpdateDoc(path, text string) error {
	return updateBlock(path, beginMarker, endMarker, text)
}

// Modes are the ways cmd/fidelity makes cases, each with its own block of
// docs/fidelity.md, so that a run of one mode never overwrites another's
// results.
var Modes = []string{"random", "related", "doubled", "workload"}

// DocBlock returns the marker lines of the block of docs/fidelity.md that
// a run of mode rewrites, and false for an unknown mode.
func DocBlock(mode string) (begin, end string, ok bool) {
	switch mode {
	case "random":
		return beginMarker, endMarker, true
	case "workload":
		return workloadBegin, workloadEnd, true
	case "related", "doubled":
		return "<!-- fidelity-" + mode + ":begin (make fidelity FIDELITY_MODE=" + mode + " rewrites this block) -->",
			"<!-- fidelity-" + mode + ":end -->", true
	}
	return "", "", false
}

// CheckDoc reports an error unless the Markdown file has the block of
// mode: checked before a run, which takes minutes, rather than after.
func CheckDoc(path, mode string) error {
	begin, end, ok := DocBlock(mode)
	if !ok {
		return fmt.Errorf("mode %q has no block", mode)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("check %s: %w", path, err)
	}
	i, j := bytes.Index(data, []byte(begin)), bytes.Index(data, []byte(end))
	if i < 0 || j < i {
		return fmt.Errorf("%s has no block for -mode %s: add the lines %q and %q", path, mode, begin, end)
	}
	return nil
}

// UpdateModeDoc replaces the block of mode (DocBlock) of a Markdown file
// with text.
func UpdateModeDoc(path, mode, text string) error {
	begin, end, ok := DocBlock(mode)
	if !ok {
		return fmt.Errorf("update %s: mode %q has no block", path, mode)
	}
	return updateBlock(path, begin, end, text)
}

// updateBlock replaces the text between two marker lines of a Markdown
// file.
func updateBlock(path, beginMarker, endMarker, text string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("update %s: %w", path, err)
	}
	i, j := bytes.Index(data, []byte(beginMarker)), bytes.Index(data, []byte(endMarker))
	if i < 0 || j < i {
		return fmt.Errorf("update %s: no %q ... %q block", path, beginMarker, endMarker)
	}
	var out bytes.Buffer
	out.Write(data[:i+len(beginMarker)])
	out.WriteString("\n" + strings.TrimSpace(text) + "\n")
	out.Write(data[j:])
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, out.Bytes(), 0o644); err != nil {
		return fmt.Errorf("update %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("update %s: %w", path, err)
	}
	return nil
}
