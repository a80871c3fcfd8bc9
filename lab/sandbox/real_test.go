package sandbox_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/slurmspec/slurmspec/cmd/slurmspec/cli"
	"github.com/slurmspec/slurmspec/lab/localslurm"
	"github.com/slurmspec/slurmspec/lab/localslurm/slurmtest"
	"github.com/slurmspec/slurmspec/lab/sandbox"
)

// cliEnv makes the test binary run the slurmspec command line instead of
// the tests: the sandbox's supervisor is `slurmspec sandbox supervise`,
// started from os.Executable(), which here is the test binary.
const cliEnv = "SLURMSPEC_SANDBOX_TEST_CLI"

func TestMain(m *testing.M) {
	if os.Getenv(cliEnv) == "1" {
		os.Exit(cli.Main())
	}
	// The key that signs state.json (and the default state directory)
	// live under XDG_STATE_HOME: one of the test's own, inherited by the
	// command lines it runs.
	state, err := os.MkdirTemp("", "sandbox-test-state-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_STATE_HOME", state)
	code := m.Run()
	os.RemoveAll(state)
	os.Exit(code)
}

// requirePrereqs runs the test only when the real-Slurm tests are asked
// for and this host can run a real Slurm (slurmtest.Require).
func requirePrereqs(t *testing.T) {
	t.Helper()
	slurmtest.Require(t, localslurm.Prereqs)
}

// result is one run of the command line.
type result struct {
	code           int
	stdout, stderr string
}

// slurmspec runs the slurmspec command line (this test binary) as a
// separate process, as a user's shell would.
func slurmspec(t *testing.T, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(os.Environ(), cliEnv+"=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	began := time.Now()
	err := cmd.Run()
	r := result{stdout: stdout.String(), stderr: stderr.String()}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	default:
		t.Fatalf("slurmspec %s: %v", strings.Join(args, " "), err)
	}
	if strings.Contains(r.stderr, `unknown command "sandbox"`) {
		t.Fatalf("slurmspec has no sandbox command: add newSandboxCmd(e) to root.AddCommand in cmd/slurmspec/cli/root.go")
	}
	t.Logf("slurmspec %s: exit %d in %v", strings.Join(args, " "), r.code, time.Since(began).Round(time.Millisecond))
	return r
}

// stateDir returns a state directory for one test, and stops whatever the
// test leaves running in it.
func stateDir(t *testing.T) string {
	dir := filepath.Join(t.TempDir(), "sandbox")
	t.Cleanup(func() {
		if _, err := os.Stat(dir); err == nil {
			t.Logf("cleanup: stopping the sandbox the test left in %s", dir)
			if err := sandbox.Down(dir, nil); err != nil {
				t.Errorf("cleanup: %v", err)
			}
		}
	})
	return dir
}

// leftovers returns running processes whose command line or environment
// mentions s.
func leftovers(s string) []string {
	entries, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		stat, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if i := bytes.LastIndexByte(stat, ')'); i < 0 || i+2 >= len(stat) || stat[i+2] == 'Z' {
			continue // gone, or a zombie: exited, not yet collected
		}
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		environ, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if bytes.Contains(cmdline, []byte(s)) || bytes.Contains(environ, []byte(s)) {
			out = append(out, e.Name()+" "+strings.ReplaceAll(string(cmdline), "\x00", " "))
		}
	}
	return out
}

// TestRunObservesPreemption runs examples/a4-training.yaml with `sandbox
// run` and the stated what-if --preempt-exempt-time 1s: the script
// testdata/preempt.sh submits a job to the low-tier partition preempt, then
// one to the high-tier partition train on the same node, and passes when
// the first is requeued, as the spec's PreemptType=preempt/partition_prio
// and PreemptMode=REQUEUE say. Then nothing of the sandbox is left.
func TestRunObservesPreemption(t *testing.T) {
	requirePrereqs(t)
	dir := stateDir(t)
	r := slurmspec(t, "sandbox", "run", "../../examples/a4-training.yaml", "--preempt-exempt-time", "1s",
		"--state-dir", dir, "--", "sh", "testdata/preempt.sh")
	t.Logf("stdout:\n%s", r.stdout)
	if r.code != 0 {
		t.Fatalf("exit %d, want 0 (the script's); stderr:\n%s", r.code, r.stderr)
	}
	for _, want := range []string{
		"low-priority job 1 is RUNNING in partition preempt on train-a4-0",
		"high-priority job 2 is RUNNING in partition train on train-a4-0",
		"PREEMPTED",
		"PASS: job 1 was requeued (PENDING, Restarts=1)",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q", want)
		}
	}
	for _, want := range []string{
		"stated change to the spec's config: PreemptExemptTime: 00:10:00 -> 00:00:01 (--preempt-exempt-time 1s)",
		"localslurm: started slurmctld pid ",
		"localslurm: started slurmd-train-a4-0 pid ",
		"sandbox: removed " + dir,
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("state directory %s left behind: %v", dir, err)
	}
	if m := regexp.MustCompile(`localslurm: work directory (\S+)`).FindStringSubmatch(r.stderr); m == nil {
		t.Errorf("no work directory in the progress")
	} else if _, err := os.Stat(m[1]); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("work directory %s left behind: %v", m[1], err)
	} else if left := leftovers(m[1]); len(left) > 0 {
		t.Errorf("processes of the sandbox left running: %v", left)
	}
}

// TestUpExecDown starts examples/seed.jsonc with `sandbox up`, uses it from
// a plain shell with the printed environment, refuses a second up, and
// checks that `sandbox down` leaves no process and no state, twice.
func TestUpExecDown(t *testing.T) {
	requirePrereqs(t)
	dir := stateDir(t)
	up := slurmspec(t, "sandbox", "up", "../../examples/seed.jsonc", "--state-dir", dir)
	if up.code != 0 {
		t.Fatalf("up: exit %d\nstdout:\n%s\nstderr:\n%s", up.code, up.stdout, up.stderr)
	}
	t.Logf("up:\n%s", up.stdout)
	for _, want := range []string{
		"sandbox: node group a4: stand-in slurmd for seed-a4-0 (1 of 2 nodes)",
		"localslurm: override SlurmctldPort: 6817 -> ",
		"localslurm: started munged pid ",
		"localslurm: started mariadbd pid ",
		"localslurm: started slurmdbd pid ",
		"localslurm: started slurmctld pid ",
		"localslurm: started slurmd-seed-a4-0 pid ",
		"drained the 1 node without a stand-in",
		"export PATH=" + dir + "/bin:\"$PATH\"",
		"export SLURM_CONF=",
	} {
		if !strings.Contains(up.stdout, want) {
			t.Errorf("up's output lacks %q", want)
		}
	}
	st, err := sandbox.Read(dir)
	if err != nil {
		t.Fatal(err)
	}

	t.Run("status", func(t *testing.T) {
		r := slurmspec(t, "sandbox", "status", "--state-dir", dir)
		if r.code != 0 || !strings.Contains(r.stdout, "up since") || !strings.Contains(r.stdout, "slurmctld") {
			t.Errorf("status: exit %d:\n%s%s", r.code, r.stdout, r.stderr)
		}
	})

	t.Run("second up refused", func(t *testing.T) {
		r := slurmspec(t, "sandbox", "up", "../../examples/a4-training.yaml", "--state-dir", dir)
		if r.code != 2 {
			t.Errorf("second up: exit %d, want 2", r.code)
		}
		for _, want := range []string{"a sandbox is already running in " + dir, `cluster "seed"`, "examples/seed.jsonc", "slurmspec sandbox down"} {
			if !strings.Contains(r.stderr, want) {
				t.Errorf("second up's message lacks %q:\n%s", want, r.stderr)
			}
		}
		if now, err := sandbox.Read(dir); err != nil || now.Cluster != "seed" || now.Supervisor != st.Supervisor {
			t.Errorf("the refused up changed the running sandbox's state: %+v, %v", now, err)
		}
	})

	t.Run("printed environment works from a shell", func(t *testing.T) {
		env := slurmspec(t, "sandbox", "env", "--state-dir", dir)
		if env.code != 0 {
			t.Fatalf("env: exit %d: %s", env.code, env.stderr)
		}
		// A plain shell outside the sandbox's namespace, as the user's.
		script := env.stdout + `
set -e
command -v sbatch
sacctmgr -i add account research >/dev/null
sacctmgr -i add user "$(id -un)" Account=research >/dev/null
id=$(sbatch --parsable -A research -p a4 -o /dev/null --wrap true)
srun -A research -p a4 hostname
i=0
until sacct -n -X -j "$id" -o State | grep -q COMPLETED; do
	i=$((i + 1)); [ "$i" -lt 150 ] || { sacct -j "$id"; exit 1; }
	sleep 0.2
done
echo "job $id COMPLETED"
sinfo -h -o '%P %t %N'
`
		cmd := exec.Command("sh", "-c", script)
		cmd.Dir = t.TempDir()
		out, err := cmd.CombinedOutput()
		t.Logf("shell:\n%s", out)
		if err != nil {
			t.Fatalf("shell with the printed environment: %v", err)
		}
		for _, want := range []string{dir + "/bin/sbatch", "seed-controller", "COMPLETED", "a4* idle seed-a4-0", "a4* drain seed-a4-1"} {
			if !strings.Contains(string(out), want) {
				t.Errorf("shell output lacks %q", want)
			}
		}
	})

	t.Run("exec", func(t *testing.T) {
		r := slurmspec(t, "sandbox", "exec", "--state-dir", dir, "--", "sh", "-c", "hostname; scontrol ping; exit 7")
		if r.code != 7 || !strings.Contains(r.stdout, "seed-controller") || !strings.Contains(r.stdout, "is UP") {
			t.Errorf("exec: exit %d (want 7, the command's):\n%s%s", r.code, r.stdout, r.stderr)
		}
	})

	t.Run("down leaves nothing", func(t *testing.T) {
		procs := append([]sandbox.Proc{st.Supervisor}, st.Processes...)
		r := slurmspec(t, "sandbox", "down", "--state-dir", dir)
		t.Logf("down:\n%s", r.stdout)
		if r.code != 0 {
			t.Fatalf("down: exit %d: %s", r.code, r.stderr)
		}
		for _, p := range procs {
			if p.Running() {
				t.Errorf("%v still running after down", p)
			}
		}
		if left := leftovers(st.WorkDir); len(left) > 0 {
			t.Errorf("processes of the sandbox left running: %v", left)
		}
		for _, p := range []string{dir, st.WorkDir} {
			if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%s left behind: %v", p, err)
			}
		}
		again := slurmspec(t, "sandbox", "down", "--state-dir", dir)
		if again.code != 0 || !strings.Contains(again.stdout, "nothing to stop") {
			t.Errorf("second down: exit %d: %s%s", again.code, again.stdout, again.stderr)
		}
		status := slurmspec(t, "sandbox", "status", "--state-dir", dir)
		if status.code != 1 || !strings.Contains(status.stdout, "no sandbox is running") {
			t.Errorf("status after down: exit %d: %s", status.code, status.stdout)
		}
		out, err := exec.Command(filepath.Join(dir, "bin", "squeue")).CombinedOutput()
		if err == nil {
			t.Errorf("a wrapper still works after down: %s", out)
		}
	})
}

// TestUpAppliesAccounting runs examples/a4-training.yaml with an
// accounting file beside it (testdata/accounting.yaml) in `sandbox run`:
// up applies the file, so the script testdata/accounting.sh finds its
// associations and QOS in the database, and a job of a user it declares is
// accepted at once under the spec's AccountingStorageEnforce and runs in
// its account and QOS.
func TestUpAppliesAccounting(t *testing.T) {
	requirePrereqs(t)
	dir := stateDir(t)
	specDir := t.TempDir()
	for from, to := range map[string]string{"../../examples/a4-training.yaml": "a4.yaml", "testdata/accounting.yaml": "a4.accounting.yaml"} {
		data, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(specDir, to), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := slurmspec(t, "sandbox", "run", filepath.Join(specDir, "a4.yaml"), "--state-dir", dir, "--", "sh", "testdata/accounting.sh")
	t.Logf("stdout:\n%s", r.stdout)
	if r.code != 0 {
		t.Fatalf("exit %d, want 0 (the script's); stderr:\n%s", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, "PASS: job 1 COMPLETED with Account=research QOS=scavenger") {
		t.Errorf("stdout lacks the job's account and QOS")
	}
	for _, want := range []string{
		"sandbox: accounting: the spec's accounting file is applied once slurmdbd is up (accounting/apply.sh, as rendered)",
		"applied the spec's accounting file with its rendered script (accounting/apply.sh): 1 users",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
}
