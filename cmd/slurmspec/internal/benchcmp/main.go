// Command benchcmp is the whole-process half of `make bench`: it times the
// slurmspec binary against `cue vet` with slurmspec's own schema on the
// same data, measures peak RSS and package-initialisation time, checks the
// performance targets of docs/performance.md and rewrites that file's
// results block.
//
// Variants are timed in interleaved rounds (A, B, A, B, ...) so that a
// change in machine load affects both sides of a ratio alike.
//
//	go run ./cmd/slurmspec/internal/benchcmp -slurmspec bin/slurmspec -cue $(go env GOPATH)/bin/cue \
//	    -gobench bench.txt -doc docs/performance.md
package main

import (
	"bufio"
	"bytes"
	"debug/buildinfo"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/compiler/specgen"
	"github.com/slurmspec/slurmspec/schema"
)

func main() {
	var (
		slurmspecBin = flag.String("slurmspec", "bin/slurmspec", "slurmspec binary to measure")
		cueBin       = flag.String("cue", "cue", "cue binary (v0.17.1)")
		root         = flag.String("root", ".", "repository root (for examples/)")
		work         = flag.String("work", "", "directory for the generated data (default: a temporary directory)")
		runs         = flag.Int("runs", 15, "timed runs of each command (more for the fast ones, fewer for the slow)")
		docPath      = flag.String("doc", "", "rewrite the results block of this Markdown file")
		goBench      = flag.String("gobench", "", "output of `go test -bench` to summarise in the doc")
		waitLoad     = flag.Float64("wait-load", 1.5, "wait until the 1-minute load average is below this before measuring")
		waitMax      = flag.Duration("wait-max", 0, "longest wait for a quiet machine (0: do not wait)")
	)
	flag.Parse()
	if err := run(config{
		slurmspec: *slurmspecBin, cue: *cueBin, root: *root, work: *work, runs: *runs,
		doc: *docPath, goBench: *goBench, waitLoad: *waitLoad, waitMax: *waitMax,
	}); err != nil {
		fmt.Fprintln(os.Stderr, "benchcmp:", err)
		os.Exit(1)
	}
}

type config struct {
	slurmspec, cue, root, work, doc, goBench string
	runs                                     int
	waitLoad                                 float64
	waitMax                                  time.Duration
}

// sample is one timed run.
type sample struct {
	wall, cpu time.Duration
}

// stats summarises the runs of one command.
type stats struct {
	name      string
	wall, cpu time.Duration // medians
	min       time.Duration
	n         int
}

func run(cfg config) error {
	var err error
	if cfg.slurmspec, err = filepath.Abs(cfg.slurmspec); err != nil {
		return err
	}
	if cfg.cue, err = exec.LookPath(cfg.cue); err != nil {
		return fmt.Errorf("cue not found (make bench-tools installs it): %w", err)
	}
	if out, err := exec.Command(cfg.cue, "version").Output(); err != nil || !bytes.Contains(out, []byte("v0.17.1")) {
		return fmt.Errorf("%s is not cue v0.17.1: %v %s", cfg.cue, err, firstLine(out))
	}
	if cfg.work == "" {
		if cfg.work, err = os.MkdirTemp("", "slurmspec-bench-"); err != nil {
			return err
		}
		defer os.RemoveAll(cfg.work)
	}
	d, err := prepare(cfg)
	if err != nil {
		return err
	}
	m := machine{}
	m.loadBefore = waitQuiet(cfg.waitLoad, cfg.waitMax)
	m.date = time.Now().UTC().Format("2006-01-02 15:04 MST")

	lint := func(files ...string) []string { return append([]string{cfg.slurmspec, "lint"}, files...) }
	vet := func(files ...string) []string {
		return append([]string{cfg.cue, "vet", "-d", "#Cluster", d.schema}, files...)
	}
	r := results{}
	fmt.Println("== whole process: medians of interleaved runs")
	r.seed = compare(cfg.runs*4, "lint seed", lint(d.seed), "cue vet seed", vet(d.seed))
	r.big = compare(cfg.runs, "lint 1000-pool", lint(d.gen1000), "cue vet 1000-pool", vet(d.gen1000))
	r.scale = compare(cfg.runs, "lint 1000-pool", lint(d.gen1000), "lint 100-pool", lint(d.gen100))
	// The text format with many findings (issue #18.3: it was quadratic).
	r.findings = compare(cfg.runs, "lint 1000-pool text", lint(d.gen1000), "cue vet 1000-pool", vet(d.gen1000))
	r.findScale = compare(cfg.runs, "lint 2000-pool text", lint(d.gen2000), "lint 1000-pool text", lint(d.gen1000))
	r.many = compare(max(3, cfg.runs/3), "lint 1000 files", lint(d.many...), "cue vet 1000 files", vet(d.many...))
	if r.rssKB, err = peakRSS(lint(d.gen1000)); err != nil {
		return err
	}
	if r.init, r.inits, err = initTrace(lint(d.seed)); err != nil {
		return err
	}
	if r.heavy, err = heavyModules(cfg.slurmspec); err != nil {
		return err
	}
	m.loadAfter = loadAvg()
	m.fill()
	report := format(m, r, d, cfg)
	fmt.Print(report)
	if cfg.doc != "" {
		if err := rewriteDoc(cfg.doc, report, cfg.goBench); err != nil {
			return err
		}
		fmt.Println("wrote", cfg.doc)
	}
	return nil
}

// data are the measured inputs, all camelCase JSON so that cue vet reads
// them as slurmspec does.
type data struct {
	schema, seed, gen100, gen1000, gen2000 string
	many                                   []string
	seedBytes                              int
	// findings1000 is how many findings lint reports on gen1000.
	findings1000 int
}

func prepare(cfg config) (data, error) {
	d := data{
		schema:  filepath.Join(cfg.work, "schema.cue"),
		seed:    filepath.Join(cfg.work, "seed.json"),
		gen100:  filepath.Join(cfg.work, "gen-100.json"),
		gen1000: filepath.Join(cfg.work, "gen-1000.json"),
		gen2000: filepath.Join(cfg.work, "gen-2000.json"),
	}
	src, err := exec.Command(cfg.slurmspec, "schema", "--format", "cue").Output()
	if err != nil {
		return d, fmt.Errorf("slurmspec schema --format cue: %w", err)
	}
	seedSrc, err := os.ReadFile(filepath.Join(cfg.root, "examples", "seed.jsonc"))
	if err != nil {
		return d, err
	}
	seed, err := camelJSON("seed.jsonc", seedSrc)
	if err != nil {
		return d, err
	}
	d.seedBytes = len(seed)
	files := map[string][]byte{
		d.schema: src, d.seed: seed,
		d.gen100: specgen.JSON(100), d.gen1000: specgen.JSON(1000), d.gen2000: specgen.JSON(2000),
	}
	manyDir := filepath.Join(cfg.work, "many")
	if err := os.MkdirAll(manyDir, 0o755); err != nil {
		return d, err
	}
	for i := range 1000 {
		f := filepath.Join(manyDir, fmt.Sprintf("seed-%04d.json", i))
		// Each file names its own cluster, so no two are identical.
		files[f] = bytes.Replace(seed, []byte("/modelDevelopmentClusters/seed"), fmt.Appendf(nil, "/modelDevelopmentClusters/s%04d", i), 1)
		d.many = append(d.many, f)
	}
	for name, b := range files {
		if err := os.WriteFile(name, b, 0o644); err != nil {
			return d, err
		}
	}
	// Both tools must accept every input, or the comparison is meaningless.
	for _, argv := range [][]string{
		{cfg.cue, "vet", "-d", "#Cluster", d.schema, d.seed, d.gen100, d.gen1000, d.gen2000},
		{cfg.slurmspec, "lint", d.seed, d.gen100, d.gen1000, d.gen2000},
	} {
		if out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput(); err != nil {
			return d, fmt.Errorf("%s: %v\n%s", strings.Join(argv, " "), err, out)
		}
	}
	// The many-findings rows need the findings: count them.
	out, err := exec.Command(cfg.slurmspec, "lint", "--format", "json", d.gen1000).Output()
	if err != nil {
		return d, fmt.Errorf("slurmspec lint --format json %s: %w", d.gen1000, err)
	}
	var rep struct {
		Summary struct{ Errors, Warnings, Infos int }
	}
	if err := json.Unmarshal(out, &rep); err != nil {
		return d, fmt.Errorf("slurmspec lint --format json: %w", err)
	}
	d.findings1000 = rep.Summary.Errors + rep.Summary.Warnings + rep.Summary.Infos
	if d.findings1000 < 1000 {
		return d, fmt.Errorf("the 1000-pool spec gives %d findings, the many-findings case needs 1000", d.findings1000)
	}
	return d, nil
}

// camelJSON loads a spec and writes it back as plain JSON with the
// camelCase field names that slurmspec normalises to.
func camelJSON(name string, src []byte) ([]byte, error) {
	sch, err := schema.New()
	if err != nil {
		return nil, err
	}
	doc, l := load.Bytes(name, src, load.Options{Verbatim: sch.Verbatim})
	if l.HasErrors() || doc == nil || doc.Root == nil {
		return nil, fmt.Errorf("loading %s: %v", name, l)
	}
	var b bytes.Buffer
	writeJSON(&b, doc.Root, "")
	b.WriteByte('\n')
	return b.Bytes(), nil
}

func writeJSON(b *bytes.Buffer, n *load.Node, indent string) {
	switch n.Kind {
	case load.Object:
		b.WriteString("{")
		for i, f := range n.Fields {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString("\n" + indent + "  " + strconv.Quote(f.Name) + ": ")
			writeJSON(b, f.Value, indent+"  ")
		}
		b.WriteString("\n" + indent + "}")
	case load.Array:
		b.WriteString("[")
		for i, it := range n.Items {
			if i > 0 {
				b.WriteString(", ")
			}
			writeJSON(b, it, indent+"  ")
		}
		b.WriteString("]")
	case load.String:
		b.WriteString(strconv.Quote(n.Text))
	case load.Number:
		b.WriteString(n.Text)
	case load.Bool:
		b.WriteString(strconv.FormatBool(n.True))
	default:
		b.WriteString("null")
	}
}

// compare times two commands in interleaved rounds, after one warm-up run
// of each, and prints their medians and ratio.
func compare(n int, nameA string, a []string, nameB string, b []string) [2]stats {
	timeOnce(a)
	timeOnce(b)
	var sa, sb []sample
	for range n {
		sa = append(sa, timeOnce(a))
		sb = append(sb, timeOnce(b))
	}
	out := [2]stats{summarise(nameA, sa), summarise(nameB, sb)}
	fmt.Printf("%-22s %9s (cpu %9s, min %9s)\n%-22s %9s (cpu %9s, min %9s)\n  ratio %.2f\n",
		nameA, ms(out[0].wall), ms(out[0].cpu), ms(out[0].min),
		nameB, ms(out[1].wall), ms(out[1].cpu), ms(out[1].min), ratio(out[0], out[1]))
	return out
}

func timeOnce(argv []string) sample {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1 && filepath.Base(argv[0]) == "slurmspec") {
		fmt.Fprintf(os.Stderr, "benchcmp: %s: %v\n", filepath.Base(argv[0]), err)
		os.Exit(1)
	}
	cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	return sample{wall: wall, cpu: cpu}
}

func summarise(name string, s []sample) stats {
	walls := make([]time.Duration, len(s))
	cpus := make([]time.Duration, len(s))
	for i, x := range s {
		walls[i], cpus[i] = x.wall, x.cpu
	}
	return stats{name: name, wall: median(walls), cpu: median(cpus), min: slices.Min(walls), n: len(s)}
}

func median(d []time.Duration) time.Duration {
	d = slices.Clone(d)
	slices.Sort(d)
	if len(d)%2 == 1 {
		return d[len(d)/2]
	}
	return (d[len(d)/2-1] + d[len(d)/2]) / 2
}

func ratio(a, b stats) float64 { return float64(a.wall) / float64(b.wall) }

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/1e6) }

// peakRSS runs the command under /usr/bin/time -v and returns its maximum
// resident set size in KiB.
func peakRSS(argv []string) (int, error) {
	cmd := exec.Command("/usr/bin/time", append([]string{"-v"}, argv...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("/usr/bin/time -v %s: %v\n%s", strings.Join(argv, " "), err, stderr.String())
	}
	m := regexp.MustCompile(`Maximum resident set size \(kbytes\): (\d+)`).FindSubmatch(stderr.Bytes())
	if m == nil {
		return 0, fmt.Errorf("no peak RSS in /usr/bin/time output")
	}
	return strconv.Atoi(string(m[1]))
}

// initTrace runs the command with GODEBUG=inittrace=1 several times and
// returns the median total of package-initialisation clock time and the
// largest initialisers of the median run.
func initTrace(argv []string) (time.Duration, []string, error) {
	type trace struct {
		total time.Duration
		top   []string
	}
	var traces []trace
	re := regexp.MustCompile(`^init (\S+) @\S+ ms, ([0-9.]+) ms clock, (\d+) bytes, (\d+) allocs`)
	for range 9 {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		_ = cmd.Run()
		var t trace
		type one struct {
			pkg string
			d   time.Duration
		}
		var all []one
		sc := bufio.NewScanner(&stderr)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				f, _ := strconv.ParseFloat(m[2], 64)
				d := time.Duration(f * 1e6)
				t.total += d
				all = append(all, one{m[1], d})
			}
		}
		if len(all) == 0 {
			return 0, nil, fmt.Errorf("no inittrace output from %s", strings.Join(argv, " "))
		}
		slices.SortFunc(all, func(a, b one) int { return int(b.d - a.d) })
		for _, o := range all[:min(5, len(all))] {
			t.top = append(t.top, fmt.Sprintf("%s %.2f ms", o.pkg, float64(o.d)/1e6))
		}
		traces = append(traces, t)
	}
	slices.SortFunc(traces, func(a, b trace) int { return int(a.total - b.total) })
	mid := traces[len(traces)/2]
	return mid.total, mid.top, nil
}

type machine struct {
	date, model           string
	nproc                 int
	loadBefore, loadAfter string
}

func (m *machine) fill() {
	m.nproc = runtime.NumCPU()
	m.model = "unknown"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				m.model = strings.TrimSpace(v)
				break
			}
		}
	}
}

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// waitQuiet polls the load average until the 1-minute figure is below
// limit or max has passed, and returns the load average it starts with.
func waitQuiet(limit float64, maxWait time.Duration) string {
	deadline := time.Now().Add(maxWait)
	for {
		l := loadAvg()
		one, err := strconv.ParseFloat(strings.Fields(l + " x")[0], 64)
		if err != nil || one < limit || !time.Now().Before(deadline) {
			return l
		}
		fmt.Printf("load average %s: waiting for < %.1f\n", l, limit)
		time.Sleep(30 * time.Second)
	}
}

type results struct {
	seed, big, scale, many [2]stats
	findings, findScale    [2]stats
	rssKB                  int
	init                   time.Duration
	inits                  []string
	heavy                  []string // modules the lint path must not link
}

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

// heavyModules lists the modules linked into the binary that the lint and
// render paths must not pay for: the Pulumi SDK, gRPC, the Filestore client.
func heavyModules(binary string) ([]string, error) {
	info, err := buildinfo.ReadFile(binary)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, m := range info.Deps {
		if strings.Contains(m.Path, "pulumi") || strings.HasPrefix(m.Path, "google.golang.org/grpc") ||
			strings.HasPrefix(m.Path, "cloud.google.com/go/filestore") {
			out = append(out, m.Path)
		}
	}
	return out, nil
}

func firstLine(b []byte) string {
	s, _, _ := strings.Cut(string(b), "\n")
	return s
}
