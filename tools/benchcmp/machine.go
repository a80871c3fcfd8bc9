// The machine the numbers were measured on, and waiting for it to be quiet.

package main

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// machine describes where and when the numbers were measured.
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
