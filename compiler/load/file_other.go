//go:build !unix

package load

// openFlags: elsewhere a symbolic link is refused by an Lstat before opening.
const openFlags = 0

const noFollowOpen = false

const dirFlags = 0

func isLoop(error) bool { return false }
