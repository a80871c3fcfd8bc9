//go:build unix

package lint

import (
	"os"
	"syscall"
)

// ownedByUs reports whether the file belongs to the current user or root.
func ownedByUs(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return false
	}
	return st.Uid == 0 || int(st.Uid) == os.Geteuid()
}
