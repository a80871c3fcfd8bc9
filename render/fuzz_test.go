package render_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/render"
	"github.com/slurmspec/slurmspec/render/slurmconf"
	"github.com/slurmspec/slurmspec/schema"
)

// FuzzRender runs arbitrary specs through the whole pipeline. Invariants:
// no panic; lint and render agree (a spec without errors renders); a render
// parses back to exactly the spec's config keys, partitions and node sets;
// every rendered line is one the renderer meant to write.
func FuzzRender(f *testing.F) {
	for _, pattern := range []string{"../examples/*", "../testdata/specs/*"} {
		files, _ := filepath.Glob(pattern)
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil {
				f.Add(data, filepath.Ext(file) == ".yaml")
			}
		}
	}
	sch, err := schema.New()
	if err != nil {
		f.Fatal(err)
	}
	p, err := pipeline.New(pipeline.Options{ClusterID: "fz"})
	if err != nil {
		f.Fatal(err)
	}
	settings := &pipeline.Settings{Lint: lint.Config{Options: lint.Options{SlurmVersion: "26.05"}}}
	f.Fuzz(func(t *testing.T, data []byte, yaml bool) {
		name := "f.jsonc"
		if yaml {
			name = "f.yaml"
		}
		r, err := p.Analyse(pipeline.Bytes(name, data), pipeline.AnalyseOptions{Schema: sch, Settings: settings})
		if err != nil {
			t.Fatal(err)
		}
		if r.Cluster == nil || r.Diags.HasErrors() {
			return // refused before render: load, schema, compile or lint errors
		}
		c := r.Cluster
		set, l := render.Render(c, render.Options{SlurmVersion: "26.05"})
		if len(l) > 0 {
			t.Fatalf("a spec without lint errors did not render: %v", l)
		}
		conf := set.Get("slurm.conf")
		parsed, err := slurmconf.Parse(conf.Data)
		if err != nil {
			t.Fatalf("rendered slurm.conf does not parse back: %v\n%s", err, conf.Data)
		}
		for _, kv := range c.Slurm.Config {
			if v, ok := parsed.GetGlobal(kv.Key.Value); !ok || v != kv.Value.Value {
				t.Errorf("config %s=%q reads back as %q (%v)", kv.Key.Value, kv.Value.Value, v, ok)
			}
		}
		if len(parsed.Partitions) != len(c.Slurm.Partitions) {
			t.Fatalf("%d partitions in the spec, %d in slurm.conf", len(c.Slurm.Partitions), len(parsed.Partitions))
		}
		for i, p := range c.Slurm.Partitions {
			line := parsed.Partitions[i]
			if line.Name() != p.ID.Value {
				t.Errorf("partition %d is %q, want %q", i, line.Name(), p.ID.Value)
			}
			if len(line.Pairs) != 2+len(p.Config)+boolInt(p.ID.Value == c.Slurm.DefaultPartitionID.Value) {
				t.Errorf("partition %q line has %d pairs: %v", p.ID.Value, len(line.Pairs), line.Pairs)
			}
		}
		if len(parsed.NodeSets) != len(c.ComputePools()) {
			t.Errorf("%d node sets for %d compute pools", len(parsed.NodeSets), len(c.ComputePools()))
		}
		for _, s := range set {
			if strings.Contains(s.Path, "..") || strings.HasPrefix(s.Path, "/") {
				t.Errorf("artifact path %q escapes the output directory", s.Path)
			}
		}
	})
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
