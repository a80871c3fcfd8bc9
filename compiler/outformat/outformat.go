// Package outformat is the one registry of output formats. A command that
// takes --format (slurmspec lint, diff and rules) lists its formats in a
// Registry, and the names it accepts, its default, the flag's usage text,
// the error for an unknown name and the shell completion all come from
// it. Each format's writer stays with the output it writes (lint/format,
// render/diff, the rules command); only its type is the command's.
//
// It sits in layer 0 (docs/architecture.md) so that lint and render,
// which may not import each other, and cmd can all use it.
package outformat

import (
	"fmt"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// Format is one named output format.
type Format[W any] struct {
	// Name is what --format takes: lower case, no spaces.
	Name string
	// Note, when set, says in a few words what the format is for; the
	// flag's usage shows it after the name: "markdown (a PR comment)".
	Note string
	// Writer writes the output in this format; its type is the
	// command's (a function of what the command prints).
	Writer W
}

// Registry is a command's output formats, the default first. It is not
// changed after MustNew, so one value may be shared.
type Registry[W any] struct {
	formats []Format[W]
}

// List is what a --format flag needs of a Registry, whatever the type of
// its writers: the command-line side (the flag's default, usage and
// completion, and the check of a name given) is the same for every
// command.
type List interface {
	// Names are the names the flag accepts, the default first.
	Names() []string
	// Default is the first name.
	Default() string
	// Usage is the flag's usage text.
	Usage() string
	// Check returns the error for a name that is not one of Names.
	Check(name string) error
}

var _ List = (*Registry[int])(nil)

// MustNew returns the registry of formats, the first being the default.
// It panics when there is none, or when a name is empty, repeated or not
// a plain lower-case word: a mistake in the program, not in its input.
func MustNew[W any](formats ...Format[W]) *Registry[W] {
	if len(formats) == 0 {
		panic("outformat: no formats")
	}
	seen := make(map[string]bool, len(formats))
	for _, f := range formats {
		if f.Name == "" || strings.Trim(f.Name, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" {
			panic(fmt.Sprintf("outformat: bad format name %q", f.Name))
		}
		if seen[f.Name] {
			panic(fmt.Sprintf("outformat: format %q given twice", f.Name))
		}
		seen[f.Name] = true
	}
	return &Registry[W]{formats: append([]Format[W](nil), formats...)}
}

// Names returns the format names, the default first.
func (r *Registry[W]) Names() []string {
	out := make([]string, len(r.formats))
	for i, f := range r.formats {
		out[i] = f.Name
	}
	return out
}

// Default is the name of the default format, the first.
func (r *Registry[W]) Default() string { return r.formats[0].Name }

// Usage is the usage text of a --format flag: "output format: text,
// markdown (a PR comment) or json".
func (r *Registry[W]) Usage() string {
	items := make([]string, len(r.formats))
	for i, f := range r.formats {
		items[i] = f.Name
		if f.Note != "" {
			items[i] += " (" + f.Note + ")"
		}
	}
	return "output format: " + orList(items)
}

// Lookup returns the writer of the named format, or Check's error.
func (r *Registry[W]) Lookup(name string) (W, error) {
	for _, f := range r.formats {
		if f.Name == name {
			return f.Writer, nil
		}
	}
	var zero W
	return zero, r.unknown(name)
}

// Check returns nil for a format name of the registry, else the one
// error for an unknown name: `unknown format "sarf" (did you mean
// "sarif"?)`, or with no close name the list of formats (`want text,
// json or markdown`).
func (r *Registry[W]) Check(name string) error {
	_, err := r.Lookup(name)
	return err
}

func (r *Registry[W]) unknown(name string) error {
	names := r.Names()
	return fmt.Errorf("unknown format %q (%s)", name, diag.DidYouMean(name, names, "want "+orList(names)))
}

// orList joins items as "a, b or c".
func orList(items []string) string {
	if len(items) == 1 {
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}
