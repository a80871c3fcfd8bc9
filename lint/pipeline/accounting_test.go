package pipeline_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/schema"
)

// TestAccountingFileFound: a spec's accounting file is found beside it by
// convention and through .slurmspec.yaml's accounting key, and its schema
// errors are the spec's findings, at the accounting file's positions.
func TestAccountingFileFound(t *testing.T) {
	repo := t.TempDir()
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	seed, err := os.ReadFile("../../examples/seed.jsonc")
	if err != nil {
		t.Fatal(err)
	}
	const bad = "accounts:\n  - name: Research\n"
	beside := write(t, filepath.Join(repo, "beside", "seed.jsonc"), string(seed))
	write(t, filepath.Join(repo, "beside", "seed.accounting.yaml"), bad)
	conf := write(t, filepath.Join(repo, "conf", "seed.jsonc"), string(seed))
	write(t, filepath.Join(repo, "conf", ".slurmspec.yaml"), "accounting: acct/teams.yaml\n")
	write(t, filepath.Join(repo, "conf", "acct", "teams.yaml"), bad)
	none := write(t, filepath.Join(repo, "none", "seed.jsonc"), string(seed))
	good := write(t, filepath.Join(repo, "good", "seed.jsonc"), string(seed))
	write(t, filepath.Join(repo, "good", "seed.accounting.yaml"), "accounts:\n  - name: research\n")

	p, err := pipeline.New(pipeline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sch, err := schema.New()
	if err != nil {
		t.Fatal(err)
	}
	for spec, want := range map[string]string{
		beside: filepath.Join(repo, "beside", "seed.accounting.yaml"),
		conf:   filepath.Join(repo, "conf", "acct", "teams.yaml"),
		none:   "",
	} {
		r, err := p.Analyse(pipeline.File(spec, nil), pipeline.AnalyseOptions{Schema: sch})
		if err != nil {
			t.Fatal(err)
		}
		var got string
		for _, d := range r.Diags {
			if d.Rule == "accounting-schema" {
				got = d.Pos.String()
			}
		}
		if want != "" {
			want += ":2:11"
		}
		if got != want {
			t.Errorf("%s: accounting-schema at %q, want %q", spec, got, want)
		}
	}
	r, err := p.Analyse(pipeline.File(good, nil), pipeline.AnalyseOptions{Schema: sch})
	if err != nil {
		t.Fatal(err)
	}
	if r.Accounting == nil || r.Accounting.Accounts[0].Name.Text != "research" {
		t.Errorf("good accounting file not in the result: %+v", r.Accounting)
	}
}

// TestAccountingErrorsHidePartitionQOS: when the accounting file has errors
// the QOS a partition names are unknown, and partition-qos-unknown, which
// assumes a database with only normal, stays silent.
func TestAccountingErrorsHidePartitionQOS(t *testing.T) {
	dir := t.TempDir()
	specText := "name: projects/p/locations/us-central1/modelDevelopmentClusters/c\n" +
		"nodePools:\n- {id: cpu, machineSpec: {machineType: n2-standard-8}, scalingSpec: {minNodeCount: 1, maxNodeCount: 1}, zone: us-central1-a}\n" +
		"- {id: login, machineSpec: {machineType: n2-standard-4}, scalingSpec: {minNodeCount: 1, maxNodeCount: 1}, zone: us-central1-a}\n" +
		"orchestratorSpec:\n  slurmSpec:\n    homeDirectoryStorage: projects/p/locations/us-central1-a/instances/home\n    loginNodePoolId: login\n" +
		"    partitions:\n    - {id: urgent, nodePoolIds: [cpu], config: {QOS: high}}\n"
	spec := write(t, filepath.Join(dir, "c.yaml"), specText)
	p, err := pipeline.New(pipeline.Options{SlurmVersion: "26.05"})
	if err != nil {
		t.Fatal(err)
	}
	sch, err := schema.New()
	if err != nil {
		t.Fatal(err)
	}
	rules := func() map[string]bool {
		r, err := p.Analyse(pipeline.File(spec, nil), pipeline.AnalyseOptions{Schema: sch})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for _, d := range r.Diags {
			out[d.Rule] = true
		}
		return out
	}
	if got := rules(); !got["partition-qos-unknown"] {
		t.Fatalf("control: no partition-qos-unknown without an accounting file: %v", got)
	}
	write(t, filepath.Join(dir, "c.accounting.yaml"), "qos:\n  - {name: High}\n")
	if got := rules(); got["partition-qos-unknown"] || !got["accounting-schema"] {
		t.Errorf("with a broken accounting file: %v, want accounting-schema and no partition-qos-unknown", got)
	}
}
