package pulumi_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/deploy/pulumi/pulumitest"
	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/render"
	"github.com/slurmspec/slurmspec/render/pulumimodel"
)

func compileExample(t *testing.T, file string, opt pipeline.Options) *pipeline.Result {
	t.Helper()
	p, err := pipeline.New(opt)
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.Analyse(pipeline.File("../../examples/"+file, nil), pipeline.AnalyseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Failed() {
		t.Fatalf("%s: %v", file, r.Diags)
	}
	return r
}

// TestPulumiProject checks the project's frame: runtime, type tokens,
// pinned versions, the explicit default partition and the outputs. Every
// property is compared with the Go program's inputs in deploy/pulumi.
func TestPulumiProject(t *testing.T) {
	for _, tt := range []struct {
		file string
		opt  pulumimodel.Options
		want []string
	}{
		{"seed.jsonc", pulumimodel.Options{}, []string{
			"name: slurmspec-seed\n",
			"runtime: yaml\n",
			"  cluster:\n    type: gcp:vertex/aiModelDevelopmentCluster:AiModelDevelopmentCluster\n",
			"    options:\n      version: \"10.5.0\"\n",
			// The spec leaves the default to the first partition; the
			// project states it, so list order never moves it.
			"        defaultPartitionId: a4\n",
			"        homeDirectoryStorage: projects/PROJECT_ID/locations/REGION-ZONE/instances/FILESTORE_INSTANCE_ID\n",
			"  clusterName: ${cluster.name}\n  loginNodePool: login\n  partitions:\n    - a4\n  defaultPartition: a4\n",
		}},
		{"a4-training.yaml", pulumimodel.Options{CreateHomeFilestore: true}, []string{
			"  homeFilestore:\n    type: gcp:filestore/instance:Instance\n",
			"        homeDirectoryStorage: ${homeFilestore.id}\n",
			"      tier: BASIC_SSD\n",
			"        capacityGb: 2560\n",
			`rm -rf "/tmp/job-$${SLURM_JOB_ID:?}"`,
			`PreemptMode: "OFF"`,
			`PreemptExemptTime: "00:10:00"`,
			"  homeDirectoryStorage: ${homeFilestore.id}\n",
		}},
	} {
		t.Run(tt.file, func(t *testing.T) {
			r := compileExample(t, tt.file, pipeline.Options{})
			set, err := render.PulumiProject(r.Cluster, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			if len(set) != 1 || set[0].Path != "pulumi/Pulumi.yaml" || set[0].Mode != 0o644 {
				t.Fatalf("set = %+v", set)
			}
			got := string(set[0].Data)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("Pulumi.yaml does not contain %q:\n%s", w, got)
				}
			}
			if strings.Count(got, "version: \"10.5.0\"") != strings.Count(got, "\n    type: ") {
				t.Errorf("not every resource pins the provider version:\n%s", got)
			}
			again, _ := render.PulumiProject(r.Cluster, tt.opt)
			if !bytes.Equal(again[0].Data, set[0].Data) {
				t.Error("rendering is not deterministic")
			}
		})
	}
}

func TestPulumiProjectNeedsIdentity(t *testing.T) {
	r := compileExample(t, "a4-training.yaml", pipeline.Options{})
	r.Cluster.Region.Value = ""
	if _, err := render.PulumiProject(r.Cluster, pulumimodel.Options{}); !errors.Is(err, pulumimodel.ErrIdentity) {
		t.Errorf("error %v, want pulumimodel.ErrIdentity", err)
	}
}

// TestEscapePulumiYAML checks that literal strings come back unchanged
// through Pulumi YAML's interpolation rules ("$$" is "$", "${" starts a
// reference).
func TestEscapePulumiYAML(t *testing.T) {
	for _, s := range []string{
		"", "plain", "$", "$$", "$$$", "${X}", "$${X}", "a$b", "echo $$ ${HOME} $1 $", "${a.b}", "x$",
	} {
		esc := render.EscapePulumiYAML(s)
		doc := "name: p\nruntime: yaml\noutputs:\n  v: " + quote(esc) + "\n"
		p, err := pulumitest.EvalYAML([]byte(doc), func(res, prop string) (any, error) {
			return "RESOLVED", nil
		})
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		if p.Outputs["v"] != s {
			t.Errorf("%q escaped as %q reads back as %q", s, esc, p.Outputs["v"])
		}
	}
}

func quote(s string) string {
	return `"` + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `"`, `\"`) + `"`
}
