package rules_test

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/slurmspec/slurmspec/compiler"
	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/lint/rules"
	"github.com/slurmspec/slurmspec/schema"
)

// marker marks, in a test spec, the position where a diagnostic is
// expected: the character after it. The harness removes it before loading.
const marker = "»"

// compiledSchema is built once per test binary: compiling CUE is slow.
var compiledSchema = sync.OnceValues(schema.New)

// spec is a cluster spec assembled from YAML fragments; empty fields take a
// small valid default. Fragments are written without their indentation.
type spec struct {
	Pools      string // items of nodePools, before the login pool
	Login      string // the login pool item
	Home       string // homeDirectoryStorage
	Partitions string // items of partitions
	Default    string // defaultPartitionId
	Config     string // body of slurmSpec.config
	NodeSets   string // items of nodeSets
	Prolog     string // items of prologBashScripts
	Epilog     string // items of epilogBashScripts
}

const (
	defaultPools = "- id: cpu\n  machineSpec: {machineType: n2-standard-8}\n  scalingSpec: {minNodeCount: 1, maxNodeCount: 1}\n  zone: us-central1-a"
	defaultLogin = "- id: login\n  machineSpec: {machineType: n2-standard-4}\n  scalingSpec: {minNodeCount: 1, maxNodeCount: 1}\n  zone: us-central1-a"
	defaultHome  = "projects/my-project/locations/us-central1-a/instances/home"
	defaultParts = "- {id: debug, nodePoolIds: [cpu]}"
	// a4Pool is an A4 pool that renders Gres=gpu:b200:8.
	a4Pool = "- id: a4\n  machineSpec: {machineType: a4-highgpu-8g}\n  provisioningModel: SPOT\n  scalingSpec: {minNodeCount: 0, maxNodeCount: 4}\n  bootDisk: {bootDiskType: hyperdisk-balanced}\n  zone: us-central1-a"
)

func indent(s, pre string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = pre + l
		}
	}
	return strings.Join(lines, "\n") + "\n"
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// YAML renders the spec.
func (s spec) YAML() string {
	var b strings.Builder
	b.WriteString("name: projects/my-project/locations/us-central1/modelDevelopmentClusters/c\n")
	b.WriteString("nodePools:\n")
	b.WriteString(indent(or(s.Pools, defaultPools), ""))
	b.WriteString(indent(or(s.Login, defaultLogin), ""))
	b.WriteString("orchestratorSpec:\n  slurmSpec:\n")
	b.WriteString("    homeDirectoryStorage: " + or(s.Home, defaultHome) + "\n")
	b.WriteString("    loginNodePoolId: login\n")
	if s.Default != "" {
		b.WriteString("    defaultPartitionId: " + s.Default + "\n")
	}
	b.WriteString("    partitions:\n" + indent(or(s.Partitions, defaultParts), "    "))
	if s.Config != "" {
		b.WriteString("    config:\n" + indent(s.Config, "      "))
	}
	if s.NodeSets != "" {
		b.WriteString("    nodeSets:\n" + indent(s.NodeSets, "    "))
	}
	if s.Prolog != "" {
		b.WriteString("    prologBashScripts:\n" + indent(s.Prolog, "    "))
	}
	if s.Epilog != "" {
		b.WriteString("    epilogBashScripts:\n" + indent(s.Epilog, "    "))
	}
	return b.String()
}

// stripMarkers removes the markers and returns the "line:col" of each.
func stripMarkers(text string) (string, []string) {
	var out strings.Builder
	var want []string
	for i, line := range strings.Split(text, "\n") {
		if i > 0 {
			out.WriteByte('\n')
		}
		for {
			j := strings.Index(line, marker)
			if j < 0 {
				break
			}
			want = append(want, fmt.Sprintf("%d:%d", i+1, len([]rune(line[:j]))+1))
			line = line[:j] + line[j+len(marker):]
		}
		out.WriteString(line)
	}
	return out.String(), want
}

// compile runs lint/pipeline's compile-only path (load, schema, compile)
// on a spec file's text, failing the test on any error: test specs must be
// valid up to lint.
func compile(t testing.TB, file, text string) *ir.Cluster {
	t.Helper()
	return compileAs(t, file, text, compiler.Identity{ClusterID: "c"})
}

// compileAs is compile with an explicit identity.
func compileAs(t testing.TB, file, text string, id compiler.Identity) *ir.Cluster {
	t.Helper()
	sch, err := compiledSchema()
	if err != nil {
		t.Fatal(err)
	}
	c, l, err := pipeline.Compile(sch, file, []byte(text), load.FormatAuto, id)
	if err != nil {
		t.Fatalf("spec does not pass the schema or does not compile: %v\n%s\n%s", err, l, numbered(text))
	}
	return c
}

// schemaRejects reports whether lint/pipeline stops a spec file's text
// before it compiles: the loader or the schema refuses it.
func schemaRejects(t *testing.T, file, text string) bool {
	t.Helper()
	sch, err := compiledSchema()
	if err != nil {
		t.Fatal(err)
	}
	p, err := pipeline.New(pipeline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.Analyse(pipeline.Bytes(file, []byte(text)), pipeline.AnalyseOptions{Schema: sch, Settings: &pipeline.Settings{}})
	if err != nil {
		t.Fatal(err)
	}
	return r.Cluster == nil
}

func numbered(text string) string {
	var b strings.Builder
	for i, l := range strings.Split(text, "\n") {
		fmt.Fprintf(&b, "%3d  %s\n", i+1, l)
	}
	return b.String()
}

// lintText runs every rule on a spec file's text.
func lintText(t *testing.T, file, text, version string) diag.List {
	t.Helper()
	c := compile(t, file, text)
	return lint.Run(c, rules.All(), lint.Config{Options: lint.Options{SlurmVersion: version}}).Sort()
}

// positions returns the "line:col" of each diagnostic of a rule, sorted.
func positions(l diag.List, rule string) []string {
	var out []string
	for _, d := range l {
		if d.Rule == rule {
			out = append(out, filePrefix(d.Pos.File)+fmt.Sprintf("%d:%d", d.Pos.Line, d.Pos.Col))
		}
	}
	sort.Strings(out)
	return out
}

func show(l diag.List, rule string) string {
	var b strings.Builder
	for _, d := range l {
		if rule == "" || d.Rule == rule {
			fmt.Fprintf(&b, "  %s | %s | hint: %s\n", d, d.Path, d.Hint)
		}
	}
	return b.String()
}
