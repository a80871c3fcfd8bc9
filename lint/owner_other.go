//go:build !unix

package lint

import "os"

// ownedByUs is true where file ownership is not checked.
func ownedByUs(os.FileInfo) bool { return true }
