package cli

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/slurmspec/slurmspec/compiler/shellquote"
)

// rerunCommand is the command that rewrites a stale output directory: the
// render command as it was given, with every flag that was set (the Slurm
// version, the identity, the deploy options, ...) except --check, so that
// it renders what --check compared. Every word is quoted for a POSIX
// shell when it needs to be, and control characters are escaped, so that
// the hint can neither run nor forge anything when pasted.
func rerunCommand(cmd *cobra.Command, spec, out string) string {
	words := []string{cmd.CommandPath()}
	cmd.Flags().Visit(func(f *pflag.Flag) {
		switch f.Name {
		case "check", "output":
			return
		}
		if f.Value.Type() == "bool" && f.Value.String() == "true" {
			words = append(words, "--"+f.Name)
			return
		}
		value := f.Value.String()
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			value = strings.Join(sv.GetSlice(), ",")
		}
		words = append(words, "--"+f.Name+"="+shellquote.Command(value))
	})
	words = append(words, "-o", shellquote.Command(out))
	if strings.HasPrefix(spec, "-") && spec != "-" {
		words = append(words, "--")
	}
	return strings.Join(append(words, shellquote.Command(spec)), " ")
}
