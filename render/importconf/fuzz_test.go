package importconf

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// FuzzImport: whatever slurm.conf it is given, the import returns an error
// or a spec that is valid YAML with a head comment, never panics, and
// stays within its bounds (a small host budget keeps each run fast).
func FuzzImport(f *testing.F) {
	confs, _ := filepath.Glob("../../testdata/slurmconf/*/slurm.conf")
	for _, p := range confs {
		if data, err := os.ReadFile(p); err == nil && len(data) < 8<<10 {
			f.Add(data)
		}
	}
	f.Add([]byte("NodeName=n[1-2] CPUs=2 \\\n RealMemory=3000\nPartitionName=p Nodes=n[1-2] MaxTime=24:00:00\nSuspendExcNodes=n1\n"))
	f.Fuzz(func(t *testing.T, conf []byte) {
		spec, notes, err := Import(conf, nil, Options{MaxHosts: 4096})
		if err != nil {
			return
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
