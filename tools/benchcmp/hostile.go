// Hostile CUE: the peak RSS of `slurmspec lint DIR` over directories of
// CUE files whose evaluation would not end (docs/security.md, issue
// #28.3).

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// hostileCUE is a 55-byte spec that the estimate before evaluation does
// not see through (the bound of the range is computed): evaluating it
// would build a list of 10^8 numbers. The watchdog abandons it at its
// time or heap bound; it then runs on until the process exits.
const hostileCUE = "import \"list\"\nnodePools: list.Range(0, 10000*10000, 1)\n"

// hostileCounts are the numbers of such files measured, each in a
// directory of its own.
var hostileCounts = []int{1, 8, 64}

// hostileRSS writes the directories under work and returns the peak RSS,
// in KiB, of `slurmspec lint DIR` on each. It checks that every file but
// one was refused unevaluated: the bound of one evaluation per process.
func hostileRSS(slurmspec, work string) ([]int, error) {
	var out []int
	for _, n := range hostileCounts {
		dir := filepath.Join(work, fmt.Sprintf("hostile-cue-%d", n))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		for i := range n {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("c%02d.cue", i)), []byte(hostileCUE), 0o644); err != nil {
				return nil, err
			}
		}
		kb, stdout, err := peakRSSExit([]string{slurmspec, "lint", dir}, 1)
		if err != nil {
			return nil, err
		}
		if got := strings.Count(stdout, "CUE not evaluated"); got != n-1 {
			return nil, fmt.Errorf("lint of %d hostile CUE files: %d refused unevaluated, want %d", n, got, n-1)
		}
		fmt.Printf("lint of %d hostile CUE files: peak RSS %.1f MB\n", n, float64(kb)*1024/1e6)
		out = append(out, kb)
	}
	return out, nil
}

// peakRSSExit is peakRSS accepting the given exit code besides 0; it
// returns the standard output too.
func peakRSSExit(argv []string, okCode int) (int, string, error) {
	cmd := exec.Command("/usr/bin/time", append([]string{"-v"}, argv...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err != nil && (cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != okCode) {
		return 0, "", fmt.Errorf("/usr/bin/time -v %s: %v\n%s", strings.Join(argv, " "), err, stderr.String())
	}
	m := regexp.MustCompile(`Maximum resident set size \(kbytes\): (\d+)`).FindSubmatch(stderr.Bytes())
	if m == nil {
		return 0, "", fmt.Errorf("no peak RSS in /usr/bin/time output")
	}
	kb, err := strconv.Atoi(string(m[1]))
	return kb, stdout.String(), err
}
