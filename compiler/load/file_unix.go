//go:build unix

package load

import (
	"errors"
	"syscall"
)

// openFlags make open fail on a symbolic link and not block on a FIFO.
const openFlags = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// noFollowOpen says that openFlags refuse symbolic links themselves.
const noFollowOpen = true

func isLoop(err error) bool { return errors.Is(err, syscall.ELOOP) }
