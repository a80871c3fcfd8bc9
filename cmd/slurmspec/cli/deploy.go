package cli

import (
	"github.com/spf13/cobra"

	"github.com/slurmspec/slurmspec/deploy/dispatch"
)

// newDeployCmd hands `slurmspec deploy` over to slurmspec-deploy, the binary
// that links the Pulumi SDK and Automation API, git-style: slurmspec itself
// never loads them (their package initialisers alone cost ~26 ms).
func newDeployCmd(e env) *cobra.Command {
	return &cobra.Command{
		Use:                "deploy preview|up|destroy --stack STACK [flags] FILE",
		Short:              "Preview, deploy or destroy a spec with Pulumi (runs slurmspec-deploy)",
		Example:            "  slurmspec deploy preview --stack prod examples/a4-training.yaml\n  slurmspec deploy up --stack prod --yes examples/a4-training.yaml",
		DisableFlagParsing: true, // every flag, --help too, is slurmspec-deploy's
		RunE: func(_ *cobra.Command, args []string) error {
			code, err := dispatch.Run(args, e.stdin, e.stdout, e.stderr)
			if err != nil {
				return &exitError{code: exitUsage, msg: err.Error()}
			}
			if code != 0 {
				return &exitError{code: code} // slurmspec-deploy printed why
			}
			return nil
		},
	}
}
