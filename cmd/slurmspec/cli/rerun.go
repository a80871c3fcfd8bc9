package cli

import (
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/slurmspec/slurmspec/lint/format"
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
		words = append(words, "--"+f.Name+"="+shellQuote(value))
	})
	words = append(words, "-o", shellQuote(out))
	if strings.HasPrefix(spec, "-") && spec != "-" {
		words = append(words, "--")
	}
	return strings.Join(append(words, shellQuote(spec)), " ")
}

// shellQuote quotes s as one word for a POSIX shell: as is when it holds
// only characters no shell treats specially, else in single quotes, or
// in bash's $'...' with escapes when it holds control or format
// characters (which would otherwise be printed raw).
func shellQuote(s string) string {
	if s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("@%+=:,./_-", r))
	}) {
		return s
	}
	if !strings.ContainsFunc(s, format.Hidden) {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	q := strconv.QuoteToASCII(s)
	return "$'" + strings.ReplaceAll(q[1:len(q)-1], "'", `\'`) + "'"
}
