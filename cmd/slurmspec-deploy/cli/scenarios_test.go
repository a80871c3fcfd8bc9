package cli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/slurmspec/slurmspec/deploy/artifacts"
	"github.com/slurmspec/slurmspec/deploy/pulumi/pulumitest"
	"github.com/slurmspec/slurmspec/deploy/pulumi/pulumitest/fakegcp"
	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/render/pulumimodel"
)

// TestInterruptedCreate interrupts an up while the cluster's create (120
// minutes for real; here the double's delay knob) is under way: the
// message says the operation goes on in Google Cloud and how to recover,
// and after `deploy refresh` the stack knows the cluster, so the next up
// changes nothing (a second create would collide with the existing id).
func TestInterruptedCreate(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test in -short mode")
	}
	t.Parallel()
	env := pulumitest.Setup(t, testBinary(t))
	spec := copyExample(t, t.TempDir())

	// The up is a process of its own, interrupted as Ctrl-C does
	// (SIGINT).
	up := deployCmd(t, env.With(fakegcp.EnvDelay+"=10m"), "up", "--stack", "int", "--yes", spec)
	var o, e bytes.Buffer
	up.Stdout, up.Stderr = &o, &e
	if err := up.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- up.Wait() }()
	deadline := time.Now().Add(2 * time.Minute)
	for !started(t, env) {
		if time.Now().After(deadline) {
			_ = up.Process.Kill()
			<-done
			t.Fatalf("the cluster's create never started\n%s\n%s", o.String(), e.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
	interrupted := time.Now()
	if err := up.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		_ = up.Process.Kill()
		<-done
		t.Fatal("up did not stop after the interrupt")
	}
	t.Logf("up stopped %s after the interrupt", time.Since(interrupted).Round(time.Second))
	if code := up.ProcessState.ExitCode(); code != 2 {
		t.Errorf("interrupted up: exit %d, want 2\n%s\n%s", code, o.String(), e.String())
	}
	mustContain(t, "interrupted up", e.String(), "up interrupted", "goes on there", "cannot be cancelled", "slurmspec deploy refresh --stack int FILE")

	code, out, errOut := deployIn(t, env, "refresh", "--stack", "int", spec)
	if code != 0 {
		t.Fatalf("refresh: exit %d\n%s\n%s", code, out, errOut)
	}
	mark := env.Mark(t)
	code, out, errOut = deployIn(t, env, "up", "--stack", "int", spec)
	if code != 0 {
		t.Fatalf("up after refresh: exit %d\n%s\n%s", code, out, errOut)
	}
	mustContain(t, "up after refresh", out, "slurmspec: no changes")
	if a := applied(env.Since(t, mark)); len(a) != 0 {
		t.Errorf("up after refresh changed something: %s", ops(a))
	}
}

func started(t *testing.T, env *pulumitest.Env) bool {
	for _, c := range env.Calls(t) {
		if c.Method == "CreateStarted" && c.Name == pulumimodel.ClusterResource {
			return true
		}
	}
	return false
}

// TestFoundationPreview: deploy preview --with-foundation on the example
// plans a complete stack against the double, and the rendered YAML
// project with the same options passes Pulumi YAML's type check against
// the double's schema and plans the same resources.
func TestFoundationPreview(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test in -short mode")
	}
	t.Parallel()
	env := pulumitest.Setup(t, testBinary(t))
	dir := t.TempDir()
	spec := copyExample(t, dir)
	edit(t, spec, "\nnodePools:", "\nruntimeSpec:\n  serviceAccount: slurm-nodes@acme-ml-prod.iam.gserviceaccount.com\nnodePools:")
	code, out, errOut := deployIn(t, env, "preview", "--stack", "f", "--with-foundation", spec)
	if code != 0 {
		t.Fatalf("preview: exit %d\n%s\n%s", code, out, errOut)
	}
	goPlan := parsePlan(t, out)
	for _, name := range []string{"cluster", "network", "subnetwork", "firewallInternal", "firewallIapSsh", "router", "nat", "homeFilestore",
		"serviceAccount", "role-logging-logWriter", "api-compute", "api-file", "api-storage", "api-aiplatform", "api-hypercomputecluster"} {
		if goPlan[name] != "create "+name {
			t.Errorf("plan for %s: %q", name, goPlan[name])
		}
	}
	ydir := filepath.Join(dir, "yaml")
	renderYAML(t, spec, ydir, pulumimodel.Options{WithFoundation: true})
	// The same stack (deploy preview created it; it is still empty).
	yamlPlan := yamlPreview(t, env, ydir, "f")
	if !equalPlans(goPlan, yamlPlan) {
		t.Errorf("plans differ:\nGo   %v\nYAML %v", goPlan, yamlPlan)
	}
}

// TestProtect: --protect keeps destroy (and a replacement) from deleting
// the cluster: Pulumi's protect option refuses first; the provider's
// deletionPolicy PREVENT would refuse too.
func TestProtect(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test in -short mode")
	}
	t.Parallel()
	env := pulumitest.Setup(t, testBinary(t))
	spec := copyExample(t, t.TempDir())
	if code, out, errOut := deployIn(t, env, "up", "--stack", "p", "--protect", spec); code != 0 {
		t.Fatalf("up --protect: exit %d\n%s\n%s", code, out, errOut)
	}
	// The home Filestore exists (the cluster uses it): creating it in a
	// stack that already has the cluster would collide.
	code, out, errOut := deployIn(t, env, "up", "--stack", "p", "--protect", "--create-home-filestore", spec)
	if code != 1 || !strings.Contains(errOut, "stack p has the cluster but not homeFilestore") || !strings.Contains(errOut, "slurmspec deploy refresh") {
		t.Errorf("up --create-home-filestore on a deployed stack: exit %d\n%s\n%s", code, out, errOut)
	}
	mark := env.Mark(t)
	code, out, errOut = deployIn(t, env, "destroy", "--stack", "p", "--yes", "--protect", spec)
	if code != 2 || !strings.Contains(out+errOut, "protect") {
		t.Errorf("destroy of a protected cluster: exit %d\n%s\n%s", code, out, errOut)
	}
	if a := applied(env.Since(t, mark)); len(a) != 0 {
		t.Errorf("destroy of a protected cluster reached the provider: %s", ops(a))
	}
}

// TestPluralisedNames: the spec's lustreExportConfig.daysOfWeek goes to
// the provider as daysOfWeeks (the bridge pluralises list names), in the
// Go program and the YAML project; a YAML project that says daysOfWeek
// fails Pulumi YAML's type check against the provider schema.
func TestPluralisedNames(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test in -short mode")
	}
	t.Parallel()
	env := pulumitest.Setup(t, testBinary(t))
	dir := t.TempDir()
	spec := copyExample(t, dir)
	edit(t, spec, "\nnodePools:", "\nlustreExportConfig:\n  destinationBucket: acme-ml-exports\n  daysOfWeek: [MONDAY, THURSDAY]\n  startTime: {hours: 2}\nnodePools:")
	code, out, errOut := deployIn(t, env, "preview", "--stack", "l", spec)
	if code != 0 {
		t.Fatalf("preview: exit %d\n%s\n%s", code, out, errOut)
	}
	var sent map[string]any
	for _, c := range env.Calls(t) {
		if c.Method == "Create" && c.Name == pulumimodel.ClusterResource {
			sent = c.Inputs
		}
	}
	lec, _ := sent["lustreExportConfig"].(map[string]any)
	if lec["daysOfWeeks"] == nil || lec["daysOfWeek"] != nil {
		t.Errorf("the Go program sent lustreExportConfig %v", lec)
	}
	ydir := filepath.Join(dir, "yaml")
	renderYAML(t, spec, ydir, pulumimodel.Options{})
	env.Pulumi(t, ydir, "preview", "--stack", "l")

	data, err := os.ReadFile(filepath.Join(ydir, "Pulumi.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ydir, "Pulumi.yaml"), bytes.Replace(data, []byte("daysOfWeeks:"), []byte("daysOfWeek:"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err = env.PulumiErr(ydir, "preview", "--stack", "l")
	if err == nil || !strings.Contains(out, "Property daysOfWeek does not exist") {
		t.Errorf("a YAML project with daysOfWeek previews: %v\n%s", err, out)
	}
}

// TestFoundationOnDeployedStack: a stack that already has the cluster
// gets the foundation: up refuses to create the network, subnetwork and
// home Filestore that exist, deploy refresh adopts them, and up then
// creates only what is missing, leaving the cluster alone.
func TestFoundationOnDeployedStack(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test in -short mode")
	}
	t.Parallel()
	env := pulumitest.Setup(t, testBinary(t))
	spec := copyExample(t, t.TempDir())
	if code, out, errOut := deployIn(t, env, "up", "--stack", "fd", spec); code != 0 {
		t.Fatalf("up: exit %d\n%s\n%s", code, out, errOut)
	}
	// What exists besides the cluster: as the foundation would have
	// created it.
	p, err := pipeline.New(pipeline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Analyse(pipeline.File(spec, nil), pipeline.AnalyseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := artifacts.Model(res.Cluster, pulumimodel.Options{WithFoundation: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{pulumimodel.NetworkResource, pulumimodel.SubnetworkResource, pulumimodel.FilestoreResource} {
		r := m.Resource(name)
		in := pulumimodel.Resolve(r.Inputs, func(ref pulumimodel.Ref) any {
			switch ref {
			case pulumimodel.Ref{Resource: pulumimodel.NetworkResource, Property: "id"}:
				return m.IDs[pulumimodel.NetworkResource]
			case pulumimodel.Ref{Resource: pulumimodel.NetworkResource, Property: "name"}:
				return m.Resource(pulumimodel.NetworkResource).Inputs["name"]
			}
			t.Fatalf("unexpected reference %s", ref)
			return nil
		})
		data, _ := json.Marshal(in)
		var plain map[string]any
		if err := json.Unmarshal(data, &plain); err != nil {
			t.Fatal(err)
		}
		if _, err := fakegcp.Put(env.Cloud, r.Type, plain); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errOut := deployIn(t, env, "up", "--stack", "fd", "--with-foundation", spec)
	if code != 1 || !strings.Contains(errOut, "has the cluster but not network, subnetwork, homeFilestore") {
		t.Fatalf("up --with-foundation: exit %d\n%s\n%s", code, out, errOut)
	}
	if code, out, errOut = deployIn(t, env, "refresh", "--stack", "fd", "--with-foundation", spec); code != 0 || !strings.Contains(out, "Imported from Google Cloud: network, subnetwork, homeFilestore") {
		t.Fatalf("refresh --with-foundation: exit %d\n%s\n%s", code, out, errOut)
	}
	mark := env.Mark(t)
	if code, out, errOut = deployIn(t, env, "up", "--stack", "fd", "--with-foundation", spec); code != 0 {
		t.Fatalf("up --with-foundation after refresh: exit %d\n%s\n%s", code, out, errOut)
	}
	var created []string
	for _, c := range applied(env.Since(t, mark)) {
		if c.Method != "Create" {
			t.Errorf("up --with-foundation after refresh: %s %s", c.Method, c.Name)
		}
		created = append(created, c.Name)
	}
	if len(created) != 9 || slices.Contains(created, pulumimodel.ClusterResource) {
		t.Errorf("created %v, want the 9 missing foundation resources (5 APIs, 2 firewall rules, router, NAT) and not the cluster", created)
	}
}
