package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/escape"
	"github.com/slurmspec/slurmspec/compiler/load/linkflag"
	"github.com/slurmspec/slurmspec/deploy/artifacts"
	"github.com/slurmspec/slurmspec/deploy/slurmapi"
	"github.com/slurmspec/slurmspec/deploy/verify"
	"github.com/slurmspec/slurmspec/lint/format"
	"github.com/slurmspec/slurmspec/lint/online"
	"github.com/slurmspec/slurmspec/lint/online/checker"
	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/render/pulumimodel"
)

const verifyHelp = `Ask the deployed cluster whether it is what the spec renders and whether
it runs its jobs, through the service's Slurm Job API (callSlurmRestApi, as
your own Linux account on the cluster; no SSH): the live partitions and
nodes are compared with the rendered slurm.conf (drift), then the job mix
slurmspec's job-level oracle checks lint against is submitted: for each
partition and pool, the standard shapes (one task, one GPU, every GPU of
one node, a whole node, two nodes where the partition allows them, a job
at MaxTime), each with the partition's defaults and with explicit sizes;
each job's verdict is printed and the job is cancelled.

The cluster is the spec's name (or --project, --region, --cluster-id).
Credentials: GOOGLE_OAUTH_ACCESS_TOKEN, else Application Default
Credentials (GOOGLE_APPLICATION_CREDENTIALS, gcloud auth
application-default login, a Google Cloud VM's metadata server); the
caller needs aiplatform.googleapis.com/modelDevelopmentClusters.run
(roles/aiplatform.user). See docs/verify.md.

A job still pending for resources when --wait ends gives its shape no
verdict: nothing shows that it runs, an error unless --allow-pending.

Exit status: 0 no error found, 1 drift, jobs that cannot run, shapes
without a verdict (or spec errors), 2 usage error, no credentials, or the
API could not be asked.`

// verifyFlags are verify's own flags (also up --verify's).
type verifyFlags struct {
	wait         time.Duration
	noJobs       bool
	allowPending bool
	prefix       string // "" (verify) or "verify-" (up --verify)
}

func (v *verifyFlags) register(cmd *cobra.Command, prefix string) {
	v.prefix = prefix
	cmd.Flags().DurationVar(&v.wait, prefix+"wait", verify.DefaultWait, "how long a job may pend before its verdict is \"still waiting\"")
	cmd.Flags().BoolVar(&v.noJobs, prefix+"no-jobs", false, "compare partitions and nodes only; submit no job")
	cmd.Flags().BoolVar(&v.allowPending, prefix+"allow-pending", false, "accept job shapes still pending for resources when the wait ends (a warning, not an error)")
}

func newVerifyCmd(e env) *cobra.Command {
	var (
		spec  pipeline.Options
		vf    verifyFlags
		links linkflag.Flag
	)
	cmd := &cobra.Command{
		Use:     "verify [flags] FILE",
		Short:   "Check the deployed cluster against the spec and run a job mix on it",
		Long:    verifyHelp,
		Args:    cobra.ExactArgs(1),
		Example: "  slurmspec verify examples/a4-training.yaml",
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkPaths(&links, args[0], spec); err != nil {
				return err
			}
			res, err := analyse(e, args[0], spec)
			if err != nil {
				return err
			}
			if res.Cluster == nil || res.Failed() {
				return refused("%s: not verified: %s (fix them, or see `slurmspec lint`)", args[0], res.Summary())
			}
			return runVerify(cmd.Context(), e, res, vf)
		},
	}
	spec.RegisterFlags(cmd.Flags())
	vf.register(cmd, "")
	links.Register(cmd.Flags())
	return cmd
}

// runVerify verifies the deployed cluster of a checked spec and prints
// the findings and verdicts.
func runVerify(ctx context.Context, e env, res *pipeline.Result, vf verifyFlags) error {
	c := res.Cluster
	name := pulumimodel.ClusterName(c.Project.Value, c.Region.Value, c.ID.Value)
	set, err := artifacts.Rendered(c, res.Settings.SlurmVersion())
	if err != nil {
		return failed("%s: %v", res.File, err)
	}
	var conf []byte
	for _, a := range set {
		if a.Path == "slurm.conf" {
			conf = a.Data
		}
	}
	endpoint, err := slurmapi.Endpoint(c.Region.Value)
	if err != nil {
		return failed("verify: %v", err)
	}
	httpClient, err := checker.HTTPClient(ctx, online.DefaultTimeout)
	if err != nil {
		return failed("verify: %v", err)
	}
	api := &slurmapi.Client{HTTP: httpClient, Endpoint: endpoint, Cluster: name}
	fmt.Fprintf(e.stdout, "Verifying cluster %s against %s (Slurm REST %s)\n", escape.Text(name), escape.Text(res.File), slurmapi.Version)
	r, err := verify.Run(ctx, api, c, conf, verify.Options{Wait: vf.wait, NoJobs: vf.noJobs, AllowPending: vf.allowPending})
	if err != nil {
		return failed("verify: %v", err)
	}
	if err := r.WriteVerdicts(e.stdout); err != nil {
		return failed("%v", err)
	}
	if len(r.Diags) > 0 {
		if err := (format.Text{}).Format(e.stdout, format.Run{Files: []format.File{{Name: res.Name(), Source: source(res), Diags: r.Diags}}}); err != nil {
			return failed("%v", err)
		}
	}
	errs := 0
	for _, d := range r.Diags {
		if d.Severity == diag.Error {
			errs++
		}
	}
	summary := fmt.Sprintf("%s, %s; %s, %s",
		diag.Plural(r.Partitions, "live partition"), diag.Plural(r.Nodes, "live node"),
		diag.Plural(len(r.Verdicts), "job"), diag.Plural(len(r.Diags), "finding"))
	pending := ""
	if n := r.NoVerdict(); n > 0 {
		pending = fmt.Sprintf("; %d of %s without a verdict", n, diag.Plural(len(r.Verdicts), "shape"))
	}
	if errs > 0 {
		return refused("cluster %s: %s (%s)%s", name, summary, diag.Plural(errs, "error"), pending)
	}
	if pending != "" {
		pending += " (accepted by --" + vf.prefix + "allow-pending)"
	}
	fmt.Fprintf(e.stdout, "Cluster %s: %s%s\n", escape.Text(name), summary, pending)
	return nil
}

// refused is verify's refusal: the spec or the live cluster has errors
// (exit 1).
func refused(format string, args ...any) error {
	return &exitError{code: exitRefused, msg: fmt.Sprintf(format, args...)}
}
