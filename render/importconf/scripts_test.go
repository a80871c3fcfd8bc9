package importconf

import (
	"os"
	"path/filepath"
	"testing"

	"go.yaml.in/yaml/v3"
)

// Scripts that start with a tab (or a blank, or hold CR) are written so
// that the spec reads back to the same text (a tab-led literal block did
// not parse).
func TestImportedScriptsReadBack(t *testing.T) {
	for _, script := range []string{"\t#!/bin/bash\necho hi\n", "#!/bin/bash\n\techo hi\n", "\techo\n\n\n", " x\r\n"} {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, "prolog.d"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "prolog.d", "a.sh"), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		conf := "ClusterName=a\nProlog=/etc/slurm/prolog.d/*\nNodeName=a-c-0 CPUs=16 RealMemory=63216\nPartitionName=p Nodes=a-c-0\n"
		spec, _, err := Import([]byte(conf), nil, Options{ScriptsDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		var back struct {
			OrchestratorSpec struct {
				SlurmSpec struct {
					PrologBashScripts []string `yaml:"prologBashScripts"`
				} `yaml:"slurmSpec"`
			} `yaml:"orchestratorSpec"`
		}
		if err := yaml.Unmarshal(spec, &back); err != nil {
			t.Fatalf("%q: the spec does not read back: %v\n%s", script, err, spec)
		}
		if got := back.OrchestratorSpec.SlurmSpec.PrologBashScripts; len(got) != 1 || got[0] != script {
			t.Errorf("%q reads back as %q:\n%s", script, got, spec)
		}
	}
}
