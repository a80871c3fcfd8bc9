package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/lab/localslurm"
)

func TestSlurmTime(t *testing.T) {
	for _, tt := range []struct {
		d    time.Duration
		unit time.Duration
		want string
	}{
		{time.Second, time.Second, "00:00:01"},
		{90 * time.Second, time.Second, "00:01:30"},
		{0, time.Second, "00:00:00"},
		{26*time.Hour + 3*time.Minute, time.Minute, "1-02:03:00"},
	} {
		got, err := slurmTime(tt.d, tt.unit)
		if err != nil || got != tt.want {
			t.Errorf("slurmTime(%v, %v) = %q, %v; want %q", tt.d, tt.unit, got, err, tt.want)
		}
	}
	for _, bad := range []struct{ d, unit time.Duration }{{1500 * time.Millisecond, time.Second}, {-time.Second, time.Second}, {90 * time.Second, time.Minute}} {
		if got, err := slurmTime(bad.d, bad.unit); err == nil {
			t.Errorf("slurmTime(%v, %v) = %q, want an error", bad.d, bad.unit, got)
		}
	}
}

func TestTimeScaleSettings(t *testing.T) {
	got, err := TimeScale{PreemptExemptTime: time.Second, PreemptExemptTimeSet: true, PriorityCalcPeriod: 1, PriorityDecayHalfLife: 5 * time.Minute}.Settings()
	if err != nil {
		t.Fatal(err)
	}
	want := []Setting{
		{Key: "PreemptExemptTime", Value: "00:00:01", Why: "--preempt-exempt-time 1s"},
		{Key: "PriorityCalcPeriod", Value: "1", Why: "--priority-calc-period 1"},
		{Key: "PriorityDecayHalfLife", Value: "00:05:00", Why: "--priority-decay-half-life 5m0s"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Settings (-want +got):\n%s", diff)
	}
	if got, err := (TimeScale{}).Settings(); err != nil || len(got) != 0 {
		t.Errorf("zero TimeScale: %v, %v; want no settings", got, err)
	}
	for _, bad := range []TimeScale{
		{PriorityCalcPeriod: -1},
		{PriorityDecayHalfLife: 30 * time.Second},
		{PreemptExemptTime: 1500 * time.Millisecond, PreemptExemptTimeSet: true},
	} {
		if _, err := bad.Settings(); err == nil {
			t.Errorf("Settings(%+v): no error", bad)
		}
	}
}

func kv(k, v string) ir.KV {
	return ir.KV{Key: ir.Str{Value: k, Set: true}, Value: ir.Str{Value: v, Set: true}}
}

func TestApply(t *testing.T) {
	c := &ir.Cluster{Slurm: ir.Slurm{Path: "orchestratorSpec.slurmSpec", Config: []ir.KV{
		kv("AccountingStorageEnforce", "associations"),
		kv("preemptExemptTime", "00:10:00"),
		kv("PriorityWeightAge", "1000"),
	}}}
	changes := Apply(c, []Setting{
		{Key: "PreemptExemptTime", Value: "00:00:01", Why: "--preempt-exempt-time 1s"},
		{Key: "PriorityCalcPeriod", Value: "1", Why: "--priority-calc-period 1"},
		{Key: "AccountingStorageEnforce", Value: "associations", Why: "same value"},
	})
	wantChanges := []Change{
		{Key: "preemptExemptTime", From: "00:10:00", To: "00:00:01", Why: "--preempt-exempt-time 1s"},
		{Key: "PriorityCalcPeriod", To: "1", Why: "--priority-calc-period 1"},
	}
	if diff := cmp.Diff(wantChanges, changes); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
	var got []string
	for _, e := range c.Slurm.Config {
		got = append(got, e.Key.Value+"="+e.Value.Value)
	}
	want := []string{"AccountingStorageEnforce=associations", "preemptExemptTime=00:00:01", "PriorityCalcPeriod=1", "PriorityWeightAge=1000"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("config (-want +got):\n%s", diff)
	}
	if p := c.Slurm.Config[2].Key.Path; p != "orchestratorSpec.slurmSpec.config.PriorityCalcPeriod" {
		t.Errorf("added key's path %q", p)
	}
	if s := changes[1].String(); s != "PriorityCalcPeriod: (unset) -> 1 (--priority-calc-period 1)" {
		t.Errorf("Change.String() = %q", s)
	}
}

func TestDefaultDir(t *testing.T) {
	t.Setenv(EnvDir, "")
	t.Setenv("XDG_STATE_HOME", "/xdg")
	if d, err := DefaultDir(); err != nil || d != "/xdg/slurmspec/sandbox" {
		t.Errorf("with XDG_STATE_HOME: %q, %v", d, err)
	}
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("HOME", "/home/u")
	if d, err := DefaultDir(); err != nil || d != "/home/u/.local/state/slurmspec/sandbox" {
		t.Errorf("with HOME only: %q, %v", d, err)
	}
	t.Setenv(EnvDir, "/tmp/sb")
	if d, err := DefaultDir(); err != nil || d != "/tmp/sb" {
		t.Errorf("with %s: %q, %v", EnvDir, d, err)
	}
}

func TestStateRoundTripAndDownWithoutProcesses(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sandbox")
	if _, err := Read(dir); err == nil || !strings.Contains(err.Error(), "no sandbox") {
		t.Fatalf("Read of a missing directory: %v", err)
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	st := &State{Dir: dir, Status: StatusUp, Spec: "a.yaml", Cluster: "train",
		Supervisor: Proc{Name: "supervisor", PID: 1 << 30},
		Processes:  []Proc{{Name: "namespace", PID: 1<<30 + 1}},
		Overrides:  []localslurm.Override{{Key: "SlurmUser", Rendered: "slurm", Value: "root", Reason: "r"}},
		Changes:    []Change{{Key: "PreemptExemptTime", From: "00:10:00", To: "00:00:01", Why: "--preempt-exempt-time 1s"}}}
	if err := st.write(); err != nil {
		t.Fatal(err)
	}
	got, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(st, got); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	if got.Live() {
		t.Error("Live() for processes that do not exist")
	}
	if err := got.Ready(); err == nil {
		t.Error("Ready() for a holder that does not exist")
	}
	if err := CheckFree(dir); err != nil {
		t.Errorf("CheckFree of a dead sandbox: %v", err)
	}
	var out strings.Builder
	if err := Down(dir, &out); err != nil {
		t.Fatalf("Down: %v", err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("Down left %s: %v", dir, err)
	}
	out.Reset()
	if err := Down(dir, &out); err != nil || !strings.Contains(out.String(), "nothing to stop") {
		t.Errorf("second Down: %v, %q", err, out.String())
	}
}

func TestDownRefusesForeignDirectory(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Down(dir, nil); err == nil {
		t.Fatal("Down removed a directory that is not a sandbox's")
	}
	if _, err := os.Stat(filepath.Join(dir, "notes.txt")); err != nil {
		t.Errorf("Down touched a foreign file: %v", err)
	}
}

func TestRunningErrorNamesTheSandbox(t *testing.T) {
	dir := t.TempDir()
	st := &State{Dir: dir, Status: StatusUp, Spec: "examples/a4-training.yaml", Cluster: "train", Created: time.Now(),
		Supervisor: identify("supervisor", os.Getpid())}
	if err := st.write(); err != nil {
		t.Fatal(err)
	}
	err := CheckFree(dir)
	re, ok := err.(*RunningError)
	if !ok {
		t.Fatalf("CheckFree with a live supervisor: %v, want a *RunningError", err)
	}
	for _, want := range []string{dir, `cluster "train"`, "examples/a4-training.yaml", "supervisor pid"} {
		if !strings.Contains(re.Error(), want) {
			t.Errorf("%q does not name %q", re.Error(), want)
		}
	}
}

func TestProcRunning(t *testing.T) {
	self := identify("self", os.Getpid())
	if !self.Running() {
		t.Errorf("%v: not running", self)
	}
	other := self
	other.Start++
	if other.Running() {
		t.Error("a process with another start time counts as the recorded one")
	}
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if p := identify("true", cmd.Process.Pid); p.Running() {
		t.Errorf("%v: an exited process counts as running", p)
	}
}

func TestWrapperScript(t *testing.T) {
	dir := t.TempDir()
	echo, err := exec.LookPath("echo")
	if err != nil {
		t.Fatal(err)
	}
	nsenter := "/nonexistent/nsenter"
	// Inside the namespace: the wrapper runs the program directly.
	st := &State{Dir: dir, Cluster: "train", ConfPath: "/w/etc/slurm.conf", Namespace: mountNamespace(os.Getpid()),
		Processes: []Proc{identify("namespace", os.Getpid())}}
	w := filepath.Join(dir, "echo")
	if err := os.WriteFile(w, []byte(wrapperScript(st, "echo", echo, nsenter)), 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(w, "hello", "$SLURM_CONF").CombinedOutput()
	if err != nil || string(out) != "hello $SLURM_CONF\n" {
		t.Errorf("wrapper inside the namespace: %q, %v", out, err)
	}
	env, err := exec.Command("sh", "-c", `sed -n 's/^SLURM_CONF=//p' "$0"`, w).Output()
	if err != nil || strings.TrimSpace(string(env)) != "/w/etc/slurm.conf" {
		t.Errorf("wrapper's SLURM_CONF: %q, %v", env, err)
	}
	// Outside, with the holder gone: a clear message, exit 127.
	st.Namespace = "mnt:[1]"
	st.Processes = []Proc{{Name: "namespace", PID: 1 << 30}}
	if err := os.WriteFile(w, []byte(wrapperScript(st, "echo", echo, nsenter)), 0o755); err != nil {
		t.Fatal(err)
	}
	out, err = exec.Command(w, "hello").CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 127 || !strings.Contains(string(out), "is not running") {
		t.Errorf("wrapper of a stopped sandbox: %q, %v; want exit 127 and \"is not running\"", out, err)
	}
}

func TestEnv(t *testing.T) {
	st := &State{Dir: "/s", ConfPath: "/w/etc/slurm.conf"}
	got := st.Env([]string{"HOME=/root", "SLURM_JOB_ID=3", "PATH=/usr/bin", "SLURM_CONF=/etc/slurm/slurm.conf"})
	want := []string{"HOME=/root", "PATH=/s/bin:/usr/bin", "SLURM_CONF=/w/etc/slurm.conf"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Env (-want +got):\n%s", diff)
	}
	if got := st.ExportLines(); got != "export PATH=/s/bin:\"$PATH\"\nexport SLURM_CONF=/w/etc/slurm.conf\n" {
		t.Errorf("ExportLines() = %q", got)
	}
}

func TestFakeNvidiaSMI(t *testing.T) {
	groups := []localslurm.NodeGroup{
		{Name: "a4", Nodes: []string{"t-a4-0", "t-a4-1"}, Gres: map[string]string{"t-a4-0": "gpu:b200:8", "t-a4-1": "gpu:b200:8"}},
		{Name: "g2", Nodes: []string{"t-g2-0"}, Gres: map[string]string{"t-g2-0": "gpu:2,nic:1"}},
		{Name: "cpu", Nodes: []string{"t-cpu-0"}, Gres: map[string]string{"t-cpu-0": ""}},
	}
	gpus := gpuNodes(groups, []string{"t-a4-0", "t-g2-0", "t-cpu-0"})
	want := []gpu{{node: "t-a4-0", count: 8, model: "NVIDIA B200"}, {node: "t-g2-0", count: 2, model: "NVIDIA GPU"}}
	if diff := cmp.Diff(want, gpus, cmp.AllowUnexported(gpu{})); diff != "" {
		t.Fatalf("gpuNodes (-want +got):\n%s", diff)
	}
	script := filepath.Join(t.TempDir(), "nvidia-smi")
	if err := os.WriteFile(script, []byte(fakeNvidiaSMIScript(gpus)), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(script, "--list-gpus")
	cmd.Env = append(os.Environ(), "SLURMD_NODENAME=t-a4-0")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 8 || lines[7] != "GPU 7: NVIDIA B200 (UUID: GPU-sandbox-t-a4-0-7)" {
		t.Errorf("fake nvidia-smi on t-a4-0: %q", out)
	}
	cmd = exec.Command(script)
	cmd.Env = append(os.Environ(), "SLURMD_NODENAME=t-cpu-0")
	if out, err := cmd.CombinedOutput(); err == nil {
		t.Errorf("fake nvidia-smi on a node without GPUs succeeded: %q", out)
	}
}
