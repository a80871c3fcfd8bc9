// Package cmdtree holds the command-tree conventions every slurmspec
// binary with subcommands follows (slurmspec, slurmspec-deploy): an
// unknown subcommand, or an unknown help topic, is a usage error at any
// depth of the tree, never a help text and exit 0.
package cmdtree

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Strict applies the conventions to the tree below root, which must hold
// all its commands (call root.InitDefaultCompletionCmd first when it
// should be checked too). usage turns a message into the caller's usage
// error (exit 2).
//
// Every command that only groups subcommands refuses an unknown one, as
// cobra's root does; without arguments it still prints its help. The help
// command is replaced by one that refuses an unknown topic.
func Strict(root *cobra.Command, usage func(msg string) error) {
	var walk func(*cobra.Command)
	walk = func(cmd *cobra.Command) {
		for _, sub := range cmd.Commands() {
			walk(sub)
		}
		if cmd == root || !cmd.HasSubCommands() || cmd.Runnable() {
			return
		}
		cmd.Args = cobra.ArbitraryArgs
		cmd.RunE = func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return c.Help()
			}
			return usage(unknownCommand(c, args[0]))
		}
	}
	walk(root)
	root.SetHelpCommand(helpCommand(root, usage))
}

// unknownCommand is cobra's "unknown command" message, with suggestions.
func unknownCommand(c *cobra.Command, name string) string {
	msg := fmt.Sprintf("unknown command %q for %q", name, c.CommandPath())
	if s := c.SuggestionsFor(name); len(s) > 0 {
		msg += "; did you mean " + strings.Join(s, " or ") + "?"
	}
	return fmt.Sprintf("%s; see `%s --help`", msg, c.CommandPath())
}

// helpCommand is cobra's help command, except that an unknown topic is a
// usage error rather than the root's usage and exit 0.
func helpCommand(root *cobra.Command, usage func(string) error) *cobra.Command {
	return &cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		Long:  "Help prints the help of any command: " + root.Name() + " help [path to command].",
		ValidArgsFunction: func(c *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			cmd, _, err := root.Find(args)
			if err != nil {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			var out []cobra.Completion
			for _, sub := range cmd.Commands() {
				if sub.IsAvailableCommand() && strings.HasPrefix(sub.Name(), toComplete) {
					out = append(out, cobra.CompletionWithDesc(sub.Name(), sub.Short))
				}
			}
			return out, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error {
			cmd, rest, err := root.Find(args)
			if err != nil {
				return usage(fmt.Sprintf("unknown help topic %q; see `%s help`", strings.Join(args, " "), root.Name()))
			}
			if len(rest) > 0 {
				return usage(unknownCommand(cmd, rest[0]))
			}
			cmd.InitDefaultHelpFlag()
			cmd.InitDefaultVersionFlag()
			return cmd.Help()
		},
	}
}

// BoolFlagsShowingValue lists the boolean flags of the tree below root
// whose --help line shows them taking a value (pflag reads a backquoted
// word in the usage as the value's name: "--verify string"), as
// "PATH --FLAG: NAME". A test of each binary holds it empty.
func BoolFlagsShowingValue(root *cobra.Command) []string {
	var found []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if f.Value.Type() != "bool" {
				return
			}
			if name, _ := pflag.UnquoteUsage(f); name != "" {
				found = append(found, fmt.Sprintf("%s --%s: %s", c.CommandPath(), f.Name, name))
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	return found
}
