package load

import (
	"fmt"
	"io"
)

// ReadPrefix reads at most n bytes from the start of a regular file, with
// the guarantees of ReadFile: a symbolic link, FIFO, device or directory is
// refused without blocking. It is for deciding what a file is (spec
// discovery) without reading all of it.
func ReadPrefix(name string, n int) ([]byte, error) {
	f, err := openRegular(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, int64(n)))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	return data, nil
}
