package cli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"

	slurmspec "github.com/slurmspec/slurmspec/cmd/slurmspec/cli"
	"github.com/slurmspec/slurmspec/deploy/pulumi/driver"
	"github.com/slurmspec/slurmspec/deploy/pulumi/pulumitest"
	"github.com/slurmspec/slurmspec/deploy/pulumi/pulumitest/fakegcp"
	"github.com/slurmspec/slurmspec/render/pulumimodel"
)

// change is one row of the matrix: edits of the current spec (pairs of
// old, new text), the impact class `slurmspec diff` must give, and whether
// the change is then deployed (so later rows start from it).
type change struct {
	name    string
	edits   []string
	class   string // maxImpact of slurmspec diff
	replace bool   // the cluster is replaced
	apply   bool
}

const cpuPool = `  - id: cpu
    machineSpec:
      machineType: n2-standard-16
    scalingSpec:
      maxNodeCount: 2
    zone: us-central1-b
`

var matrix = []change{
	// More nodes are more NodeName lines in slurm.conf.
	{name: "scaling", edits: []string{"maxNodeCount: 4", "maxNodeCount: 6"}, class: "reconfigure"},
	{name: "partition config", edits: []string{`MaxTime: "7-00:00:00"`, `MaxTime: "5-00:00:00"`}, class: "reconfigure"},
	{name: "default partition", edits: []string{"default_partition_id: train", "default_partition_id: preempt"}, class: "reconfigure"},
	{name: "node set config", edits: []string{`Weight: "10"`, `Weight: "20"`}, class: "reconfigure"},
	{name: "slurm config", edits: []string{`PriorityWeightAge: "1000"`, `PriorityWeightAge: "2000"`}, class: "reconfigure"},
	{name: "prolog script", edits: []string{"# Refuse to start a job", "# Never start a job"}, class: "in-place"},
	{name: "labels", edits: []string{"team: research", "team: infra"}, class: "in-place"},
	{name: "display name", edits: []string{"displayName: train", "displayName: training"}, class: "in-place"},
	{name: "boot disk", edits: []string{"bootDiskSizeGb: 120", "bootDiskSizeGb: 200"}, class: "in-place"},
	{name: "public IPs", edits: []string{"    enablePublicIps: true\n", ""}, class: "in-place"},
	{name: "machine type", edits: []string{"machineType: n2-standard-8", "machineType: n2-standard-16"}, class: "replace-cluster", replace: true},
	{name: "reservation", edits: []string{"reservations/a4-training", "reservations/a4-training-2"}, class: "replace-cluster", replace: true},
	{name: "home storage", edits: []string{"instances/home", "instances/home2"}, class: "replace-cluster", replace: true},
	{name: "network", edits: []string{"subnetworks/ml-us-central1", "subnetworks/ml-us-central1-b"}, class: "replace-cluster", replace: true},
	{name: "service account", edits: []string{"\nnodePools:", "\nruntimeSpec:\n  serviceAccount: slurm-nodes@acme-ml-prod.iam.gserviceaccount.com\nnodePools:"}, class: "replace-cluster", replace: true},
	{name: "pool added", edits: []string{"  - id: login\n", cpuPool + "  - id: login\n"}, class: "replace-cluster", replace: true, apply: true},
	{name: "pools reordered", edits: []string{cpuPool, "", "  - id: a4\n", cpuPool + "  - id: a4\n"}, class: "replace-cluster", replace: true},
	{name: "pool removed", edits: []string{cpuPool, ""}, class: "replace-cluster", replace: true},
}

// matrixWorkers is how many changes of the matrix are previewed at a time.
// A preview waits on three processes (the Pulumi CLI, the language host or
// the Automation API's program, the provider double) that use a fraction
// of a core each; previews of the same stack only read its state.
const matrixWorkers = 4

// TestMatrix runs the real Pulumi engine against the provider double for
// each change of the matrix and checks that three answers agree:
// `slurmspec diff`'s impact class, `slurmspec deploy preview`'s summary
// and plan (the Go program, through the Automation API), and the engine's
// plan for the rendered YAML project (`pulumi preview --json`), which
// must equal the Go program's.
//
// A change is previewed against the last deployed spec, so the changes
// between two applied ones are independent of each other: they run side
// by side (matrixWorkers at a time), each with files, a YAML project
// directory and provider logs of its own. An applied change is deployed
// once every change before it is done.
func TestMatrix(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test in -short mode")
	}
	t.Parallel()
	env := pulumitest.Setup(t, testBinary(t))
	start := time.Now()
	dir := t.TempDir()
	spec := copyExample(t, dir)
	base, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	// The Go stack and the YAML stack deploy the same cluster: each has a
	// Google Cloud of its own.
	goEnv, yamlEnv := isolated(t, env, "go"), isolated(t, env, "yaml")
	upBoth := func(t *testing.T, file string) {
		t.Helper()
		if code, out, errOut := deployIn(t, goEnv, "up", "--stack", "go", "--yes", file); code != 0 {
			t.Fatalf("deploy up: exit %d\n%s\n%s", code, out, errOut)
		}
		ydir := filepath.Join(dir, "yaml")
		renderYAML(t, file, ydir, pulumimodel.Options{})
		yamlEnv.Pulumi(t, ydir, "up", "--yes", "--stack", "yaml")
	}
	renderYAML(t, spec, filepath.Join(dir, "yaml"), pulumimodel.Options{})
	env.Pulumi(t, filepath.Join(dir, "yaml"), "stack", "init", "yaml")
	upBoth(t, spec)

	current := string(base)
	for i := 0; i < len(matrix); {
		// The changes up to the next applied one, side by side.
		j := i
		for j < len(matrix)-1 && !matrix[j].apply {
			j++
		}
		todo := make(chan change)
		var wg sync.WaitGroup
		for range min(matrixWorkers, j+1-i) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for c := range todo {
					t.Run(c.name, func(t *testing.T) { previewChange(t, c, current, goEnv, yamlEnv) })
				}
			}()
		}
		for _, c := range matrix[i : j+1] {
			todo <- c
		}
		close(todo)
		wg.Wait()
		if c := matrix[j]; c.apply {
			t.Run(c.name+" applied", func(t *testing.T) {
				next := applyEdits(t, current, c.edits)
				file := filepath.Join(dir, "applied.yaml")
				if err := os.WriteFile(file, []byte(next), 0o644); err != nil {
					t.Fatal(err)
				}
				upBoth(t, file)
				current = next
			})
		}
		i = j + 1
	}
	t.Logf("matrix: %d changes in %s", len(matrix), time.Since(start).Round(time.Second))
}

// isolated returns a copy of env with a Google Cloud and a provider log of
// its own (under a new directory named for what uses it).
func isolated(t *testing.T, env *pulumitest.Env, name string) *pulumitest.Env {
	t.Helper()
	d := filepath.Join(t.TempDir(), name)
	c := env.With(fakegcp.EnvCloud+"="+filepath.Join(d, "cloud"), fakegcp.EnvLog+"="+filepath.Join(d, "provider.log"))
	c.Cloud, c.Log = filepath.Join(d, "cloud"), filepath.Join(d, "provider.log")
	if err := os.MkdirAll(c.Cloud, 0o755); err != nil {
		t.Fatal(err)
	}
	return c
}

// applyEdits applies a change's edits (pairs of old, new text) to spec.
func applyEdits(t *testing.T, spec string, edits []string) string {
	t.Helper()
	for i := 0; i+1 < len(edits); i += 2 {
		if !strings.Contains(spec, edits[i]) {
			t.Fatalf("the spec has no %q", edits[i])
		}
		spec = strings.Replace(spec, edits[i], edits[i+1], 1)
	}
	return spec
}

// previewChange checks one change of the matrix against the stacks
// deployed from current: slurmspec diff, deploy preview of the Go program
// and the YAML project's plan. It reads the stacks' state and writes
// nothing there, so changes run side by side; each has its own files, its
// own YAML project directory and its own provider logs (so the Diff calls
// it reads are its own).
func previewChange(t *testing.T, c change, current string, goEnv, yamlEnv *pulumitest.Env) {
	next := applyEdits(t, current, c.edits)
	dir := t.TempDir()
	goEnv, yamlEnv = isolatedLog(goEnv, dir, "go"), isolatedLog(yamlEnv, dir, "yaml")
	oldFile, newFile := filepath.Join(dir, "old.yaml"), filepath.Join(dir, "new.yaml")
	for f, s := range map[string]string{oldFile: current, newFile: next} {
		if err := os.WriteFile(f, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// 1. slurmspec diff.
	var dout, derr bytes.Buffer
	slurmspec.Run([]string{"diff", "--format", "json", oldFile, newFile}, &dout, &derr)
	var rep struct {
		MaxImpact string `json:"maxImpact"`
		Summary   string `json:"summary"`
	}
	if err := json.Unmarshal(dout.Bytes(), &rep); err != nil {
		t.Fatalf("slurmspec diff: %v\n%s\n%s", err, dout.String(), derr.String())
	}
	if rep.MaxImpact != c.class {
		t.Errorf("slurmspec diff: %s (%s), want %s", rep.MaxImpact, rep.Summary, c.class)
	}

	// 2. deploy preview of the Go program.
	code, out, errOut := deployIn(t, goEnv, "preview", "--stack", "go", newFile)
	if code != 0 {
		t.Fatalf("deploy preview: exit %d\n%s\n%s", code, out, errOut)
	}
	goPlan := parsePlan(t, out)
	if strings.Contains(out, "impact unknown") || !strings.Contains(out, "slurmspec: ") {
		t.Errorf("deploy preview does not know the impact:\n%s", out)
	}
	wantSummary := "replaces the whole cluster"
	if c.replace != strings.Contains(out, wantSummary) || c.replace != strings.Contains(out, "up will need --yes") {
		t.Errorf("deploy preview summary (replace %v):\n%s", c.replace, out)
	}
	wantPlan := "update cluster"
	if c.replace {
		wantPlan = "replace cluster delete-first"
	}
	if got := goPlan[pulumimodel.ClusterResource]; got != wantPlan {
		t.Errorf("Go program plan for the cluster: %q, want %q\n%s", got, wantPlan, out)
	}
	// The double's own answer.
	replaced := false
	for _, d := range goEnv.Calls(t) {
		replaced = replaced || (d.Method == "Diff" && len(d.Replaces) > 0)
	}
	if replaced != c.replace {
		t.Errorf("provider Diff replaces: %v, want %v", replaced, c.replace)
	}

	// 3. The rendered YAML project's plan.
	ydir := filepath.Join(dir, "yaml")
	renderYAML(t, newFile, ydir, pulumimodel.Options{})
	yamlPlan := yamlPreview(t, yamlEnv, ydir, "yaml")
	if !equalPlans(goPlan, yamlPlan) {
		t.Errorf("plans differ:\nGo   %v\nYAML %v", goPlan, yamlPlan)
	}
}

// isolatedLog returns a copy of env (its Google Cloud kept) whose provider
// log is dir/name.log.
func isolatedLog(env *pulumitest.Env, dir, name string) *pulumitest.Env {
	log := filepath.Join(dir, name+".log")
	c := env.With(fakegcp.EnvLog + "=" + log)
	c.Log = log
	return c
}

var rePlanLine = regexp.MustCompile(`^  (\S+) (\S+) \(([^)]+)\)(: delete first)?`)

// parsePlan reads deploy preview's "Plan:" lines: name → "op name
// [delete-first]".
func parsePlan(t *testing.T, out string) map[string]string {
	t.Helper()
	plan := map[string]string{}
	in := false
	for _, line := range strings.Split(out, "\n") {
		switch {
		case line == "Plan:":
			in = true
		case line == "Plan: no changes":
			return plan
		case in && strings.HasPrefix(line, "  "):
			m := rePlanLine.FindStringSubmatch(line)
			if m == nil {
				t.Fatalf("plan line %q", line)
			}
			v := m[1] + " " + m[2]
			if m[4] != "" {
				v += " delete-first"
			}
			plan[m[2]] = v
		case in:
			return plan
		}
	}
	if !in {
		t.Fatalf("deploy preview printed no plan:\n%s", out)
	}
	return plan
}

// yamlPreview runs `pulumi preview` on the YAML project, its engine
// events streamed as JSON, and folds the step events as deploy preview
// does.
func yamlPreview(t *testing.T, env *pulumitest.Env, dir, stack string) map[string]string {
	t.Helper()
	out := env.With("PULUMI_ENABLE_STREAMING_JSON_PREVIEW=true").Pulumi(t, dir, "preview", "--stack", stack, "--json")
	var evs []apitype.StepEventMetadata
	for _, line := range strings.Split(out, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "{") {
			continue
		}
		var e apitype.EngineEvent
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("event log: %v: %s", err, line)
		}
		if e.ResourcePreEvent != nil {
			evs = append(evs, e.ResourcePreEvent.Metadata)
		}
	}
	plan := map[string]string{}
	for _, s := range driver.FoldSteps(evs) {
		v := string(s.Op) + " " + s.Name
		if s.DeleteFirst {
			v += " delete-first"
		}
		plan[s.Name] = v
	}
	return plan
}

func equalPlans(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
