package diff

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/slurmspec/slurmspec/compiler/hostlist"
)

// Kind says what a change is in.
type Kind string

// Kinds of change, in the order reports list them within one impact.
const (
	// KindCluster is a field of the cluster in cluster.json (Key is its
	// dotted path), or its resource name.
	KindCluster Kind = "cluster"
	// KindNodePool is a node pool of cluster.json (Path is its id; Key
	// the field's dotted path, empty when the pool is added or removed).
	KindNodePool Kind = "node-pool"
	// KindGlobal is a global slurm.conf key (Key).
	KindGlobal Kind = "slurm.conf-global"
	// KindPartition is a PartitionName line (Path is the partition, Key
	// a key of its line, empty when the partition is added or removed).
	// The default partition moving is one change with an empty Path and
	// Key "Default", whose Old and New are partition names.
	KindPartition Kind = "slurm.conf-partition"
	// KindNodeSet is a NodeSet line (Path is the node set).
	KindNodeSet Kind = "slurm.conf-nodeset"
	// KindNode is the configuration of nodes from NodeName lines (Path is
	// the host list of the nodes that changed the same way).
	KindNode Kind = "slurm.conf-node"
	// KindScript is a prolog or epilog script (Path is the file; Diff the
	// unified diff).
	KindScript Kind = "script"
	// KindFile is any other rendered file (Path; Diff).
	KindFile Kind = "file"
)

var kindOrder = map[Kind]int{KindCluster: 0, KindNodePool: 1, KindGlobal: 2, KindPartition: 3, KindNodeSet: 4, KindNode: 5, KindScript: 6, KindFile: 7}

// Op says whether something was added, removed or changed.
type Op string

// Operations.
const (
	OpAdded   Op = "added"
	OpRemoved Op = "removed"
	OpChanged Op = "changed"
)

// Change is one semantic difference between the old and the new rendering.
type Change struct {
	Kind Kind `json:"kind"`
	Op   Op   `json:"op"`
	// Path names the object the change is in (see Kind); empty for
	// global keys and cluster fields.
	Path string `json:"path,omitempty"`
	// Key is the slurm.conf key or the dotted cluster.json field.
	Key string `json:"key,omitempty"`
	// Old and New are the values; empty when absent. For an added or
	// removed line or pool they list its Key=Value pairs.
	Old string `json:"old,omitempty"`
	New string `json:"new,omitempty"`
	// Impact is what applying the change costs; Reason says why, with
	// the source of the fact.
	Impact Impact `json:"impact"`
	Reason string `json:"reason"`
	// HurtsJobs, when not empty, says how the change can hurt running or
	// pending jobs.
	HurtsJobs string `json:"hurtsJobs,omitempty"`
	// Diff is the unified diff of a script or file.
	Diff string `json:"diff,omitempty"`
}

// Subject names what changed, such as "partition train PriorityTier".
func (c Change) Subject() string {
	join := func(parts ...string) string {
		var out []string
		for _, p := range parts {
			if p != "" {
				out = append(out, p)
			}
		}
		return strings.Join(out, " ")
	}
	switch c.Kind {
	case KindCluster:
		return join("cluster", c.Key)
	case KindNodePool:
		return join("node pool", c.Path, c.Key)
	case KindGlobal:
		return join("slurm.conf", c.Key)
	case KindPartition:
		if c.Path == "" {
			return "default partition"
		}
		return join("partition", c.Path, c.Key)
	case KindNodeSet:
		return join("node set", c.Path, c.Key)
	case KindNode:
		return join("nodes", c.Path, c.Key)
	}
	return c.Path
}

// values describes the values, with arrow between old and new.
func (c Change) values(arrow string) string {
	switch c.Op {
	case OpAdded:
		if c.New == "" {
			return "added"
		}
		return "added: " + c.New
	case OpRemoved:
		if c.Old == "" {
			return "removed"
		}
		return "removed (was " + c.Old + ")"
	}
	if c.Old == "" && c.New == "" {
		return "changed"
	}
	return c.Old + " " + arrow + " " + c.New
}

// String is a one-line description: "partition train PriorityTier: 10 -> 20".
func (c Change) String() string {
	return c.Subject() + ": " + c.values("->")
}

// sortChanges orders changes by decreasing impact, then kind, path, key
// and values, so that every report is deterministic.
func sortChanges(cs []Change) {
	sort.SliceStable(cs, func(i, j int) bool {
		a, b := cs[i], cs[j]
		if a.Impact != b.Impact {
			return a.Impact > b.Impact
		}
		return lessPlace(a, b)
	})
}

func lessPlace(a, b Change) bool {
	if kindOrder[a.Kind] != kindOrder[b.Kind] {
		return kindOrder[a.Kind] < kindOrder[b.Kind]
	}
	if a.Path != b.Path {
		if a.Kind == KindNode {
			if fa, fb := hostlist.First(a.Path), hostlist.First(b.Path); fa != fb {
				return hostlist.Less(fa, fb)
			}
		}
		return a.Path < b.Path
	}
	if ak, bk := strings.ToLower(a.Key), strings.ToLower(b.Key); ak != bk {
		return ak < bk
	}
	if a.Op != b.Op {
		return a.Op < b.Op
	}
	if a.Old != b.Old {
		return a.Old < b.Old
	}
	return a.New < b.New
}

// Report is the result of a comparison.
type Report struct {
	// Changes are ordered by decreasing impact, then by place.
	Changes []Change
	// SlurmVersion is the release series the changes were classified for.
	SlurmVersion string
}

// HasChanges reports whether anything changed.
func (r *Report) HasChanges() bool { return len(r.Changes) > 0 }

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
	var parts []string
	if r.MaxImpact() == InPlace {
		parts = append(parts, "applies in place")
	}
	if has[Reconfigure] {
		parts = append(parts, "needs scontrol reconfigure")
	}
	if has[Restart] {
		if ctld {
			parts = append(parts, "restarts slurmctld")
		} else {
			parts = append(parts, "restarts slurmd")
		}
	}
	if has[ReplacePool] {
		parts = append(parts, "replaces node pool "+strings.Join(sortedKeys(pools), ", "))
	}
	if has[ReplaceCluster] {
		parts = append(parts, "replaces the whole cluster")
	}
	if n := r.HurtsJobs(); n > 0 {
		parts = append(parts, fmt.Sprintf("%d may hurt running jobs", n))
	}
	return s + " — " + strings.Join(parts, ", ")
}

// Text writes the report for a terminal: the summary, one block per
// change, then the diffs of scripts and files.
func (r *Report) Text(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "slurmspec: %s\n", r.Summary())
	if r.HasChanges() {
		fmt.Fprintf(&b, "max impact: %s (classified for Slurm %s)\n", r.MaxImpact(), r.SlurmVersion)
	}
	const indent = "                 "
	for _, c := range r.Changes {
		fmt.Fprintf(&b, "\n%-15s  %s\n", c.Impact, c.Subject())
		fmt.Fprintf(&b, "%s%s\n", indent, oneLine(c.values("->")))
		fmt.Fprintf(&b, "%swhy: %s\n", indent, c.Reason)
		if c.HurtsJobs != "" {
			fmt.Fprintf(&b, "%shurts jobs: %s\n", indent, c.HurtsJobs)
		}
	}
	for _, c := range r.Changes {
		if c.Diff != "" {
			b.WriteString("\n" + c.Diff)
		}
	}
	return write(w, b.String())
}

// Markdown writes the report as a pull request comment: a bold summary
// line, a table of changes with their impact, the slurm.conf key diff, and
// the script diffs in collapsed sections.
func (r *Report) Markdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "**slurmspec: %s**\n", r.Summary())
	if !r.HasChanges() {
		return write(w, b.String())
	}
	b.WriteString("\n| impact | change | old | new | why | running jobs |\n|---|---|---|---|---|---|\n")
	for _, c := range r.Changes {
		hurts := ""
		if c.HurtsJobs != "" {
			hurts = "⚠️ " + cell(c.HurtsJobs)
		}
		old, new := c.Old, c.New
		if c.Kind == KindScript || c.Kind == KindFile {
			old, new = "", ""
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n",
			c.Impact, mdSubject(c), code(old), code(new), cell(c.Reason), hurts)
	}
	if lines := confDiff(r.Changes); len(lines) > 0 {
		body := strings.Join(lines, "\n") + "\n"
		f := fence(body)
		fmt.Fprintf(&b, "\n**slurm.conf**\n\n%sdiff\n%s%s\n", f, body, f)
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
	fmt.Fprintf(&b, "\n<sub>Classified for Slurm %s. Impacts, least to most: in-place, reconfigure, restart, replace-pool, replace-cluster.</sub>\n", r.SlurmVersion)
	return write(w, b.String())
}

// JSONVersion is the version of the JSON shape Report.JSON writes.
// Version 1:
//
//	{
//	  "version": 1,
//	  "slurmVersion": "23.02",   // release series the changes were classified for
//	  "changed": true,           // false when nothing changed
//	  "maxImpact": "restart",    // none, in-place, reconfigure, restart, replace-pool, replace-cluster
//	  "hurtsJobs": 1,            // how many changes can hurt running or pending jobs
//	  "summary": "2 changes — restarts slurmctld, 1 may hurt running jobs",
//	  "changes": [               // never null; ordered by decreasing impact, then place
//	    {"kind": "slurm.conf-global", "op": "changed", "key": "SelectType",
//	     "old": "select/cons_tres", "new": "select/linear", "impact": "restart",
//	     "reason": "...", "hurtsJobs": "..."}
//	  ]
//	}
//
// Change fields: kind (cluster, node-pool, slurm.conf-global,
// slurm.conf-partition, slurm.conf-nodeset, slurm.conf-node, script, file),
// op (added, removed, changed), path, key, old, new, impact, reason,
// hurtsJobs, diff; path, key, old, new, hurtsJobs and diff are left out
// when empty. New fields may be added within version 1; a change of meaning
// or a removal increases the version.
const JSONVersion = 1

// jsonReport is the JSON shape documented on JSONVersion.
type jsonReport struct {
	Version      int      `json:"version"`
	SlurmVersion string   `json:"slurmVersion"`
	Changed      bool     `json:"changed"`
	MaxImpact    Impact   `json:"maxImpact"`
	HurtsJobs    int      `json:"hurtsJobs"`
	Summary      string   `json:"summary"`
	Changes      []Change `json:"changes"`
}

// JSON writes the report as JSON in the shape documented on JSONVersion.
func (r *Report) JSON(w io.Writer) error {
	out := jsonReport{
		Version:      JSONVersion,
		SlurmVersion: r.SlurmVersion,
		Changed:      r.HasChanges(),
		MaxImpact:    r.MaxImpact(),
		HurtsJobs:    r.HurtsJobs(),
		Summary:      r.Summary(),
		Changes:      r.Changes,
	}
	if out.Changes == nil {
		out.Changes = []Change{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("writing JSON report: %w", err)
	}
	return nil
}

func write(w io.Writer, s string) error {
	if _, err := io.WriteString(w, s); err != nil {
		return fmt.Errorf("writing report: %w", err)
	}
	return nil
}

// confDiff writes the slurm.conf changes as diff lines, grouped by line.
func confDiff(changes []Change) []string {
	var cs []Change
	for _, c := range changes {
		switch c.Kind {
		case KindGlobal, KindPartition, KindNodeSet, KindNode:
			cs = append(cs, c)
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return lessPlace(cs[i], cs[j]) })
	var out []string
	emit := func(sign, s string) { out = append(out, sign+s) }
	for _, c := range cs {
		var head string
		switch c.Kind {
		case KindGlobal:
			if c.Op != OpAdded {
				emit("-", c.Key+"="+c.Old)
			}
			if c.Op != OpRemoved {
				emit("+", c.Key+"="+c.New)
			}
			continue
		case KindPartition:
			if c.Path == "" {
				if c.Old != "" {
					emit("-", "PartitionName="+c.Old+" Default=YES")
				}
				if c.New != "" {
					emit("+", "PartitionName="+c.New+" Default=YES")
				}
				continue
			}
			head = "PartitionName=" + c.Path
		case KindNodeSet:
			head = "NodeSet=" + c.Path
		case KindNode:
			head = "NodeName=" + c.Path
		}
		if c.Key == "" {
			if c.Old != "" || c.Op == OpRemoved {
				emit("-", strings.TrimSpace(head+" "+c.Old))
			}
			if c.New != "" || c.Op == OpAdded {
				emit("+", strings.TrimSpace(head+" "+c.New))
			}
			continue
		}
		if c.Op != OpAdded {
			emit("-", head+" "+c.Key+"="+c.Old)
		}
		if c.Op != OpRemoved {
			emit("+", head+" "+c.Key+"="+c.New)
		}
	}
	return out
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
