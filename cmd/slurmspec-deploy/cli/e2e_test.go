package cli_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/rogpeppe/go-internal/testscript"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/slurmspec/slurmspec/cmd/slurmspec-deploy/cli"
	"github.com/slurmspec/slurmspec/deploy/artifacts"
	"github.com/slurmspec/slurmspec/deploy/pulumi/pulumitest"
	"github.com/slurmspec/slurmspec/deploy/pulumi/pulumitest/fakegcp"
	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/render"
	"github.com/slurmspec/slurmspec/render/pulumimodel"
)

// deployName is the name under which this test binary is slurmspec-deploy
// (TestMain).
const deployName = "slurmspec-deploy"

// TestMain: this test binary is also slurmspec-deploy and the provider
// test double, by the name it is started under. The end-to-end tests run
// slurmspec-deploy as a process (deployIn), each test in a Pulumi
// environment of its own, side by side (t.Parallel: none sets the test
// process's environment), and install the binary itself as the provider
// plugin (pulumitest.ProviderName): nothing is built for them.
func TestMain(m *testing.M) {
	switch filepath.Base(os.Args[0]) {
	case pulumitest.ProviderName:
		if err := fakegcp.Main(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	case deployName:
		os.Exit(cli.Main())
	}
	// The testscripts (script_test.go) run slurmspec-deploy as a command.
	testscript.Main(m, map[string]func(){
		"slurmspec-deploy": func() { os.Exit(cli.Main()) },
	})
}

// testBinary is this test binary's path.
func testBinary(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// deploy runs slurmspec-deploy in process, in the test process's
// environment.
func deploy(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	code = cli.Run(args, strings.NewReader(""), &o, &e)
	return code, o.String(), e.String()
}

// deployCmd is slurmspec-deploy as a process in env: this test binary
// under deployName.
func deployCmd(t *testing.T, env *pulumitest.Env, args ...string) *exec.Cmd {
	t.Helper()
	return &exec.Cmd{Path: testBinary(t), Args: append([]string{deployName}, args...), Env: env.Environ()}
}

// deployIn runs slurmspec-deploy as a process in env.
func deployIn(t *testing.T, env *pulumitest.Env, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := deployCmd(t, env, args...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	if err := cmd.Run(); err != nil {
		if ee := (*exec.ExitError)(nil); !errors.As(err, &ee) {
			t.Fatalf("slurmspec-deploy %s: %v", strings.Join(args, " "), err)
		}
	}
	return cmd.ProcessState.ExitCode(), o.String(), e.String()
}

func mustContain(t *testing.T, what, got string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("%s does not contain %q:\n%s", what, w, got)
		}
	}
}

// stripped drops the reserved "__" keys a bridged provider's Check adds
// (the engine passes checked inputs on to Create and Update).
func stripped(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range v {
			if !strings.HasPrefix(k, "__") {
				out[k] = stripped(e)
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = stripped(e)
		}
		return out
	}
	return v
}

func strippedMap(m map[string]any) map[string]any { return stripped(m).(map[string]any) }

// applied returns the calls that changed something (not previews).
func applied(calls []fakegcp.Call) []fakegcp.Call {
	var out []fakegcp.Call
	for _, c := range calls {
		if !c.Preview && (c.Method == "Create" || c.Method == "Update" || c.Method == "Delete") {
			out = append(out, c)
		}
	}
	return out
}

func ops(calls []fakegcp.Call) string {
	var s []string
	for _, c := range calls {
		s = append(s, c.Method+" "+c.Name)
	}
	return strings.Join(s, ", ")
}

// expectedInputs is what the provider must receive for a resource of the
// spec's model: the model's inputs as the engine delivers them (JSON).
func expectedInputs(t *testing.T, file string, opt pulumimodel.Options, resource string) (map[string]any, *pulumimodel.Model) {
	t.Helper()
	p, err := pipeline.New(pipeline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.Analyse(pipeline.File(file, nil), pipeline.AnalyseOptions{})
	if err != nil || r.Failed() {
		t.Fatalf("%s: %v %v", file, err, r.Diags)
	}
	m, err := artifacts.Model(r.Cluster, opt)
	if err != nil {
		t.Fatal(err)
	}
	// The only reference is homeDirectoryStorage to the Filestore
	// instance's id, which is the name the spec gives.
	in := pulumimodel.Resolve(m.Resource(resource).Inputs, func(ref pulumimodel.Ref) any {
		if ref != (pulumimodel.Ref{Resource: pulumimodel.FilestoreResource, Property: "id"}) {
			t.Fatalf("unexpected reference %s", ref)
		}
		return r.Cluster.Slurm.HomeDirectoryStorage.Value
	})
	data, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out, m
}

func edit(t *testing.T, file, old, new string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(old)) {
		t.Fatalf("%s has no %q", file, old)
	}
	if err := os.WriteFile(file, bytes.Replace(data, []byte(old), []byte(new), 1), 0o644); err != nil {
		t.Fatal(err)
	}
}

func copyExample(t *testing.T, dir string) string {
	t.Helper()
	data, err := os.ReadFile("../../../examples/a4-training.yaml")
	if err != nil {
		t.Fatal(err)
	}
	spec := filepath.Join(dir, "cluster.yaml")
	if err := os.WriteFile(spec, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return spec
}

func renderYAML(t *testing.T, spec, dir string, opt pulumimodel.Options) {
	t.Helper()
	p, err := pipeline.New(pipeline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.Analyse(pipeline.File(spec, nil), pipeline.AnalyseOptions{})
	if err != nil || r.Failed() {
		t.Fatalf("%s: %v %v", spec, err, r.Diags)
	}
	set, err := render.PulumiProject(r.Cluster, opt)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Pulumi.yaml"), set.Get(render.PulumiYAMLPath).Data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestEndToEnd runs the real Pulumi engine, offline, against the provider
// test double: the Go program through slurmspec-deploy (Automation API)
// and the rendered Pulumi YAML project through `pulumi up`.
func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test in -short mode")
	}
	t.Parallel()
	env := pulumitest.Setup(t, testBinary(t))
	start := time.Now()
	dir := t.TempDir()
	spec := copyExample(t, dir)
	wantCluster, m := expectedInputs(t, spec, pulumimodel.Options{}, pulumimodel.ClusterResource)

	// The YAML project's stack, made before the two subtests run side by
	// side: the YAML project deploys into a Google Cloud of its own, with a
	// provider log of its own, so neither sees the other's calls. Each
	// checks the inputs the provider received against the model's
	// (wantCluster), so the two send the same cluster.
	ydir := filepath.Join(dir, "yaml")
	yspec := copyExample(t, t.TempDir())
	yopt := pulumimodel.Options{CreateHomeFilestore: true}
	renderYAML(t, yspec, ydir, yopt)
	env.Pulumi(t, ydir, "stack", "init", "yaml")
	yenv := isolated(t, env, "yaml")

	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		t.Run("go-program", func(t *testing.T) { endToEndGo(t, env, dir, spec, m, wantCluster) })
	}()
	go func() {
		defer wg.Done()
		t.Run("yaml-project", func(t *testing.T) { endToEndYAML(t, yenv, ydir, yspec, yopt, wantCluster) })
	}()
	wg.Wait()
	t.Logf("end-to-end: %s", time.Since(start).Round(time.Second))
}

// endToEndGo is TestEndToEnd's Go program: preview, up, the YAML project
// on the same stack, a no-op up, an update, a refused and an accepted
// replacement, destroy.
func endToEndGo(t *testing.T, env *pulumitest.Env, dir, spec string, m *pulumimodel.Model, wantCluster map[string]any) {
	mark := env.Mark(t)
	code, out, errOut := deployIn(t, env, "preview", "--stack", "e2e", spec)
	if code != 0 {
		t.Fatalf("preview: exit %d\n%s\n%s", code, out, errOut)
	}
	mustContain(t, "preview output", out, "has no cluster yet; up creates cluster "+m.ClusterName(), "+ 2 to create")
	if a := applied(env.Since(t, mark)); len(a) != 0 {
		t.Errorf("preview changed something: %s", ops(a))
	}

	mark = env.Mark(t)
	code, out, errOut = deployIn(t, env, "up", "--stack", "e2e", spec)
	if code != 0 {
		t.Fatalf("up: exit %d\n%s\n%s", code, out, errOut)
	}
	mustContain(t, "up output", out, "Stack e2e is up: 2 create", `"`+m.ClusterName()+`"`, `loginNodePool       : "login"`)
	a := applied(env.Since(t, mark))
	if len(a) != 1 || a[0].Method != "Create" || a[0].Type != pulumimodel.ClusterType || a[0].Name != pulumimodel.ClusterResource {
		t.Fatalf("up: provider calls %s, want Create cluster", ops(a))
	}
	if a[0].Inputs["__defaults"] == nil {
		t.Error("the engine did not pass the checked inputs (with __defaults) to Create")
	}
	if got := strippedMap(a[0].Inputs); !reflect.DeepEqual(got, wantCluster) {
		t.Errorf("the provider received\n%v\nwant\n%v", got, wantCluster)
	}

	// The rendered YAML project, run against the stack the Go program
	// deployed, changes nothing: both send the same inputs.
	same := filepath.Join(dir, "yaml-same")
	renderYAML(t, spec, same, pulumimodel.Options{})
	mark = env.Mark(t)
	env.Pulumi(t, same, "preview", "--stack", "e2e", "--expect-no-changes")
	if a := applied(env.Since(t, mark)); len(a) != 0 {
		t.Errorf("YAML preview on the Go stack changed something: %s", ops(a))
	}

	mark = env.Mark(t)
	code, out, errOut = deployIn(t, env, "up", "--stack", "e2e", spec)
	if code != 0 {
		t.Fatalf("second up: exit %d\n%s\n%s", code, out, errOut)
	}
	// The deployed inputs read back from state (with __defaults) give
	// a known impact: no changes.
	mustContain(t, "second up output", out, "Update impact on stack e2e", "slurmspec: no changes", "Stack e2e is up: 2 same")
	if a := applied(env.Since(t, mark)); len(a) != 0 {
		t.Errorf("second up is not a no-op: %s", ops(a))
	}

	edit(t, spec, `MaxTime: "7-00:00:00"`, `MaxTime: "5-00:00:00"`)
	mark = env.Mark(t)
	code, out, errOut = deployIn(t, env, "up", "--stack", "e2e", spec)
	if code != 0 {
		t.Fatalf("partition change: exit %d\n%s\n%s", code, out, errOut)
	}
	mustContain(t, "partition change output", out, "partition train MaxTime", "7-00:00:00 -> 5-00:00:00", "Stack e2e is up: 1 same, 1 update")
	a = applied(env.Since(t, mark))
	if len(a) != 1 || a[0].Method != "Update" || a[0].Name != pulumimodel.ClusterResource {
		t.Fatalf("partition change: provider calls %s, want Update cluster", ops(a))
	}
	if got := partitionConfig(a[0].Inputs, 0)["MaxTime"]; got != "5-00:00:00" {
		t.Errorf("updated MaxTime = %v", got)
	}
	if got := partitionConfig(a[0].Olds, 0)["MaxTime"]; got != "7-00:00:00" {
		t.Errorf("old MaxTime = %v", got)
	}
	for _, c := range env.Since(t, mark, "Diff") {
		if len(c.Replaces) > 0 || !reflect.DeepEqual(c.Diffs, []string{"orchestratorSpec"}) {
			t.Errorf("partition change diff: %v, replaces %v", c.Diffs, c.Replaces)
		}
	}

	// A pool's machine type is ForceNew inside nodePools[]: the
	// provider replaces the whole cluster, delete first (its id is
	// fixed; created first, the new one would collide).
	edit(t, spec, "machineType: n2-standard-8", "machineType: n2-standard-16")
	mark = env.Mark(t)
	code, out, errOut = deployIn(t, env, "up", "--stack", "e2e", spec)
	if code != 1 {
		t.Fatalf("machine type change without --yes: exit %d, want 1\n%s\n%s", code, out, errOut)
	}
	mustContain(t, "machine type change output", out, "replace-cluster", "node pool login machineSpec.machineType", "n2-standard-8 -> n2-standard-16",
		"This update destroys:", "cluster "+m.ClusterName()+" with every node of node pools a4, login", "deleted and created again")
	mustContain(t, "machine type change error", errOut, "replaces the whole cluster", "Pulumi would replace or delete 1 resource", "pass --yes")
	if a := applied(env.Since(t, mark)); len(a) != 0 {
		t.Errorf("a refused up changed something: %s", ops(a))
	}

	mark = env.Mark(t)
	code, out, errOut = deployIn(t, env, "up", "--stack", "e2e", "--yes", spec)
	if code != 0 {
		t.Fatalf("machine type change with --yes: exit %d\n%s\n%s", code, out, errOut)
	}
	a = applied(env.Since(t, mark))
	if ops(a) != "Delete cluster, Create cluster" {
		t.Fatalf("machine type change: provider calls %s, want Delete cluster, Create cluster", ops(a))
	}
	if got := a[1].Inputs["nodePools"].([]any)[1].(map[string]any)["machineSpec"].(map[string]any)["machineType"]; got != "n2-standard-16" {
		t.Errorf("created login machine type = %v", got)
	}

	code, _, errOut = deployIn(t, env, "destroy", "--stack", "e2e", spec)
	if code != 1 || !strings.Contains(errOut, "pass --yes") {
		t.Errorf("destroy without --yes: exit %d, %s", code, errOut)
	}
	mark = env.Mark(t)
	code, out, errOut = deployIn(t, env, "destroy", "--stack", "e2e", "--yes", spec)
	if code != 0 {
		t.Fatalf("destroy: exit %d\n%s\n%s", code, out, errOut)
	}
	if a := applied(env.Since(t, mark)); len(a) != 1 || a[0].Method != "Delete" || a[0].Type != pulumimodel.ClusterType {
		t.Errorf("destroy: provider calls %s, want Delete cluster", ops(a))
	}
}

// endToEndYAML is TestEndToEnd's YAML project: preview, up, a no-op up,
// an update, destroy, in env (a Google Cloud and provider log of its own).
func endToEndYAML(t *testing.T, env *pulumitest.Env, ydir, yspec string, opt pulumimodel.Options, wantCluster map[string]any) {
	mark := env.Mark(t)
	env.Pulumi(t, ydir, "preview")
	if a := applied(env.Since(t, mark)); len(a) != 0 {
		t.Errorf("preview changed something: %s", ops(a))
	}

	mark = env.Mark(t)
	env.Pulumi(t, ydir, "up", "--yes")
	a := applied(env.Since(t, mark))
	if len(a) != 2 || a[0].Name != pulumimodel.FilestoreResource || a[1].Name != pulumimodel.ClusterResource || a[0].Method != "Create" || a[1].Method != "Create" {
		t.Fatalf("up: provider calls %s, want Create homeFilestore, Create cluster", ops(a))
	}
	wantFS, _ := expectedInputs(t, yspec, opt, pulumimodel.FilestoreResource)
	if got := strippedMap(a[0].Inputs); !reflect.DeepEqual(got, wantFS) {
		t.Errorf("Filestore inputs\n%v\nwant\n%v", got, wantFS)
	}
	if got := strippedMap(a[1].Inputs); !reflect.DeepEqual(got, wantCluster) {
		t.Errorf("cluster inputs\n%v\nwant\n%v", got, wantCluster)
	}
	scripts := a[1].Inputs["orchestratorSpec"].(map[string]any)["slurmSpec"].(map[string]any)["epilogBashScripts"]
	if !strings.Contains(scripts.([]any)[0].(string), `"/tmp/job-${SLURM_JOB_ID:?}"`) {
		t.Errorf("the epilog's ${...} did not survive Pulumi YAML: %v", scripts)
	}

	mark = env.Mark(t)
	env.Pulumi(t, ydir, "up", "--yes", "--expect-no-changes")
	if a := applied(env.Since(t, mark)); len(a) != 0 {
		t.Errorf("second up is not a no-op: %s", ops(a))
	}

	edit(t, yspec, `PriorityTier: "1"`, `PriorityTier: "2"`)
	renderYAML(t, yspec, ydir, opt)
	mark = env.Mark(t)
	env.Pulumi(t, ydir, "up", "--yes")
	a = applied(env.Since(t, mark))
	if len(a) != 1 || a[0].Method != "Update" || a[0].Name != pulumimodel.ClusterResource {
		t.Fatalf("partition change: provider calls %s, want Update cluster", ops(a))
	}
	if got := partitionConfig(a[0].Inputs, 1)["PriorityTier"]; got != "2" {
		t.Errorf("updated PriorityTier = %v", got)
	}

	mark = env.Mark(t)
	env.Pulumi(t, ydir, "destroy", "--yes")
	a = applied(env.Since(t, mark))
	if ops(a) != "Delete cluster, Delete homeFilestore" {
		t.Errorf("destroy: provider calls %s, want Delete cluster, Delete homeFilestore", ops(a))
	}
}

func partitionConfig(inputs map[string]any, i int) map[string]any {
	parts := inputs["orchestratorSpec"].(map[string]any)["slurmSpec"].(map[string]any)["partitions"].([]any)
	return parts[i].(map[string]any)["config"].(map[string]any)
}
