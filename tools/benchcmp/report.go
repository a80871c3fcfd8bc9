// The report: the results table with its targets, the Go benchmark table,
// and the rewrite of docs/performance.md's results block.

package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"
)

type results struct {
	seed, big, scale, many [2]stats
	findings, findScale    [2]stats
	rssKB                  int
	hostileKB              []int // peak RSS of lint over hostileCounts CUE files
	init                   time.Duration
	inits                  []string
	heavy                  []string // modules the lint path must not link
}

// hostileMaxRSS is the target for the peak RSS of lint over hostile CUE
// files, in bytes: one evaluation's heap bound (load.CUEMaxHeap, 512 MiB)
// and the rest of the process, whatever the number of files.
const hostileMaxRSS = 1e9

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "**not met**"
}

func format(m machine, r results, d data, cfg config) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Measured %s on %d × %s; load average (1, 5, 15 min) %s before, %s after.\n",
		m.date, m.nproc, m.model, m.loadBefore, m.loadAfter)
	fmt.Fprintf(&b, "Wall-clock medians of interleaved runs (%d runs each for the seed, %d for the large specs, %d for the 1000 files); CPU is user+sys.\n\n",
		cfg.runs*4, cfg.runs, max(3, cfg.runs/3))
	b.WriteString("| comparison | slurmspec | other | ratio | target | |\n|---|---|---|---|---|---|\n")
	row := func(what string, s [2]stats, target string, ok bool) {
		fmt.Fprintf(&b, "| %s | %s (cpu %s) | %s (cpu %s) | %.2f | %s | %s |\n",
			what, ms(s[0].wall), ms(s[0].cpu), ms(s[1].wall), ms(s[1].cpu), ratio(s[0], s[1]), target, verdict(ok))
	}
	row(fmt.Sprintf("seed (%d B): `slurmspec lint` / `cue vet`", d.seedBytes), r.seed, "≤ 0.8", ratio(r.seed[0], r.seed[1]) <= 0.8)
	row("1000 pools: `slurmspec lint` / `cue vet`", r.big, "≤ 0.8", ratio(r.big[0], r.big[1]) <= 0.8)
	row("`slurmspec lint`: 1000 pools / 100 pools", r.scale, "≤ 15", ratio(r.scale[0], r.scale[1]) <= 15)
	row("1000 seed files, one call: `slurmspec lint` / `cue vet`", r.many, "≤ 0.5", ratio(r.many[0], r.many[1]) <= 0.5)
	row(fmt.Sprintf("1000 pools, %d findings, text output: `slurmspec lint` / `cue vet`", d.findings1000), r.findings, "≤ 0.5",
		ratio(r.findings[0], r.findings[1]) <= 0.5)
	row("text output with findings: 2000 pools / 1000 pools", r.findScale, "≤ 2.5", ratio(r.findScale[0], r.findScale[1]) <= 2.5)
	fmt.Fprintf(&b, "\nPeak RSS of `slurmspec lint` on the 1000-pool spec (`/usr/bin/time -v`): **%.1f MB** (target ≤ 150 MB: %s).\n",
		float64(r.rssKB)*1024/1e6, verdict(r.rssKB*1024 <= 150e6))
	var rss []string
	ok := true
	for i, kb := range r.hostileKB {
		rss = append(rss, fmt.Sprintf("%d: **%.1f MB**", hostileCounts[i], float64(kb)*1024/1e6))
		ok = ok && kb*1024 <= hostileMaxRSS
	}
	fmt.Fprintf(&b, "\nPeak RSS of `slurmspec lint DIR` on a directory of hostile CUE files (each %d bytes, `%s`; one evaluated and abandoned, the rest refused unevaluated), by number of files: %s (target ≤ %.1f GB: %s).\n",
		len(hostileCUE), strings.TrimSpace(hostileCUE[strings.IndexByte(hostileCUE, '\n')+1:]), strings.Join(rss, ", "), hostileMaxRSS/1e9, verdict(ok))
	fmt.Fprintf(&b, "\n`GODEBUG=inittrace=1 slurmspec lint seed.json`: package initialisers total **%.2f ms** (median of 9); largest: %s.\n",
		float64(r.init)/1e6, strings.Join(r.inits, ", "))
	if len(r.heavy) == 0 {
		b.WriteString("\nThe slurmspec binary links no Pulumi, gRPC or Filestore client module (read from its build information).\n")
	} else {
		fmt.Fprintf(&b, "\n**The slurmspec binary links %s**: lint pays their initialisation.\n", strings.Join(r.heavy, ", "))
	}
	return b.String()
}

const (
	beginMark = "<!-- benchcmp:begin -->"
	endMark   = "<!-- benchcmp:end -->"
)

// rewriteDoc replaces the text between the markers of the doc with the
// report and, when given, a table of the Go benchmarks.
func rewriteDoc(path, report, goBench string) error {
	doc, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	i, j := bytes.Index(doc, []byte(beginMark)), bytes.Index(doc, []byte(endMark))
	if i < 0 || j < i {
		return fmt.Errorf("%s has no %s … %s block", path, beginMark, endMark)
	}
	var b bytes.Buffer
	b.Write(doc[:i+len(beginMark)])
	b.WriteString("\n" + report)
	if goBench != "" {
		t, err := benchTable(goBench)
		if err != nil {
			return err
		}
		b.WriteString("\nGo benchmarks of the same run (`go test -bench`; per operation):\n\n" + t)
	}
	b.Write(doc[j:])
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// benchTable condenses `go test -bench -benchmem` output into a Markdown
// table.
func benchTable(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return benchTableFrom(f)
}

func benchTableFrom(r io.Reader) (string, error) {
	re := regexp.MustCompile(`^(Benchmark\S+)\s+\d+\s+([0-9.]+) ns/op(?:\s+[0-9.]+ MB/s)?\s+(\d+) B/op\s+(\d+) allocs/op`)
	// go test appends -GOMAXPROCS to the names when it is above 1.
	suffix := fmt.Sprintf("-%d", runtime.GOMAXPROCS(0))
	var b strings.Builder
	b.WriteString("| package | benchmark | time | memory | allocations |\n|---|---|---|---|---|\n")
	sc := bufio.NewScanner(r)
	n := 0
	pkg := ""
	for sc.Scan() {
		if p, ok := strings.CutPrefix(sc.Text(), "pkg: "); ok {
			pkg = strings.TrimPrefix(p, "github.com/slurmspec/slurmspec/")
			continue
		}
		m := re.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		name := m[1]
		if runtime.GOMAXPROCS(0) > 1 {
			name = strings.TrimSuffix(name, suffix)
		}
		ns, _ := strconv.ParseFloat(m[2], 64)
		by, _ := strconv.ParseFloat(m[3], 64)
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", pkg, strings.TrimPrefix(name, "Benchmark"), human(ns), bytesHuman(by), m[4])
		n++
	}
	if n == 0 {
		return "", fmt.Errorf("no benchmark results found")
	}
	return b.String(), sc.Err()
}

func human(ns float64) string {
	switch {
	case ns >= 1e9:
		return fmt.Sprintf("%.2f s", ns/1e9)
	case ns >= 1e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.1f µs", ns/1e3)
	}
	return fmt.Sprintf("%.0f ns", ns)
}

func bytesHuman(b float64) string {
	switch {
	case b >= 1e6:
		return fmt.Sprintf("%.1f MB", b/1e6)
	case b >= 1e3:
		return fmt.Sprintf("%.1f kB", b/1e3)
	}
	return fmt.Sprintf("%.0f B", b)
}
