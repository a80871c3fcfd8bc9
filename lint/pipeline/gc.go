package pipeline

import (
	"os"
	"runtime/debug"
)

// SmallRun is the total size of specs up to which a run counts as small:
// the seed is 2 KB, a 100-pool spec 60 KB.
const SmallRun = 256 << 10

// TotalSize is the sum of the sizes of the regular files among files,
// counted until it passes SmallRun (all that TuneGC needs to know).
func TotalSize(files []string) int64 {
	var total int64
	for _, file := range files {
		if fi, err := os.Stat(file); err == nil && fi.Mode().IsRegular() {
			total += fi.Size()
		}
		if total > SmallRun {
			break
		}
	}
	return total
}

// TuneGC is told the total size of the specs a run reads. For a small run,
// the pre-commit case, it lets the heap grow to five times what is live
// before collecting (GOGC=400): such a run allocates a few megabytes and
// exits, and the collection the default GOGC=100 starts at 4 MB was 9 % of
// its CPU time. Large runs keep the default: on a 1000-pool spec GOGC=400
// was 20 % slower, the cost of faulting in fresh pages instead of reusing
// collected ones. GOGC set in the environment wins. It changes the
// process's collector: only a command's main calls it, never a library
// or a test.
func TuneGC(total int64) {
	if _, ok := os.LookupEnv("GOGC"); ok || total > SmallRun {
		return
	}
	debug.SetGCPercent(400)
}
