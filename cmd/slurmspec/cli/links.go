package cli

import (
	"strings"

	"github.com/spf13/pflag"

	"github.com/slurmspec/slurmspec/compiler/escape"
	"github.com/slurmspec/slurmspec/compiler/load"
)

// flagFollowSymlinks is the flag every command that takes paths shares.
const flagFollowSymlinks = "follow-symlinks"

// linkFlag is --follow-symlinks: without it, no path a command is given
// (a spec, a directory to search, an include or scripts directory, a
// config file) may pass through a symbolic link where the checkout
// controls it (load.LinkOnPath), since a link committed to a pull request
// could make slurmspec read, and print, files outside it.
type linkFlag struct{ follow bool }

func (f *linkFlag) register(fs *pflag.FlagSet) {
	fs.BoolVar(&f.follow, flagFollowSymlinks, false, "let paths given pass through symbolic links to directories (refused by default: a link in a checkout can point outside it)")
}

// file checks a path to a file: its directories may not be links. The
// file itself may be one (the reader refuses it, naming it: load.ReadFile
// never follows a last element), unless the path ends in a separator,
// which makes the kernel follow it.
func (f *linkFlag) file(what, path string) error {
	if f.follow {
		return nil
	}
	link := load.LinkOnPath(path)
	if link == "" || link == path {
		return nil
	}
	return linkError(what, path, link)
}

// dir checks a path to a directory: no element of it may be a link.
func (f *linkFlag) dir(what, path string) error {
	if f.follow {
		return nil
	}
	if link := load.LinkOnPath(path); link != "" {
		return linkError(what, path, link)
	}
	return nil
}

// linkError is the usage error naming the link a path passes through.
func linkError(what, path, link string) error {
	subject := escape.Text(path)
	if what != "" {
		subject = what + " " + subject
	}
	if strings.TrimRight(path, "/") == link {
		return usageError("%s is a symbolic link; slurmspec does not follow links in paths it is given (one in a checkout can point outside it): name the real path, or pass --%s", subject, flagFollowSymlinks)
	}
	return usageError("%s passes through %s, a symbolic link; slurmspec does not follow links in paths it is given (one in a checkout can point outside it): name the real path, or pass --%s", subject, escape.Text(link), flagFollowSymlinks)
}
