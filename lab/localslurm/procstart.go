package localslurm

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// clockTicks is Linux's USER_HZ, the unit of /proc/PID/stat's start time.
const clockTicks = 100

// Uptime is the time since boot (/proc/uptime) in seconds, the clock of
// StartedAt.
func Uptime() (float64, bool) {
	data, err := os.ReadFile("/proc/uptime")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(data))
	if len(f) == 0 {
		return 0, false
	}
	v, err := strconv.ParseFloat(f[0], 64)
	return v, err == nil
}

// StartedAt is when process pid started, in seconds since boot
// (/proc/PID/stat field 22). A test that checks a stopped cluster's
// processes are gone compares it with an Uptime read before Stop: a
// process id found alive that started later is another process's, the
// kernel having given the freed id again (pid_max is 32768 here, and the
// real-Slurm suite spawns hundreds of processes a second).
func StartedAt(pid int) (float64, bool) {
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	i := bytes.LastIndexByte(stat, ')')
	if err != nil || i < 0 {
		return 0, false
	}
	f := strings.Fields(string(stat[i+1:])) // from field 3, the state
	if len(f) < 20 {
		return 0, false
	}
	ticks, err := strconv.ParseUint(f[19], 10, 64)
	return float64(ticks) / clockTicks, err == nil
}

// LeftAfter reports whether process pid, recorded before a Stop that
// began at began (Uptime), still exists as the same process: alive, not
// a zombie, and started before began.
func LeftAfter(pid int, began float64) bool {
	if !alive(pid) {
		return false
	}
	start, ok := StartedAt(pid)
	if !ok {
		// Gone between the two reads (its stat is unreadable), or
		// unreadable while alive: only the latter is left.
		return alive(pid)
	}
	return start <= began
}
