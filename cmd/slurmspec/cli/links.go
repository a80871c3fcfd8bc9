package cli

import (
	"github.com/spf13/pflag"

	"github.com/slurmspec/slurmspec/compiler/load/linkflag"
)

// linkFlag is --follow-symlinks (compiler/load/linkflag, the rule every
// binary shares), with its refusals as usage errors (exit 2).
type linkFlag struct{ linkflag.Flag }

func (f *linkFlag) register(fs *pflag.FlagSet) { f.Register(fs) }

// file checks a path to a file (linkflag.Flag.File).
func (f *linkFlag) file(what, path string) error { return asUsage(f.File(what, path)) }

// dir checks a path to a directory (linkflag.Flag.Dir).
func (f *linkFlag) dir(what, path string) error { return asUsage(f.Dir(what, path)) }

// asUsage turns a refusal into a usage error.
func asUsage(err error) error {
	if err == nil {
		return nil
	}
	return usageError("%s", err.Error())
}
