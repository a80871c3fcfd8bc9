// Package injecttest builds the command lines with which the tests of
// every slurmspec binary check that no user-controlled string (a file
// name, an argument, a flag value, an unknown flag) can forge a GitHub
// Actions workflow command in the output (docs/security.md, "Characters a
// reviewer cannot see"). It is imported by tests only.
package injecttest

import (
	"strings"
	"unicode"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Payloads are the hostile strings: a newline then an annotation, and a
// command that would stop the runner from reading any later annotation,
// at the start of the string.
var Payloads = []string{
	"x\n::error file=x::forged",
	"::stop-commands::tok",
	"x\r\n::warning::forged\u2028::notice::forged",
	"x ##[error]forged",
}

// CommandLines returns, for every command of the tree below root (hidden
// ones included, root included), the command lines to try: each of args
// alone as the positional argument, an unknown flag spelled with a
// payload, and every flag that takes a value set to each payload
// (followed by args[0]). No payload is a valid value of any flag, so none
// selects the github format, the one output that writes annotations of
// its own.
func CommandLines(root *cobra.Command, args []string) [][]string {
	var lines [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		for _, a := range args {
			lines = append(lines, join(path, []string{a}))
		}
		for _, p := range Payloads {
			lines = append(lines,
				join(path, []string{"--" + p}),
				join(path, []string{"--" + strings.ReplaceAll(p, "\n", "") + "=" + p}),
			)
		}
		seen := map[string]bool{}
		visit := func(f *pflag.Flag) {
			if seen[f.Name] || f.Value.Type() == "bool" || f.Name == "help" {
				return
			}
			seen[f.Name] = true
			for _, p := range Payloads {
				lines = append(lines, join(path, append([]string{"--" + f.Name + "=" + p}, args[:min(1, len(args))]...)))
			}
		}
		c.LocalFlags().VisitAll(visit)
		c.InheritedFlags().VisitAll(visit)
		for _, sub := range c.Commands() {
			walk(sub, append(append([]string(nil), path...), sub.Name()))
		}
	}
	walk(root, nil)
	return lines
}

func join(a, b []string) []string { return append(append([]string(nil), a...), b...) }

// Forged returns the lines of out that GitHub's runner would read as a
// workflow command: those that start with "::" after leading white space,
// and those that hold "##[" (the older syntax, found anywhere in a line).
// The runner reads lines as .NET's ReadLine does: a carriage return alone
// ends one too.
func Forged(out string) []string {
	var bad []string
	for _, line := range strings.FieldsFunc(out, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if strings.HasPrefix(strings.TrimLeftFunc(line, unicode.IsSpace), "::") || strings.Contains(line, "##[") {
			bad = append(bad, line)
		}
	}
	return bad
}
