// Package helperbin finds a helper binary of slurmspec, such as
// slurmspec-deploy or slurmspec-online: the one finder the commands that
// hand work to a helper use (deploy/dispatch, lint/online/dispatch).
//
// Find looks, in order:
//
//  1. at the path in an environment variable, when the caller names one
//     and it is set (SLURMSPEC_DEPLOY: tests, or a helper kept elsewhere);
//  2. next to the running executable, in its directory as invoked and
//     then with symbolic links resolved (a release puts the helpers beside
//     slurmspec; a link to slurmspec in ~/bin still finds them): a regular
//     file with an execute bit, so that a copy that lost its mode is passed
//     over rather than run and refused;
//  3. on PATH (exec.LookPath).
package helperbin

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
)

// ErrNotFound is wrapped by Find's error when the helper is nowhere.
var ErrNotFound = errors.New("not found")

// Find returns the path of the helper name (without ".exe"), looking as
// the package says; env names the environment variable that overrides
// the search, "" for none. Its error wraps ErrNotFound.
func Find(name, env string) (string, error) {
	exe, err := os.Executable()
	if err != nil {
		exe = ""
	}
	return find(name, env, exe, os.Getenv, exec.LookPath)
}

// find is Find with the running executable, the environment and the PATH
// search passed in.
func find(name, env, exe string, getenv func(string) string, lookPath func(string) (string, error)) (string, error) {
	if env != "" {
		if p := getenv(env); p != "" {
			return p, nil
		}
	}
	file := name
	if runtime.GOOS == "windows" {
		file += ".exe"
	}
	if exe != "" {
		dirs := []string{filepath.Dir(exe)}
		if real, err := filepath.EvalSymlinks(exe); err == nil && filepath.Dir(real) != dirs[0] {
			dirs = append(dirs, filepath.Dir(real))
		}
		for _, dir := range dirs {
			p := filepath.Join(dir, file)
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
				return p, nil
			}
		}
	}
	if p, err := lookPath(name); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("%s: %w next to this executable or on PATH", name, ErrNotFound)
}
