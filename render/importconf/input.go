package importconf

import (
	"fmt"
	"io"
	"os"
	"syscall"
)

// MaxInputBytes bounds each file the import reads (slurm.conf, gres.conf,
// a script): far above any real slurm.conf (the 10,000-node one of the
// test corpus is under 1 MiB).
const MaxInputBytes = 16 << 20

// ReadInput reads a file for the import: a regular file only (a FIFO or a
// device is refused without blocking on it), at most MaxInputBytes. The
// path the user names may be a symbolic link to such a file.
func ReadInput(path string) ([]byte, error) {
	return readRegular(path, 0)
}

// readRegular is ReadInput with extra open flags (O_NOFOLLOW for files
// found in a directory).
func readRegular(path string, flags int) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|flags, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file (%s)", path, st.Mode().Type())
	}
	if st.Size() > MaxInputBytes {
		return nil, fmt.Errorf("%s: %d bytes, more than the %d an import reads", path, st.Size(), MaxInputBytes)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxInputBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(data) > MaxInputBytes {
		return nil, fmt.Errorf("%s: more than the %d bytes an import reads", path, MaxInputBytes)
	}
	return data, nil
}
