//go:build unix

package load

import (
	"errors"
	"syscall"
)

// openFlags make open fail on a symbolic link and not block on a FIFO.
const openFlags = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// dirFlags make opening a directory fail on a symbolic link and on
// anything that is not a directory.
const dirFlags = syscall.O_NOFOLLOW | syscall.O_DIRECTORY

// noFollowOpen says that openFlags refuse symbolic links themselves.
const noFollowOpen = true

func isLoop(err error) bool { return errors.Is(err, syscall.ELOOP) }
