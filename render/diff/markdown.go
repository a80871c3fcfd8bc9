package diff

// The Markdown form of a report: a pull request comment.

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Markdown writes the report as a pull request comment: a bold summary
// line (most severe first), a table of changes with their impact, who
// applies each impact, the diff of slurm.conf's lines as written, and the
// script diffs in collapsed sections.
func (r *Report) Markdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "**slurmspec: %s** — target %s\n", r.Summary(), r.Target)
	if !r.HasChanges() {
		return write(w, b.String())
	}
	if len(r.Changes) > 0 {
		b.WriteString("\n| impact | change | old | new | why | running jobs |\n|---|---|---|---|---|---|\n")
	}
	for _, c := range r.Changes {
		hurts := ""
		if c.HurtsJobs != "" {
			hurts = "⚠️ " + cell(c.HurtsJobs)
		}
		old, new := c.Old, c.New
		if c.Kind == KindScript || c.Kind == KindFile {
			old, new = "", ""
		}
		why := cell(c.Reason)
		if c.Effective != "" {
			why += "<br>**effective value:** " + cell(c.Effective)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n",
			c.Impact, mdSubject(c), code(old), code(new), why, hurts)
	}
	if len(r.Changes) > 0 {
		b.WriteString("\n**Who applies what**\n\n")
		for _, i := range r.impacts() {
			fmt.Fprintf(&b, "- %s: %s\n", i, cell(i.AppliedBy()))
		}
	}
	r.accountingMarkdown(&b)
	if r.ConfDiff != "" {
		f := fence(r.ConfDiff)
		fmt.Fprintf(&b, "\n**slurm.conf** (the lines Slurm reads, as written)\n\n%sdiff\n%s%s\n", f, r.ConfDiff, f)
	}
	for _, c := range r.Changes {
		if c.Diff == "" {
			continue
		}
		f := fence(c.Diff)
		fmt.Fprintf(&b, "\n<details><summary><code>%s</code> %s</summary>\n\n%sdiff\n%s", htmlEscape(c.Path), c.Op, f, c.Diff)
		if !strings.HasSuffix(c.Diff, "\n") {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%s\n\n</details>\n", f)
	}
	fmt.Fprintf(&b, "\n<sub>Classified for %s. Impacts, least to most: in-place, reconfigure, restart, replace-pool, replace-cluster.</sub>\n", r.Target)
	return write(w, b.String())
}

// mdSubject is Subject with the names in code spans.
func mdSubject(c Change) string {
	var s string
	switch c.Kind {
	case KindCluster:
		s = "cluster " + code(c.Key)
	case KindNodePool:
		s = "node pool " + code(c.Path)
		if c.Key != "" {
			s += " " + code(c.Key)
		}
	case KindGlobal:
		s = "slurm.conf " + code(c.Key)
	case KindPartition, KindNodeSet, KindNode:
		if c.Kind == KindPartition && c.Path == "" {
			s = "default partition"
			break
		}
		s = map[Kind]string{KindPartition: "partition ", KindNodeSet: "node set ", KindNode: "nodes "}[c.Kind] + code(c.Path)
		if c.Key != "" {
			s += " " + code(c.Key)
		}
	default:
		s = code(c.Path)
	}
	if c.Op != OpChanged {
		s += " (" + string(c.Op) + ")"
	}
	return s
}

// maxCell is how many characters of a value a table cell shows.
const maxCell = 200

// code writes s as a code span fit for a table cell: long values are
// shortened, line breaks become spaces, and pipes are escaped.
func code(s string) string {
	if s == "" {
		return ""
	}
	s = oneLine(s)
	if utf8.RuneCountInString(s) > maxCell {
		s = string([]rune(s)[:maxCell]) + "…"
	}
	ticks := strings.Repeat("`", longestRun(s, '`')+1)
	pad := ""
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		pad = " "
	}
	return strings.ReplaceAll(ticks+pad+s+pad+ticks, "|", `\|`)
}

// cell makes plain text safe in a table cell.
func cell(s string) string {
	return strings.ReplaceAll(htmlEscape(oneLine(s)), "|", `\|`)
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// fence returns a code fence longer than any run of backticks in s.
func fence(s string) string {
	return strings.Repeat("`", max(3, longestRun(s, '`')+1))
}

func longestRun(s string, c byte) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}
