//go:build unix

package load

import (
	"os"
	"syscall"
)

// OwnedByUs reports whether the file belongs to the current user or root:
// a file above the spec (or the directory searched) that another user put
// there, in a shared directory made to look like a repository, is not
// taken as the project's (as git's safe.directory).
func OwnedByUs(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return false
	}
	return st.Uid == 0 || int(st.Uid) == os.Geteuid()
}
