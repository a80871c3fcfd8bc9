package importconf

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/lint/pipeline/pipelinetest"
	"github.com/slurmspec/slurmspec/render"
)

const slurmVersion = "26.05"

// compile loads, schema-checks and compiles a spec, failing the test on any
// error.
func compile(t *testing.T, name string, src []byte, id compiler.Identity) *ir.Cluster {
	t.Helper()
	return pipelinetest.CompileAs(t, name, string(src), id)
}

// renderTo renders a cluster into dir and returns the set.
func renderTo(t *testing.T, c *ir.Cluster, dir string) render.Set {
	t.Helper()
	set, l := render.Render(c, render.Options{SlurmVersion: slurmVersion})
	if l.HasErrors() {
		t.Fatalf("render: %v", l)
	}
	for _, a := range set {
		p := filepath.Join(dir, filepath.FromSlash(a.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, a.Data, os.FileMode(a.Mode)); err != nil {
			t.Fatal(err)
		}
	}
	return set
}

// moreSpec covers what the other specs do not: a service default set to its
// default value by the user, a machine type whose facts other types share
// (n4-standard-16 and n2-standard-16), a pool with only cloud nodes, an
// epilog without a prolog, scripts YAML cannot write as plain blocks
// (leading blanks, trailing blanks, CRLF), and a default partition that is not the first.
const moreSpec = `
name: projects/acme-prod/locations/us-central1/modelDevelopmentClusters/more
nodePools:
- id: h100
  machineSpec: {machineType: a3-megagpu-8g}
  provisioningModel: SPOT
  scalingSpec: {minNodeCount: 0, maxNodeCount: 2}
- id: cpu
  machineSpec: {machineType: n4-standard-16}
  scalingSpec: {minNodeCount: 1, maxNodeCount: 1}
- id: ui
  machineSpec: {machineType: n2-standard-4}
  scalingSpec: {maxNodeCount: 1}
orchestratorSpec:
  slurmSpec:
    loginNodePoolId: ui
    homeDirectoryStorage: projects/acme-prod/locations/us-central1-a/instances/home
    defaultPartitionId: cpu
    partitions:
    - {id: h100, nodePoolIds: [h100], config: {OverSubscribe: "NO", State: UP}}
    - {id: cpu, nodePoolIds: [cpu]}
    config: {ReturnToService: "2", MaxJobCount: "20000"}
    epilogBashScripts:
    - "#!/bin/bash\n# no trailing newline\nexit 0"
    - "  leading space\n\ttab  \n  trailing blanks   \n\n\n"
    - "#!/bin/sh\r\necho 'crlf' \"ünïcode\" \\ # not a comment\r\n"
`

var keyRe = regexp.MustCompile(`(?m)(^|\s)([A-Za-z]+)=`)

// foldKeys lower-cases the keys of a slurm.conf: Slurm matches keys
// ignoring case, and the import writes them in the catalog's spelling.
func foldKeys(b []byte) string {
	return keyRe.ReplaceAllStringFunc(string(b), strings.ToLower)
}

func TestRoundTrip(t *testing.T) {
	type tc struct {
		name string
		src  []byte
		id   compiler.Identity
		// canonical is false when the spec spells a key other than the
		// catalog does: slurm.conf then matches with keys case-folded.
		canonical bool
	}
	cases := []tc{
		{"pipelinetest.yaml", []byte(pipelinetest.Spec), compiler.Identity{ClusterID: "c"}, false},
		{"more.yaml", []byte(moreSpec), compiler.Identity{}, true},
	}
	examples, err := filepath.Glob("../../examples/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, ex := range examples {
		if !load.IsSpecFile(ex) {
			continue
		}
		src, err := os.ReadFile(ex)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, tc{filepath.Base(ex), src, compiler.Identity{}, true})
	}
	if len(cases) < 4 {
		t.Fatalf("found %d cases; the examples are missing", len(cases))
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			c := compile(t, tc.name, tc.src, tc.id)
			want := renderTo(t, c, dir)
			conf := want.Get("slurm.conf").Data

			spec, notes, err := Import(conf, nil, Options{ScriptsDir: dir})
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range notes {
				t.Log(n)
			}
			spec = decideAsSource(t, spec, c)
			c2 := compile(t, "imported.yaml", spec, compiler.Identity{})
			if c2.ID.Value != c.ID.Value {
				t.Errorf("cluster id %q, want %q", c2.ID.Value, c.ID.Value)
			}
			got := renderTo(t, c2, t.TempDir())
			gotConf := got.Get("slurm.conf").Data
			switch {
			case bytes.Equal(gotConf, conf):
			case !tc.canonical && foldKeys(gotConf) == foldKeys(conf):
			default:
				t.Errorf("slurm.conf differs after the round trip\n--- imported spec\n%s\n--- want\n%s\n--- got\n%s", spec, conf, gotConf)
			}
			// cluster.json and the Pulumi project restate the API body, much
			// of which (zones, network, Filestore) slurm.conf does not hold.
			for _, a := range want {
				if a.Path == "slurm.conf" || a.Path == "cluster.json" || strings.HasPrefix(a.Path, "pulumi/") {
					continue
				}
				if g := got.Get(a.Path); g == nil || !bytes.Equal(g.Data, a.Data) || g.Mode != a.Mode {
					t.Errorf("%s differs after the round trip", a.Path)
				}
			}
			for _, a := range got {
				if a.Path != "cluster.json" && !strings.HasPrefix(a.Path, "pulumi/") && want.Get(a.Path) == nil {
					t.Errorf("round trip added %s", a.Path)
				}
			}

			// The import of the imported spec's rendering is the imported
			// spec: importing is a fixed point after one round.
			again, _, err := Import(gotConf, nil, Options{ScriptsDir: dir})
			if err != nil {
				t.Fatal(err)
			}
			again = decideAsSource(t, again, c)
			if !bytes.Equal(again, spec) {
				t.Errorf("second import differs\n--- first\n%s\n--- second\n%s", spec, again)
			}
		})
	}
}

// Without ScriptsDir the scripts are notes, and slurm.conf still round
// trips once Prolog and Epilog lines are set aside.
func TestRoundTripWithoutScripts(t *testing.T) {
	c := compile(t, "pipelinetest.yaml", []byte(pipelinetest.Spec), compiler.Identity{ClusterID: "c"})
	set := renderTo(t, c, t.TempDir())
	conf := set.Get("slurm.conf").Data
	spec, notes, err := Import(conf, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !hasNote(notes, "Prolog=/etc/slurm/prolog.d/* is a path") {
		t.Errorf("no note about Prolog: %v", notes)
	}
	got := renderTo(t, compile(t, "imported.yaml", decideAsSource(t, spec, c), compiler.Identity{}), t.TempDir())
	strip := func(b []byte) string {
		var keep []string
		for _, l := range strings.Split(foldKeys(b), "\n") {
			if !strings.HasPrefix(l, "prolog=") && !strings.HasPrefix(l, "epilog=") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	if strip(got.Get("slurm.conf").Data) != strip(conf) {
		t.Errorf("slurm.conf differs\n--- want\n%s\n--- got\n%s", conf, got.Get("slurm.conf").Data)
	}
}

// decideAsSource makes the decisions the import leaves to a person as the
// source spec made them: the login pool's machine type and each GPU pool's
// provisioning model.
func decideAsSource(t *testing.T, spec []byte, src *ir.Cluster) []byte {
	t.Helper()
	return decideFn(t, spec, func(pool, field, placeholder string) string {
		switch {
		case placeholder == LoginMachinePlaceholder:
			return src.Pool(src.Slurm.LoginNodePoolID.Value).MachineType.Value
		case field == "provisioningModel" && src.Pool(pool) != nil:
			return src.Pool(pool).ProvisioningModel.Value
		}
		t.Fatalf("pool %q: no decision for %s: %s", pool, field, placeholder)
		return ""
	})
}

func hasNote(notes []Note, substr string) bool {
	for _, n := range notes {
		if strings.Contains(n.Message, substr) {
			return true
		}
	}
	return false
}
