//go:build !linux

package load

// addressSpaceLimit: no limit is read elsewhere than on Linux.
func addressSpaceLimit() uint64 { return 0 }
