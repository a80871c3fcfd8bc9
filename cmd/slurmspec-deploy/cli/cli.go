// Package cli is the slurmspec-deploy command line: it checks a spec with
// the same pipeline as `slurmspec lint`, builds the deployment model, and
// drives the cluster's Pulumi program through the Automation API.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/spf13/cobra"

	"golang.org/x/term"

	"github.com/slurmspec/slurmspec/cmd/internal/cmdtree"
	"github.com/slurmspec/slurmspec/compiler/buildinfo"
	"github.com/slurmspec/slurmspec/compiler/escape"
	"github.com/slurmspec/slurmspec/compiler/load/linkflag"
	"github.com/slurmspec/slurmspec/deploy/dispatch"
	"github.com/slurmspec/slurmspec/lint/format"
	"github.com/slurmspec/slurmspec/lint/pipeline"

	"github.com/slurmspec/slurmspec/deploy/artifacts"
	"github.com/slurmspec/slurmspec/deploy/pulumi/driver"
	"github.com/slurmspec/slurmspec/deploy/pulumi/policy"
	"github.com/slurmspec/slurmspec/render/pulumimodel"
)

// Exit codes, as slurmspec's.
const (
	exitOK      = 0
	exitRefused = 1 // the policy refuses: the spec has errors, or the change needs --yes
	exitUsage   = 2 // bad usage, missing prerequisites, failed operations
)

type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

func failed(format string, args ...any) error {
	return &exitError{code: exitUsage, msg: fmt.Sprintf(format, args...)}
}

type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// command is what the user typed when slurmspec ran this binary
	// (dispatch.EnvCommand: "slurmspec deploy", "slurmspec"); the help
	// names it. "" when run directly.
	command string
}

// Main runs slurmspec-deploy with os.Args and returns the exit code.
func Main() int {
	return Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
}

// Run runs the command line with args and returns the exit code. An
// interrupt (Ctrl-C) stops Pulumi as RunContext describes.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	defer signal.Stop(sig)
	go func() {
		select {
		case <-sig:
			cancel()
		case <-ctx.Done():
		}
	}()
	return RunContext(ctx, args, stdin, stdout, stderr)
}

// RunContext runs the command line until ctx ends. When ctx ends during
// an operation (an interrupt), Pulumi is stopped; an operation already
// sent to Google Cloud goes on there, and the message printed says how to
// bring the stack up to date (`slurmspec deploy refresh`).
func RunContext(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	e := env{stdin: stdin, stdout: stdout, stderr: stderr, command: os.Getenv(dispatch.EnvCommand)}
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(e.stderr, "slurmspec-deploy: internal error: %s\n%s", escape.Text(fmt.Sprint(r)), debug.Stack())
			code = exitUsage
		}
	}()
	root := newRootCmd(e)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	// Every error is printed here, escaped: it may hold file names,
	// arguments and flag values (cobra's own errors too), which must not
	// forge output lines (compiler/escape).
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintf(e.stderr, "slurmspec-deploy: %s\n", escape.Text(ee.msg))
		}
		return ee.code
	}
	var refusal *policy.Refusal
	if errors.As(err, &refusal) {
		fmt.Fprintf(e.stderr, "slurmspec-deploy: %s\n", escape.Text(refusal.Msg))
		return exitRefused
	}
	fmt.Fprintf(e.stderr, "slurmspec-deploy: %s\n", escape.Text(err.Error()))
	return exitUsage
}

const rootHelp = `Deploy a cluster spec with Pulumi: the spec is checked exactly as
` + "`slurmspec lint`" + ` checks it (a spec with errors is never deployed), turned into
the cluster resource gcp:vertex/aiModelDevelopmentCluster:AiModelDevelopmentCluster
(pulumi-gcp ` + pulumimodel.ProviderVersion + `), and previewed, deployed or destroyed in one
Pulumi stack through the Automation API.

Before preview and up, the update's impact is printed: the stack's last
deployed inputs are rendered and compared with the spec, as ` + "`slurmspec diff`" + `
does. up refuses, unless --yes is given, a change that replaces the whole
cluster (what pulumi-gcp replaces: a node pool's machine type,
reservation, provisioning model or id, adding, removing or reordering
pools, the network, the service account, homeDirectoryStorage) or that
Pulumi would replace, and prints what would be destroyed. The cluster is
replaced delete-first (its id is fixed). destroy always needs --yes.

Placeholders (PROJECT_ID, REGION-ZONE, ...) are errors here, not warnings.
Create, update and delete of the cluster take up to 120 minutes; Ctrl-C
stops Pulumi but not the operation in Google Cloud: run refresh afterwards.

Needs the pulumi CLI on PATH, a backend (pulumi login, PULUMI_BACKEND_URL or
--backend), PULUMI_CONFIG_PASSPHRASE for self-managed backends, and Google
Cloud credentials. See docs/deploy.md.

Exit status: 0 done, 1 refused (spec errors, or --yes needed), 2 usage error
or failed operation.`

func newRootCmd(e env) *cobra.Command {
	root := &cobra.Command{
		Use:           "slurmspec-deploy",
		Short:         "Preview, deploy and destroy a cluster spec with Pulumi",
		Long:          rootHelp,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	if e.command != "" {
		root.Annotations = map[string]string{cobra.CommandDisplayNameAnnotation: e.command}
	}
	root.SetIn(e.stdin)
	root.SetOut(e.stdout)
	root.SetErr(e.stderr)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return &exitError{code: exitUsage, msg: err.Error()}
	})
	root.AddCommand(newOpCmd(e, opPreview), newOpCmd(e, opUp), newOpCmd(e, opDestroy), newOpCmd(e, opRefresh), newVerifyCmd(e), newAccountingCmd(e))
	root.Version = buildinfo.Version()
	root.SetVersionTemplate(buildinfo.Line("slurmspec-deploy"))
	root.InitDefaultCompletionCmd()
	cmdtree.Strict(root, func(msg string) error { return &exitError{code: exitUsage, msg: msg} })
	return root
}

type op string

const (
	opPreview op = "preview"
	opUp      op = "up"
	opDestroy op = "destroy"
	opRefresh op = "refresh"
)

var opShort = map[op]string{
	opPreview: "Show what up would change, and the update's impact",
	opUp:      "Create or update the cluster (--yes to accept replacements)",
	opDestroy: "Delete the cluster and everything in the stack (needs --yes)",
	opRefresh: "Read the stack's resources back from Google Cloud (after an interrupted up)",
}

// flags are every operation's flags.
type flags struct {
	spec            pipeline.Options
	deploy          pulumimodel.Options
	stack           string
	backend         string
	secretsProvider string
	color           string
	yes             bool
	verify          bool // up: verify the cluster once it is up
	vf              verifyFlags
	links           linkflag.Flag
}

func newOpCmd(e env, o op) *cobra.Command {
	var f flags
	cmd := &cobra.Command{
		Use:     string(o) + " --stack STACK [flags] FILE",
		Short:   opShort[o],
		Args:    cobra.ExactArgs(1),
		Example: "  slurmspec deploy " + string(o) + " --stack dev cluster.yaml",
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.stack == "" {
				return failed("--stack is required")
			}
			return run(cmd.Context(), e, o, args[0], &f)
		},
	}
	fs := cmd.Flags()
	fs.StringVarP(&f.stack, "stack", "s", "", "Pulumi stack (name or org/project/name)")
	fs.StringVar(&f.backend, "backend", "", "state backend URL (default: $PULUMI_BACKEND_URL, else the pulumi CLI's login)")
	fs.StringVar(&f.secretsProvider, "secrets-provider", "", "secrets provider of a new stack (default: passphrase for self-managed backends)")
	fs.StringVar(&f.color, "color", "auto", "colour Pulumi's output: auto, always, never or raw")
	if o == opUp || o == opDestroy {
		fs.BoolVarP(&f.yes, "yes", "y", false, map[op]string{
			opUp:      "accept an update that replaces the whole cluster",
			opDestroy: "really destroy",
		}[o])
	}
	if o == opUp {
		fs.BoolVar(&f.verify, "verify", false, "once the cluster is up, run slurmspec verify on it (docs/verify.md)")
		f.vf.register(cmd, "verify-")
	}
	f.spec.RegisterFlags(fs)
	f.deploy.RegisterFlags(fs)
	f.links.Register(fs)
	return cmd
}

func run(ctx context.Context, e env, o op, file string, f *flags) error {
	if err := checkPaths(&f.links, file, f.spec); err != nil {
		return err
	}
	if err := checkBackend(&f.links, f.backend); err != nil {
		return err
	}
	p, err := pipeline.New(f.spec)
	if err != nil {
		return failed("%v", err)
	}
	res, err := p.Analyse(pipeline.File(file, e.stdin), pipeline.AnalyseOptions{})
	if err != nil {
		return failed("%v", err)
	}
	policy.StrictPlaceholders(res)
	if len(res.Diags) > 0 {
		_ = format.Text{}.Format(e.stderr, format.Run{Files: []format.File{{Name: res.Name(), Source: source(res), Diags: res.Diags}}})
	}
	if err := policy.Spec(policy.Op(o), file, res); err != nil {
		return err
	}
	m, err := artifacts.Model(res.Cluster, f.deploy)
	if err != nil {
		return failed("%s: %v", file, err)
	}
	cfg := driver.Config{Stack: f.stack, Backend: f.backend, SecretsProvider: f.secretsProvider, Stdout: e.stdout, Stderr: e.stderr, Color: color(f.color, e.stdout)}
	pre := driver.Check(cfg)
	for _, w := range pre.Warnings {
		fmt.Fprintf(e.stderr, "slurmspec-deploy: warning: %s\n", w)
	}
	if o == opDestroy {
		if err := policy.DestroyConfirmed(f.yes, m.ClusterName(), f.stack); err != nil {
			return err
		}
	}
	if err := pre.Err(); err != nil {
		// One line a miss: the error printer keeps a message on one line.
		var pe *driver.PreflightError
		if errors.As(err, &pe) && len(pe.Misses) > 1 {
			for _, miss := range pe.Misses {
				fmt.Fprintf(e.stderr, "slurmspec-deploy: missing: %s\n", escape.Text(miss))
			}
			return failed("%d prerequisites are missing (listed above)", len(pe.Misses))
		}
		return failed("%v", err)
	}
	st, err := driver.Open(ctx, m, cfg, o == opPreview || o == opUp)
	if err != nil {
		return failed("%v", err)
	}
	switch o {
	case opDestroy:
		fmt.Fprintf(e.stdout, "Destroying stack %s: cluster %s\n", escape.Text(f.stack), escape.Text(m.ClusterName()))
		if err := st.Destroy(ctx); err != nil {
			return interrupted(ctx, e, f, "destroy", failed("destroy failed: %v", err))
		}
		return nil
	case opRefresh:
		if err := st.Refresh(ctx, m.IDs); err != nil {
			return failed("refresh failed: %v", err)
		}
		adopted, err := st.Adopt(ctx, m.IDs)
		if err != nil {
			return failed("%v", err)
		}
		if len(adopted) > 0 {
			fmt.Fprintf(e.stdout, "Imported from Google Cloud: %s\n", strings.Join(adopted, ", "))
		}
		fmt.Fprintf(e.stdout, "Stack %s is refreshed from Google Cloud.\n", escape.Text(f.stack))
		return nil
	case opPreview:
		imp, err := impact(ctx, e, st, res, m, f.stack)
		if err != nil {
			return failed("%v", err)
		}
		plan, err := st.Preview(ctx, false)
		if err != nil {
			return failed("preview failed: %v", err)
		}
		printPlan(e.stdout, plan)
		if gate := policy.Confirm(imp, len(plan.Destroys())); gate.NeedsYes() {
			fmt.Fprintf(e.stdout, "up will need --yes: %s\n", gate.Reason())
		}
		return nil
	}
	unmanaged, err := st.Unmanaged(ctx, m.IDs)
	if err != nil {
		return failed("%v", err)
	}
	if err := policy.Unmanaged(f.stack, unmanaged); err != nil {
		return err
	}
	imp, err := impact(ctx, e, st, res, m, f.stack)
	if err != nil {
		return failed("%v", err)
	}
	plan, err := st.Preview(ctx, true)
	if err != nil {
		return failed("preview failed: %v", err)
	}
	gate := policy.Confirm(imp, len(plan.Destroys()))
	if gate.NeedsYes() {
		printDestroyed(e.stdout, plan, res, m)
	}
	if err := gate.Up(f.yes, f.stack); err != nil {
		return err
	}
	_, changes, err := st.Up(ctx)
	if err != nil {
		return interrupted(ctx, e, f, "up", failed("up failed: %v", err))
	}
	fmt.Fprintf(e.stdout, "Stack %s is up: %s\n", escape.Text(f.stack), changeSummary(changes))
	if f.verify {
		return runVerify(ctx, e, res, f.vf)
	}
	return nil
}

// printPlan writes what Pulumi plans per resource, one line each.
func printPlan(w io.Writer, plan *driver.Plan) {
	if len(plan.Steps) == 0 {
		fmt.Fprintln(w, "Plan: no changes")
		return
	}
	fmt.Fprintln(w, "Plan:")
	for _, s := range plan.Steps {
		line := fmt.Sprintf("  %s %s (%s)", s.Op, s.Name, s.Type)
		if s.Op == apitype.OpReplace {
			how := "create the new one, then delete the old one"
			if s.DeleteFirst {
				how = "delete first, then create"
			}
			line += ": " + how
			if len(s.Keys) > 0 {
				line += "; because of " + strings.Join(s.Keys, ", ")
			}
		}
		fmt.Fprintln(w, line)
	}
}

// printDestroyed says what a replacement or deletion destroys.
func printDestroyed(w io.Writer, plan *driver.Plan, res *pipeline.Result, m *pulumimodel.Model) {
	d := plan.Destroys()
	if len(d) == 0 {
		return
	}
	fmt.Fprintln(w, "This update destroys:")
	for _, s := range d {
		verb := "deleted"
		if s.Op == apitype.OpReplace {
			verb = "deleted and created again"
		}
		what := s.Name
		if s.Type == pulumimodel.ClusterType {
			var pools []string
			for _, p := range res.Cluster.NodePools {
				pools = append(pools, p.ID.Value)
			}
			what = fmt.Sprintf("cluster %s with every node of node pools %s, every running and pending job, and Slurm's state (accounting, job history)", m.ClusterName(), strings.Join(pools, ", "))
		}
		fmt.Fprintf(w, "  %s: %s\n", what, verb)
	}
	fmt.Fprintln(w)
}

// interrupted adds, when ctx ended (Ctrl-C), what happened to an
// operation under way and how to recover the stack.
func interrupted(ctx context.Context, e env, f *flags, what string, err error) error {
	if ctx.Err() == nil {
		return err
	}
	fmt.Fprintf(e.stderr, `slurmspec-deploy: %s interrupted. Pulumi has stopped, but an operation it had already
sent to Google Cloud goes on there: creating, updating or deleting the cluster takes
up to 120 minutes and cannot be cancelled. The stack may record it as pending.
When it has finished (the cluster's state in the Google Cloud console
shows it), bring the stack up to date:
  slurmspec deploy refresh --stack %s FILE   # reads the cluster back, imports a pending create
and run slurmspec deploy %s again.
`, what, f.stack, what)
	return &exitError{code: exitUsage, msg: fmt.Sprintf("%s interrupted", what)}
}

// impact assesses what the update does to the deployed cluster
// (policy.Assess) and prints it.
func impact(ctx context.Context, e env, st *driver.Stack, res *pipeline.Result, m *pulumimodel.Model, stack string) (policy.Impact, error) {
	imp, err := policy.Assess(ctx, st, res, m.ClusterName())
	if err != nil {
		return imp, err
	}
	switch {
	case !imp.Deployed:
		var pools []string
		for _, p := range res.Cluster.NodePools {
			pools = append(pools, p.ID.Value)
		}
		fmt.Fprintf(e.stdout, "Update impact: stack %s has no cluster yet; up creates cluster %s with node pools %s.\n\n", escape.Text(stack), escape.Text(m.ClusterName()), escape.Text(strings.Join(pools, ", ")))
	case imp.Unknown != nil:
		fmt.Fprintf(e.stdout, "Update impact: unknown: the cluster stack %s deployed cannot be rendered (%s).\n\n", escape.Text(stack), escape.Text(imp.Unknown.Error()))
	default:
		fmt.Fprintf(e.stdout, "Update impact on stack %s (deployed -> %s):\n", escape.Text(stack), escape.Text(res.File))
		if err := imp.Report.Text(e.stdout); err != nil {
			return imp, err
		}
		fmt.Fprintln(e.stdout)
	}
	return imp, nil
}

// source is the spec's text, for excerpts.
func source(r *pipeline.Result) []byte {
	if r.Doc == nil {
		return nil
	}
	return r.Doc.Source
}

func changeSummary(changes map[string]int) string {
	var ops []string
	for op := range changes {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	var parts []string
	for _, op := range ops {
		parts = append(parts, fmt.Sprintf("%d %s", changes[op], op))
	}
	if len(parts) == 0 {
		return "no resources"
	}
	return strings.Join(parts, ", ")
}

func color(flag string, w io.Writer) string {
	if flag != "auto" {
		return flag
	}
	if _, set := os.LookupEnv("NO_COLOR"); set {
		return "never"
	}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return "always"
	}
	return "never"
}
