package importconf

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// FuzzImport: whatever slurm.conf and gres.conf it is given, the import
// returns an error or a spec that is valid UTF-8 YAML with a head comment,
// never panics, and stays within its bounds (a small host budget keeps
// each run fast).
func FuzzImport(f *testing.F) {
	confs, _ := filepath.Glob("../../testdata/slurmconf/*/slurm.conf")
	for _, p := range confs {
		data, err := os.ReadFile(p)
		if err != nil || len(data) >= 8<<10 {
			continue
		}
		gres, _ := os.ReadFile(filepath.Join(filepath.Dir(p), "gres.conf"))
		f.Add(data, gres)
	}
	f.Add([]byte("NodeName=n[1-2] CPUs=2 \\\n RealMemory=3000\nPartitionName=p Nodes=n[1-2] MaxTime=24:00:00\nSuspendExcNodes=n1\n"), []byte(nil))
	f.Add([]byte("NodeName=g[1-4] CPUs=12 RealMemory=47000 Gres=gpu:1 Features=caf\xe9\nPartitionName=p Nodes=g[1-4]\n"), []byte("NodeName=g[1-2] Name=gpu Type=l4 File=/dev/nvidia0\nNodeName=g[3-4] Name=gpu Type=t\xe94\n"))
	f.Fuzz(func(t *testing.T, conf, gres []byte) {
		spec, notes, err := Import(conf, gres, Options{MaxHosts: 4096})
		if err != nil {
			return
		}
		if !utf8.Valid(spec) {
			t.Fatalf("the spec is not UTF-8:\n%q", spec)
		}
		var doc yaml.Node
		if err := yaml.Unmarshal(spec, &doc); err != nil {
			t.Fatalf("the spec is not YAML: %v\n%s", err, spec)
		}
		if !strings.HasPrefix(string(spec), "# Imported from slurm.conf") {
			t.Fatalf("no head comment:\n%s", spec)
		}
		for _, n := range notes {
			if strings.ContainsAny(n.Message, "\n\r") {
				t.Fatalf("a note spans lines: %q", n.Message)
			}
		}
	})
}
