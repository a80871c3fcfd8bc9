package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/slurmspec/slurmspec/deploy/dispatch"
)

// deployHelp is printed for `slurmspec deploy --help` when slurmspec-deploy
// is missing, so that help never needs the helper.
const deployHelp = `Preview, deploy or destroy a spec with Pulumi. slurmspec hands every
deploy command to slurmspec-deploy, which links the Pulumi SDK:

  slurmspec deploy preview --stack STACK [flags] FILE   # update impact and Pulumi's plan
  slurmspec deploy up --stack STACK [--yes] FILE        # --yes to accept replacing the cluster
  slurmspec deploy destroy --stack STACK --yes FILE
  slurmspec deploy refresh --stack STACK FILE           # after an interrupted up

Deploy options (the same on slurmspec render for the Pulumi YAML project):
--with-foundation, --create-network, --subnet-cidr, --enable-apis,
--create-service-account, --create-home-filestore, --filestore-*, --protect.
See docs/deploy.md.
`

// verifyHelp is printed for `slurmspec verify --help` when slurmspec-deploy
// is missing.
const verifyHelp = `Ask the deployed cluster, through the service's Slurm Job API, whether it
is what the spec renders (partitions, nodes) and whether it runs a job mix
in every partition. slurmspec hands verify to slurmspec-deploy, which
links Google's credentials:

  slurmspec verify [--wait 2m] [--no-jobs] [--allow-pending] FILE

See docs/verify.md.
`

// newVerifyCmd hands `slurmspec verify` over to `slurmspec-deploy verify`.
func newVerifyCmd(e env) *cobra.Command {
	return &cobra.Command{
		Use:                "verify [flags] FILE",
		Short:              "Check the deployed cluster against the spec and run a job mix on it (runs slurmspec-deploy)",
		Example:            "  slurmspec verify examples/a4-training.yaml",
		DisableFlagParsing: true, // every flag, --help too, is slurmspec-deploy's
		RunE: func(_ *cobra.Command, args []string) error {
			return handOver(e, "verify", "slurmspec", verifyHelp, args)
		},
	}
}

// newDeployCmd hands `slurmspec deploy` over to slurmspec-deploy, the binary
// that links the Pulumi SDK and Automation API, git-style: slurmspec itself
// never loads them (their package initialisers alone cost ~26 ms).
func newDeployCmd(e env) *cobra.Command {
	return &cobra.Command{
		Use:                "deploy preview|up|destroy|refresh --stack STACK [flags] FILE",
		Short:              "Preview, deploy or destroy a spec with Pulumi (runs slurmspec-deploy)",
		Example:            "  slurmspec deploy preview --stack prod examples/a4-training.yaml\n  slurmspec deploy up --stack prod --yes examples/a4-training.yaml",
		DisableFlagParsing: true, // every flag, --help too, is slurmspec-deploy's
		RunE: func(_ *cobra.Command, args []string) error {
			return handOver(e, "", "slurmspec deploy", deployHelp, args)
		},
	}
}

// handOver runs slurmspec-deploy with args, after sub when it is not
// empty, telling it that the user typed command (its help names that);
// help is printed for a help request when slurmspec-deploy is missing.
func handOver(e env, sub, command, help string, args []string) error {
	if _, err := dispatch.Find(); errors.Is(err, dispatch.ErrNotFound) && wantsHelp(args) {
		fmt.Fprint(e.stdout, help)
		fmt.Fprintf(e.stdout, "\nNote: %v\n", err)
		return nil
	}
	if sub != "" {
		args = append([]string{sub}, args...)
	}
	code, err := dispatch.Run(command, args, e.stdin, e.stdout, e.stderr)
	if err != nil {
		return &exitError{code: exitUsage, msg: err.Error()}
	}
	if code != 0 {
		return &exitError{code: code} // slurmspec-deploy printed why
	}
	return nil
}

// wantsHelp: no arguments, or a help flag before any "--".
func wantsHelp(args []string) bool {
	if len(args) == 0 {
		return true
	}
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "--help", "help":
			return true
		}
	}
	return false
}
