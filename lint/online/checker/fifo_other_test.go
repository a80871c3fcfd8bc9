//go:build !unix

package checker_test

import "errors"

func mkfifo(string) error { return errors.New("no FIFOs") }
