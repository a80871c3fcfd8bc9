package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/slurmspec/slurmspec/schema"
)

const lintHelp = `Check specs against the schema and every lint rule.

Each finding is printed as "file:line:col: severity: message [rule-id]"
with the source line, the spec path and a hint. Exit status: 0 clean,
1 errors (or warnings with --strict), 2 usage or I/O errors.`

func newLintCmd(e env) *cobra.Command {
	var f specFlags
	cmd := &cobra.Command{
		Use:   "lint FILE...",
		Short: "Check specs and report every problem",
		Long:  lintHelp,
		Example: `  slurmspec lint examples/seed.jsonc
  slurmspec lint --strict --disable placeholder cluster.yaml
  cat cluster.json | slurmspec lint -`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.validate(); err != nil {
				return err
			}
			sch, err := schema.New()
			if err != nil {
				return &exitError{code: exitUsage, msg: err.Error()}
			}
			code := exitOK
			for _, file := range args {
				a := analyse(sch, file, &f, e)
				sources := map[string][]byte{}
				if a.doc != nil {
					sources[a.doc.File] = a.doc.Source
				}
				printDiags(e.stdout, a.diags, sources)
				switch {
				case a.ioError:
					code = max(code, exitUsage)
				case failed(a.diags, f.strict):
					code = max(code, exitFindings)
				}
				fmt.Fprintf(e.stdout, "%s: %s\n", displayName(file), summary(a.diags))
			}
			if code != exitOK {
				return &exitError{code: code}
			}
			return nil
		},
	}
	f.register(cmd.Flags())
	return cmd
}

func displayName(file string) string {
	if file == "-" {
		return "<stdin>"
	}
	return file
}
