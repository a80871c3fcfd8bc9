// Package linkflag is the rule every slurmspec binary (slurmspec,
// slurmspec-deploy, slurmspec-online) applies to the paths it is given: a
// spec, a directory to search, an include or scripts directory, a config
// file, a capture, a state directory. Without --follow-symlinks no such
// path may pass through a symbolic link where the checkout controls it
// (load.LinkOnPath), since a link committed to a pull request could make
// the binary read, and print, files outside it. The flag's name, its help
// text and the refusal's wording live here once; each binary turns the
// *Error into its own usage error (exit 2).
package linkflag

import (
	"strings"

	"github.com/spf13/pflag"

	"github.com/slurmspec/slurmspec/compiler/escape"
	"github.com/slurmspec/slurmspec/compiler/load"
)

// Name is the flag every command that takes paths shares.
const Name = "follow-symlinks"

// Flag is --follow-symlinks. The zero value refuses links.
type Flag struct {
	// Follow is the flag's value: paths may pass through links.
	Follow bool
}

// Register adds --follow-symlinks to fs.
func (f *Flag) Register(fs *pflag.FlagSet) {
	fs.BoolVar(&f.Follow, Name, false, "let paths given pass through symbolic links to directories (refused by default: a link in a checkout can point outside it)")
}

// Args returns the flag as arguments for a helper binary that applies the
// same rule: ["--follow-symlinks"] when it is set, else none.
func (f *Flag) Args() []string {
	if f.Follow {
		return []string{"--" + Name}
	}
	return nil
}

// File checks a path to a file; what names it in the error ("--config",
// or "" for an argument). Its directories may not be links. The file
// itself may be one (the reader refuses it, naming it: load.ReadFile
// never follows a last element), unless the path ends in a separator,
// which makes the kernel follow it. The error is an *Error.
func (f *Flag) File(what, path string) error {
	if f.Follow {
		return nil
	}
	link := load.LinkOnPath(path)
	if link == "" || link == path {
		return nil
	}
	return &Error{What: what, Path: path, Link: link}
}

// Dir checks a path to a directory: no element of it may be a link. The
// error is an *Error.
func (f *Flag) Dir(what, path string) error {
	if f.Follow {
		return nil
	}
	if link := load.LinkOnPath(path); link != "" {
		return &Error{What: what, Path: path, Link: link}
	}
	return nil
}

// Error is the refusal of a path that passes through a link.
type Error struct {
	What string // the flag that named the path, "" for an argument
	Path string // the path as given
	Link string // the link it passes through, as load.LinkOnPath returns it
}

// Error names the path and the link, both escaped (compiler/escape), and
// how to go on.
func (e *Error) Error() string {
	subject := escape.Text(e.Path)
	if e.What != "" {
		subject = e.What + " " + subject
	}
	if strings.TrimRight(e.Path, "/") == e.Link {
		return subject + " is a symbolic link; slurmspec does not follow links in paths it is given (one in a checkout can point outside it): name the real path, or pass --" + Name
	}
	return subject + " passes through " + escape.Text(e.Link) + ", a symbolic link; slurmspec does not follow links in paths it is given (one in a checkout can point outside it): name the real path, or pass --" + Name
}
