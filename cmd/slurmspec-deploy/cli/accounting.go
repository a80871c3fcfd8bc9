package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/slurmspec/slurmspec/compiler/escape"
	"github.com/slurmspec/slurmspec/compiler/load/linkflag"
	"github.com/slurmspec/slurmspec/deploy/slurmapi"
	"github.com/slurmspec/slurmspec/lint/online"
	"github.com/slurmspec/slurmspec/lint/online/checker"
	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/render/pulumimodel"
	"github.com/slurmspec/slurmspec/render/sacctmgr"
)

const accountingHelp = `Read the deployed cluster's accounting database (QOS, accounts, users and
associations) through the service's Slurm Job API (callSlurmRestApi, as
your own Linux account, which must be a Slurm administrator; no SSH), and
plan or apply the spec's accounting file against it (docs/accounting.md).

The cluster and the credentials are verify's: the spec's name (or
--project, --region, --cluster-id); GOOGLE_OAUTH_ACCESS_TOKEN, else
Application Default Credentials.`

func newAccountingCmd(e env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "accounting",
		Short: "Plan and apply the accounting file on the deployed cluster",
		Long:  accountingHelp,
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newAccountingSubCmd(e, false), newAccountingSubCmd(e, true))
	return cmd
}

func newAccountingSubCmd(e env, apply bool) *cobra.Command {
	var (
		spec          pipeline.Options
		allowRemovals bool
		links         linkflag.Flag
	)
	use, short, long := "plan SPEC", "Print what applying the accounting file to the live database changes",
		`Read the live accounting database through the Slurm Job API and print the
plan that slurmspec accounting plan SPEC --current FILE prints for a capture
of the same database. Exit status: 0 the plan is empty, 1 it changes
something (or the spec has errors), 2 usage error, no credentials, or the
API could not be asked.`
	if apply {
		use, short, long = "apply SPEC", "Apply the accounting file to the live database through the Slurm Job API",
			`Read the live accounting database through the Slurm Job API, print the
plan, apply it (POST to /slurmdb/v0.0.42/qos, accounts, users and
associations; DELETE of removed QOS, accounts and users), read the database
again and print the plan left, which is empty. A plan that removes
something is refused unless --allow-removals is given (slurmdbd refuses to
remove an account, user or association while it has jobs); one that removes
an association of a user who stays is refused before any change, with the
sacctmgr command that removes it on the login node. Exit status: 0 applied
(or nothing to do), 1 refused or the spec has errors, 2 usage error, no
credentials, or a call failed (the calls before it are applied).`
	}
	cmd := &cobra.Command{
		Use:   use,
		Short: short,
		Long:  long,
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkPaths(&links, args[0], spec); err != nil {
				return err
			}
			res, err := analyse(e, args[0], spec)
			if err != nil {
				return err
			}
			switch {
			case res.Cluster == nil || res.Failed():
				return refused("%s: not planned: %s (fix them, or see `slurmspec lint`)", args[0], res.Summary())
			case res.Accounting == nil:
				return failed("%s has no accounting file: name it in .slurmspec.yaml (accounting:) or put it beside the spec (docs/accounting.md)", escape.Text(args[0]))
			}
			return runAccounting(cmd.Context(), e, res, apply, allowRemovals)
		},
	}
	spec.RegisterFlags(cmd.Flags())
	links.Register(cmd.Flags())
	if apply {
		cmd.Flags().BoolVar(&allowRemovals, "allow-removals", false, "apply removals (slurmdbd refuses them while the entity has jobs)")
	}
	return cmd
}

// runAccounting plans, and applies, the accounting file of a checked spec.
func runAccounting(ctx context.Context, e env, res *pipeline.Result, apply, allowRemovals bool) error {
	c := res.Cluster
	name := pulumimodel.ClusterName(c.Project.Value, c.Region.Value, c.ID.Value)
	endpoint, err := slurmapi.Endpoint(c.Region.Value)
	if err != nil {
		return failed("accounting: %v", err)
	}
	httpClient, err := checker.HTTPClient(ctx, online.DefaultTimeout)
	if err != nil {
		return failed("accounting: %v", err)
	}
	api := &slurmapi.Client{HTTP: httpClient, Endpoint: endpoint, Cluster: name}
	want := sacctmgr.Declared(res.Accounting)
	plan := func() (*sacctmgr.Plan, error) {
		cur, err := api.Accounting(ctx)
		if err != nil {
			return nil, failed("accounting: %v", err)
		}
		p, err := sacctmgr.Compare(cur, want)
		if err != nil {
			return nil, failed("accounting: %s", oneLine(err.Error()))
		}
		return p, nil
	}
	p, err := plan()
	if err != nil {
		return err
	}
	if err := p.Text(e.stdout); err != nil {
		return failed("%v", err)
	}
	if !apply {
		if !p.Empty() {
			return &exitError{code: exitRefused}
		}
		return nil
	}
	if p.Empty() {
		return nil
	}
	if rm := p.Removals(); len(rm) > 0 && !allowRemovals {
		names := make([]string, len(rm))
		for i, op := range rm {
			names[i] = op.Entity
		}
		return refused("refused: the plan removes %s, which slurmdbd refuses while they have jobs; declare them in %s to keep them, or pass --allow-removals once their jobs are done (nothing applied)",
			escape.Text(strings.Join(names, ", ")), escape.Text(res.Accounting.Name))
	}
	// The service's slurm.conf names the Slurm cluster by the cluster id.
	if err := api.ApplyAccounting(ctx, p, c.ID.Value); err != nil {
		var rm *slurmapi.AssocRemovalError
		if errors.As(err, &rm) {
			return refused("accounting apply: %s", escape.Text(err.Error()))
		}
		return failed("accounting apply: %s", escape.Text(oneLine(err.Error())))
	}
	left, err := plan()
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "Applied to cluster %s; the database read again:\n", escape.Text(name))
	if err := left.Text(e.stdout); err != nil {
		return failed("%v", err)
	}
	if !left.Empty() {
		return refused("accounting apply: the database read again differs from %s: %s", escape.Text(res.Accounting.Name), left.Summary())
	}
	return nil
}

// oneLine keeps a message on one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
