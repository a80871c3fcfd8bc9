package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/slurmspec/slurmspec/compiler/escape"
	"github.com/slurmspec/slurmspec/compiler/shellquote"
	"github.com/slurmspec/slurmspec/lab/localslurm"
	"github.com/slurmspec/slurmspec/lab/sandbox"
	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/schema"
)

const sandboxHelp = `Try the cluster's scheduler on a real Slurm, on this machine.

up renders the spec and starts a local Slurm with exactly that slurm.conf:
slurmctld, slurmdbd with a throwaway MariaDB (the render's
AccountingStorageType is slurmdbd), and a stand-in slurmd for the first
--nodes nodes of each compute node pool, each under its rendered NodeName, so
jobs really run and preempt each other across partitions. Only what this host
needs is changed (ports, state, spool, pid and log locations, the daemons'
user, the munge socket, the cgroup plugins of the stand-ins); each change is
printed, and so is everything else the sandbox does: rendered nodes without a
stand-in are drained, a GPU-less host gets a fake nvidia-smi inside
the sandbox for the rendered prolog, and the spec's accounting file
(docs/accounting.md) is applied with its rendered sacctmgr script once
slurmdbd is up, so the jobs of the users it declares run at once under the
spec's AccountingStorageEnforce.

The daemons run in a private mount and UTS namespace, where the rendered host
names resolve. up prints the environment to use from your shell: bin/ in the
state directory wraps sbatch, srun, squeue, scontrol, sinfo, sacct, sacctmgr,
sprio and the other clients so that they run inside it.

Time-scaled what-ifs (--preempt-exempt-time, --priority-calc-period,
--priority-decay-half-life) change the spec's config before rendering, so
preemption and fair-share effects show in seconds; each change is printed.

It needs root and Debian's Slurm, MUNGE and MariaDB packages; up says what is
missing and the apt-get line that installs it. The state lives in one
directory: --state-dir, else $SLURMSPEC_SANDBOX_DIR, else
$XDG_STATE_HOME/slurmspec/sandbox, else ~/.local/state/slurmspec/sandbox.`

// exitSandbox is the exit status of run and exec when the sandbox itself
// fails (as docker run's 125), so that it is not taken for the command's.
const exitSandbox = 125

// sandboxFlags are the flags of up and run.
type sandboxFlags struct {
	spec          pipeline.Options
	links         linkFlag
	nodes         int
	preemptExempt time.Duration
	calcPeriod    int
	halfLife      time.Duration
	fakeGPU       bool
	timeout       time.Duration
}

func (f *sandboxFlags) register(cmd *cobra.Command) {
	fs := cmd.Flags()
	f.spec.RegisterFlags(fs)
	f.links.register(fs)
	fs.IntVar(&f.nodes, "nodes", 1, "stand-in slurmd daemons for each compute node pool (its first N rendered nodes)")
	fs.DurationVar(&f.preemptExempt, "preempt-exempt-time", 0, "what-if: set PreemptExemptTime, such as 1s (stated when used)")
	fs.IntVar(&f.calcPeriod, "priority-calc-period", 0, "what-if: set PriorityCalcPeriod, in minutes, at least 1 (stated when used)")
	fs.DurationVar(&f.halfLife, "priority-decay-half-life", 0, "what-if: set PriorityDecayHalfLife, whole minutes, such as 5m (stated when used)")
	fs.BoolVar(&f.fakeGPU, "fake-nvidia-smi", true, "when stand-ins have rendered GPUs and this host has no nvidia-smi, put a fake one inside the sandbox")
	fs.DurationVar(&f.timeout, "timeout", 5*time.Minute, "give up when the cluster is not up after this long")
}

// sandboxDir is the --state-dir flag.
type sandboxDir struct {
	dir      string
	explicit bool
}

// resolve returns the state directory.
func (d *sandboxDir) resolve(cmd *cobra.Command) (string, error) {
	if cmd.Flags().Changed("state-dir") {
		d.explicit = true
		return filepath.Abs(d.dir)
	}
	dir, err := sandbox.DefaultDir()
	if err != nil {
		return "", usageError("%v", err)
	}
	return dir, nil
}

// hint is the flag to repeat on later commands.
func (d *sandboxDir) hint(dir string) string {
	if d.explicit {
		return " --state-dir " + shellquote.Command(dir)
	}
	return ""
}

func newSandboxCmd(e env) *cobra.Command {
	var d sandboxDir
	cmd := &cobra.Command{
		Use:   "sandbox",
		Short: "Run the cluster's slurm.conf on a real, local Slurm (up, status, exec, down, run)",
		Long:  sandboxHelp,
		Example: `  slurmspec sandbox up examples/a4-training.yaml --preempt-exempt-time 1s
  export PATH=~/.local/state/slurmspec/sandbox/bin:"$PATH"   # as up prints
  sbatch -p preempt --wrap 'sleep 600'; squeue
  slurmspec sandbox down

  # in CI: up, run a script against the cluster, down; exit with the script's status
  slurmspec sandbox run examples/a4-training.yaml --preempt-exempt-time 1s -- ./what-if.sh`,
		Args: cobra.NoArgs,
	}
	cmd.PersistentFlags().StringVar(&d.dir, "state-dir", "", "sandbox state directory (default $"+sandbox.EnvDir+", else $XDG_STATE_HOME/slurmspec/sandbox, else ~/.local/state/slurmspec/sandbox)")
	cmd.AddCommand(newSandboxUpCmd(e, &d), newSandboxStatusCmd(e, &d), newSandboxEnvCmd(e, &d), newSandboxExecCmd(e, &d),
		newSandboxDownCmd(e, &d), newSandboxRunCmd(e, &d), newSandboxSuperviseCmd(e, &d))
	return cmd
}

func newSandboxUpCmd(e env, d *sandboxDir) *cobra.Command {
	var f sandboxFlags
	cmd := &cobra.Command{
		Use:   "up FILE",
		Short: "Render the spec and start a local Slurm with its slurm.conf",
		Long: `Render the spec and start a local Slurm with its slurm.conf, printing each step,
then the environment that makes sbatch, srun, squeue, sacctmgr, sprio and
scontrol work against it from your shell. It keeps running after up returns;
stop it with slurmspec sandbox down. A second up while one runs is refused.

Exit status: 0 up, 1 the spec has errors, 2 anything else (usage,
prerequisites, a sandbox already running, a daemon that did not start).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, err := d.resolve(cmd)
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			st, err := sandboxUp(ctx, cmd, e, e.stdout, dir, args[0], &f)
			if err != nil {
				return sandboxError(err, d.hint(dir), exitUsage)
			}
			st.PrintUse(e.stdout, d.hint(dir))
			return nil
		},
	}
	f.register(cmd)
	return cmd
}

// sandboxError turns a failure of up into an exit status.
func sandboxError(err error, hint string, code int) error {
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.code == exitFindings {
			return ee
		}
		ee.code = code
		return ee
	}
	var re *sandbox.RunningError
	if errors.As(err, &re) {
		return &exitError{code: code, msg: fmt.Sprintf("%v; use it (slurmspec sandbox status%s), or stop it first: slurmspec sandbox down%s", err, hint, hint)}
	}
	return &exitError{code: code, msg: err.Error()}
}

// sandboxUp checks the prerequisites, renders the spec for the installed
// Slurm with the what-if changes, and starts the sandbox.
func sandboxUp(ctx context.Context, cmd *cobra.Command, e env, out io.Writer, dir, file string, f *sandboxFlags) (*sandbox.State, error) {
	if f.nodes < 1 {
		return nil, usageError("--nodes must be at least 1")
	}
	if err := f.links.file("", file); err != nil {
		return nil, err
	}
	if err := f.links.file("--config", f.spec.ConfigFile); err != nil {
		return nil, err
	}
	ts := sandbox.TimeScale{
		PreemptExemptTime:     f.preemptExempt,
		PreemptExemptTimeSet:  cmd.Flags().Changed("preempt-exempt-time"),
		PriorityCalcPeriod:    f.calcPeriod,
		PriorityDecayHalfLife: f.halfLife,
	}
	if cmd.Flags().Changed("priority-calc-period") && f.calcPeriod == 0 {
		return nil, usageError("--priority-calc-period: Slurm's PriorityCalcPeriod is a whole number of minutes, at least 1")
	}
	whatIf, err := ts.Settings()
	if err != nil {
		return nil, usageError("%v", err)
	}
	if err := sandbox.CheckPrereqs(out); err != nil {
		return nil, &exitError{code: exitUsage, msg: err.Error()}
	}
	if err := sandbox.CheckFree(dir); err != nil {
		return nil, err
	}
	installed, err := localslurm.SlurmVersion()
	if err != nil {
		return nil, &exitError{code: exitUsage, msg: err.Error()}
	}
	p, err := newPipeline(f.spec)
	if err != nil {
		return nil, err
	}
	settings, err := p.SettingsFor(file)
	if err != nil {
		return nil, usageError("%v", err)
	}
	version, release, note, err := sandbox.ChooseVersion(installed, settings.SlurmVersion(), cmd.Flags().Changed("slurm-version"), settings.Project.SlurmVersion)
	if err != nil {
		return nil, usageError("%v", err)
	}
	settings.Lint.SlurmVersion = version
	from := targetSource(cmd, settings, "the default build")
	if !cmd.Flags().Changed(pipeline.FlagSlurmVersion) && settings.Project.SlurmVersion == "" {
		from = "the installed slurmctld's release"
	}
	fmt.Fprintf(out, "sandbox: target %s, from %s; the sandbox runs Debian's packages\n", settings.Target(), from)
	if note != "" {
		fmt.Fprintf(out, "sandbox: %s\n", escape.Text(note))
	}

	sch, err := schema.New()
	if err != nil {
		return nil, &exitError{code: exitUsage, msg: err.Error()}
	}
	r, err := p.Analyse(pipeline.File(file, e.stdin), pipeline.AnalyseOptions{Schema: sch, Settings: settings})
	if err != nil {
		return nil, usageError("%v", err)
	}
	printResult(e.stderr, r)
	switch {
	case r.IOError:
		return nil, &exitError{code: exitUsage}
	case r.Failed() || r.Cluster == nil:
		return nil, &exitError{code: exitFindings, msg: "not started: " + r.Summary()}
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, &exitError{code: exitUsage, msg: fmt.Sprintf("find the slurmspec binary to run the supervisor: %v", err)}
	}
	st, err := sandbox.Start(ctx, sandbox.StartOptions{Cluster: r.Cluster, Settings: whatIf, Accounting: r.Accounting, Options: sandbox.Options{
		Dir:           dir,
		Spec:          file,
		RenderedFor:   version,
		SlurmVersion:  installed,
		Release:       release,
		NodesPerGroup: f.nodes,
		FakeNvidiaSMI: f.fakeGPU,
		Supervisor:    []string{exe, "sandbox", "supervise", "--state-dir", dir},
		Out:           out,
		Timeout:       f.timeout,
	}})
	var re *sandbox.RenderError
	if errors.As(err, &re) {
		r.Diags = re.Diags
		printResult(e.stderr, r)
		return nil, &exitError{code: exitFindings, msg: re.Error()}
	}
	return st, err
}

func newSandboxStatusCmd(e env, d *sandboxDir) *cobra.Command {
	return &cobra.Command{
		Use:   "status",
		Short: "Show the sandbox: its processes, nodes, changes, overrides and environment",
		Long:  "Show the sandbox: its processes, nodes, changes, overrides and environment.\n\nExit status: 0 up with every process running, 1 otherwise.",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, err := d.resolve(cmd)
			if err != nil {
				return err
			}
			st, err := sandbox.Read(dir)
			if errors.Is(err, sandbox.ErrNoSandbox) {
				fmt.Fprintf(e.stdout, "no sandbox is running (no state in %s)\n", escape.Text(dir))
				return &exitError{code: exitFindings}
			}
			if err != nil {
				return &exitError{code: exitUsage, msg: err.Error()}
			}
			if !st.Report(e.stdout) {
				return &exitError{code: exitFindings}
			}
			return nil
		},
	}
}

func newSandboxEnvCmd(e env, d *sandboxDir) *cobra.Command {
	return &cobra.Command{
		Use:   "env",
		Short: `Print the shell lines that point Slurm's commands at the sandbox: eval "$(slurmspec sandbox env)"`,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := readySandbox(cmd, d, exitFindings)
			if err != nil {
				return err
			}
			fmt.Fprint(e.stdout, st.ExportLines())
			return nil
		},
	}
}

// readySandbox reads the state and checks that the sandbox is up; it fails
// with the exit status code.
func readySandbox(cmd *cobra.Command, d *sandboxDir, code int) (*sandbox.State, error) {
	dir, err := d.resolve(cmd)
	if err != nil {
		return nil, err
	}
	st, err := sandbox.Read(dir)
	if err == nil {
		err = st.Ready()
	}
	if err != nil {
		return nil, &exitError{code: code, msg: fmt.Sprintf("%v; start one with: slurmspec sandbox up%s FILE", err, d.hint(dir))}
	}
	return st, nil
}

func newSandboxExecCmd(e env, d *sandboxDir) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "exec [--] COMMAND [ARG...]",
		Short: "Run a command inside the sandbox's namespace, with its environment",
		Long: `Run a command inside the sandbox's namespace (where the rendered host names
resolve, and the sandbox's mounts are), in the current directory, with
SLURM_CONF set to the sandbox's slurm.conf and its bin/ first on PATH.

Exit status: the command's; 125 when the sandbox is not running.`,
		Example: `  slurmspec sandbox exec -- squeue -a
  slurmspec sandbox exec -- runuser -u nobody -- sbatch -p preempt --wrap 'sleep 60'`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := readySandbox(cmd, d, exitSandbox)
			if err != nil {
				return err
			}
			c, err := st.Command(args)
			if err != nil {
				return &exitError{code: exitSandbox, msg: err.Error()}
			}
			return runForeground(c, e)
		},
	}
	cmd.Flags().SetInterspersed(false)
	return cmd
}

// runForeground runs a command in the foreground and returns its exit
// status as an *exitError.
func runForeground(c *exec.Cmd, e env) error {
	code, err := sandbox.Foreground(c, e.stdin, e.stdout, e.stderr)
	switch {
	case err != nil && code > 0:
		return &exitError{code: code, msg: err.Error()}
	case err != nil:
		return &exitError{code: exitSandbox, msg: err.Error()}
	case code != 0:
		return &exitError{code: code}
	}
	return nil
}

func newSandboxDownCmd(e env, d *sandboxDir) *cobra.Command {
	return &cobra.Command{
		Use:   "down",
		Short: "Stop the sandbox's processes, by PID, and remove its state (safe to run twice)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, err := d.resolve(cmd)
			if err != nil {
				return err
			}
			if err := sandbox.Down(dir, e.stdout); err != nil {
				return &exitError{code: exitUsage, msg: err.Error()}
			}
			return nil
		},
	}
}

func newSandboxRunCmd(e env, d *sandboxDir) *cobra.Command {
	var f sandboxFlags
	cmd := &cobra.Command{
		Use:   "run FILE [flags] -- COMMAND [ARG...]",
		Short: "Start a sandbox, run a command with its environment, stop it",
		Long: `Start a sandbox for the spec (as up), run the command with the environment
up prints (bin/ first on PATH, SLURM_CONF), then stop it (as down). For
scripted what-if checks in CI. The sandbox's progress goes to standard error.

Exit status: the command's; 1 when the spec has errors; 125 when the
sandbox could not start or stop.`,
		Example: `  slurmspec sandbox run examples/a4-training.yaml --preempt-exempt-time 1s -- ./check-preemption.sh`,
		Args: func(cmd *cobra.Command, args []string) error {
			if cmd.ArgsLenAtDash() != 1 || len(args) < 2 {
				return usageError("usage: slurmspec sandbox run FILE [flags] -- COMMAND [ARG...]")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, err := d.resolve(cmd)
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			st, err := sandboxUp(ctx, cmd, e, e.stderr, dir, args[0], &f)
			stop()
			if err != nil {
				return sandboxError(err, d.hint(dir), exitSandbox)
			}
			argv := args[1:]
			c := st.HostCommand(argv)
			fmt.Fprintf(e.stderr, "sandbox: running %s with the sandbox's environment\n", escape.Text(strings.Join(argv, " ")))
			runErr := runForeground(c, e)
			if err := sandbox.Down(dir, e.stderr); err != nil {
				return &exitError{code: exitSandbox, msg: err.Error()}
			}
			return runErr
		},
	}
	f.register(cmd)
	return cmd
}

func newSandboxSuperviseCmd(e env, d *sandboxDir) *cobra.Command {
	return &cobra.Command{
		Use:    "supervise",
		Short:  "Run the sandbox's supervisor (started by up; not for direct use)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, err := d.resolve(cmd)
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
			defer stop()
			if err := sandbox.Supervise(ctx, dir, e.stdout); err != nil {
				return &exitError{code: exitUsage, msg: err.Error()}
			}
			return nil
		},
	}
}
