package gencore

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
)

// maxReleases is how many series catalog.VersionSet, a uint16 bit mask,
// can hold.
const maxReleases = 16

// seriesRe is a release series label such as 26.05.
var seriesRe = regexp.MustCompile(`^\d\d\.\d\d$`)

// releases is the list of Slurm release series, oldest first, read from
// releases.tsv: the one place that names them. Index i is catalog.Version
// i+1 and bit i of a version set.
type releases struct {
	labels []string
	notes  []string
	debian []debianRow
}

// debianRow is a release's Debian columns: the suite that ships it, how
// the local Slurm lab runs it (host, rootfs or nothing) and the
// debootstrap script of its root file system.
type debianRow struct{ suite, lab, debootstrap string }

// labConst names catalog.Lab's constants by the lab column's values.
var labConst = map[string]string{"": "LabNone", "host": "LabHost", "rootfs": "LabRootFS"}

// loadReleases reads releases.tsv: one row per series, oldest first.
func (g *generator) loadReleases() error {
	rows, err := g.readTSV("releases.tsv")
	if err != nil {
		return err
	}
	for _, r := range rows {
		label := r["series"]
		if !seriesRe.MatchString(label) {
			return fmt.Errorf("%s: series %q is not written as YY.MM", r["#where"], label)
		}
		if n := len(g.rel.labels); n > 0 && label <= g.rel.labels[n-1] {
			return fmt.Errorf("%s: series %s does not come after %s: list them oldest first", r["#where"], label, g.rel.labels[n-1])
		}
		d := debianRow{suite: r["debian"], lab: r["lab"], debootstrap: r["debootstrap"]}
		if err := d.check(g.rel.debian); err != nil {
			return fmt.Errorf("%s: series %s: %w", r["#where"], label, err)
		}
		g.rel.labels = append(g.rel.labels, label)
		g.rel.notes = append(g.rel.notes, r["note"])
		g.rel.debian = append(g.rel.debian, d)
	}
	switch n := len(g.rel.labels); {
	case n == 0:
		return fmt.Errorf("releases.tsv lists no series")
	case n > maxReleases:
		return fmt.Errorf("releases.tsv lists %d series; catalog.VersionSet holds %d: widen it", n, maxReleases)
	}
	return nil
}

// suiteRe is a Debian suite or debootstrap script name.
var suiteRe = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)

// check validates a row's Debian columns, given the rows before it.
func (d debianRow) check(before []debianRow) error {
	if _, ok := labConst[d.lab]; !ok {
		return fmt.Errorf("lab %q: want host, rootfs or nothing", d.lab)
	}
	for _, w := range []string{d.suite, d.debootstrap} {
		if w != "" && !suiteRe.MatchString(w) {
			return fmt.Errorf("%q is not a Debian suite or debootstrap script name", w)
		}
	}
	switch {
	case d.lab != "" && d.suite == "":
		return fmt.Errorf("the lab runs it (lab %s) but no Debian suite ships it", d.lab)
	case d.lab == "rootfs" && d.debootstrap == "":
		return fmt.Errorf("lab rootfs needs the debootstrap script that builds the %s root file system", d.suite)
	case d.lab != "rootfs" && d.debootstrap != "":
		return fmt.Errorf("a debootstrap script, but the lab builds no root file system for it (lab %q)", d.lab)
	}
	for _, b := range before {
		switch {
		case d.lab == "host" && b.lab == "host":
			return fmt.Errorf("a second series of lab host: the host runs one Slurm")
		case d.suite != "" && d.suite == b.suite:
			return fmt.Errorf("another series is already the one Debian %s ships", d.suite)
		}
	}
	return nil
}

// index returns the index of a series label.
func (r releases) index(label string) (int, error) {
	for i, l := range r.labels {
		if l == label {
			return i, nil
		}
	}
	return -1, fmt.Errorf("unknown series %q (not in releases.tsv)", label)
}

// set returns the bit set of a comma-separated list of series labels.
func (r releases) set(list string) (uint16, error) {
	var s uint16
	if list == "" {
		return 0, nil
	}
	for _, l := range strings.Split(list, ",") {
		i, err := r.index(strings.TrimSpace(l))
		if err != nil {
			return 0, err
		}
		s |= 1 << i
	}
	return s, nil
}

// label returns the label of index i, or "none".
func (r releases) label(i int) string {
	if i < 0 || i >= len(r.labels) {
		return "none"
	}
	return r.labels[i]
}

// constName returns the name of the catalog.Version constant of index i:
// V2605 for 26.05.
func (r releases) constName(i int) string {
	return "V" + strings.ReplaceAll(r.labels[i], ".", "")
}

// emit writes the Version constants and their labels.
func (r releases) emit(b *bytes.Buffer) {
	b.WriteString("// The release series covered by the catalog, oldest first (data/releases.tsv).\n")
	b.WriteString("const (\n")
	for i, l := range r.labels {
		typ := ""
		if i == 0 {
			typ = " Version = iota + 1"
		}
		comment := l
		if r.notes[i] != "" {
			comment += " (" + r.notes[i] + ")"
		}
		fmt.Fprintf(b, "%s%s // %s\n", r.constName(i), typ, comment)
	}
	b.WriteString(")\n\n")
	b.WriteString("// versionLabels maps a Version to its series label; index 0 is the zero value.\n")
	fmt.Fprintf(b, "var versionLabels = [...]string{\"\", %s}\n\n", quoteList(r.labels))
	b.WriteString("// debianOf maps a Version to how Debian ships it and the lab runs it; index 0 is the zero value.\n")
	b.WriteString("var debianOf = [...]Debian{{},\n")
	for i, d := range r.debian {
		if d == (debianRow{}) {
			fmt.Fprintf(b, "\t{}, // %s\n", r.labels[i])
			continue
		}
		f := []string{fmt.Sprintf("Suite: %q", d.suite), "Lab: " + labConst[d.lab]}
		if d.debootstrap != "" {
			f = append(f, fmt.Sprintf("Debootstrap: %q", d.debootstrap))
		}
		fmt.Fprintf(b, "\t{%s}, // %s\n", strings.Join(f, ", "), r.labels[i])
	}
	b.WriteString("}\n\n")
}

// lowestBit returns the index of the lowest bit of s, or -1.
func lowestBit(s uint16) int {
	for i := range maxReleases {
		if s&(1<<i) != 0 {
			return i
		}
	}
	return -1
}
