package importconf

import (
	"github.com/slurmspec/slurmspec/compiler/load"
)

// MaxInputBytes bounds each file the import reads (slurm.conf, gres.conf,
// a script) and the included files together: far above any real slurm.conf
// (the 10,000-node one of the test corpus is under 2 KiB).
const MaxInputBytes = load.MaxFileSize

// ReadInput reads a file for the import as load.ReadFile reads a spec: a
// regular file only (a FIFO or a device is refused without blocking on
// it, a symbolic link is refused), at most MaxInputBytes.
func ReadInput(path string) ([]byte, error) {
	return load.ReadFile(path, MaxInputBytes)
}
