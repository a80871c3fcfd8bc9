// Timing: interleaved runs, medians, peak RSS, package-initialisation
// time and the modules linked into the binary.

package main

import (
	"bufio"
	"bytes"
	"debug/buildinfo"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

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
	kb, _, err := peakRSSExit(argv, 0)
	return kb, err
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
