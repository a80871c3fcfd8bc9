package importconf

import (
	"os"
	"path/filepath"
	"strings"
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

// Without --scripts-dir, Prolog= and Epilog= programs are read from the
// files of the same names in the include directory, in the order of a
// comma-separated list; one that is not there is a note.
func TestImportScriptsFromIncludeDir(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"prolog.sh": "#!/bin/bash\necho first\n", "second.sh": "#!/bin/bash\necho second\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	conf := "ClusterName=a\nProlog=/etc/slurm/prolog.sh,/etc/slurm/second.sh\nEpilog=/etc/slurm/epilog.sh\nNodeName=a-c-0 CPUs=16 RealMemory=63216\nPartitionName=p Nodes=a-c-0\n"
	spec, notes, err := Import([]byte(conf), nil, Options{IncludeDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		OrchestratorSpec struct {
			SlurmSpec struct {
				Prolog []string `yaml:"prologBashScripts"`
				Epilog []string `yaml:"epilogBashScripts"`
			} `yaml:"slurmSpec"`
		} `yaml:"orchestratorSpec"`
	}
	if err := yaml.Unmarshal(spec, &back); err != nil {
		t.Fatalf("the spec does not read back: %v\n%s", err, spec)
	}
	s := back.OrchestratorSpec.SlurmSpec
	if len(s.Prolog) != 2 || s.Prolog[0] != "#!/bin/bash\necho first\n" || s.Prolog[1] != "#!/bin/bash\necho second\n" || len(s.Epilog) != 0 {
		t.Errorf("prologBashScripts %q, epilogBashScripts %q:\n%s", s.Prolog, s.Epilog, spec)
	}
	want := map[string]NoteKind{
		"Prolog=/etc/slurm/prolog.sh,/etc/slurm/second.sh: 2 scripts read from " + filepath.Join(dir, "prolog.sh") + ", " + filepath.Join(dir, "second.sh") + " into prologBashScripts": NoteChoice,
		"Epilog=/etc/slurm/epilog.sh: epilog.sh is not in the include directory " + dir + "; put its text into epilogBashScripts":                                                       NoteInfo,
	}
	for _, n := range notes {
		for w, kind := range want {
			if strings.HasPrefix(n.Message, w) && n.Kind == kind {
				delete(want, w)
			}
		}
	}
	for w := range want {
		t.Errorf("no note %q in %v", w, notes)
	}
}

// The scripts a Prolog= list names count together as one input: one
// large file named over and over is read until MaxInputBytes, then noted,
// not read 256 times (4 GiB); a scripts directory the same.
func TestImportedScriptsAreBoundTogether(t *testing.T) {
	dir := t.TempDir()
	big := "#!/bin/bash\n" + strings.Repeat("# filler\n", (MaxInputBytes/2)/9)
	if err := os.WriteFile(filepath.Join(dir, "big.sh"), []byte(big), 0o755); err != nil {
		t.Fatal(err)
	}
	conf := "ClusterName=a\nProlog=" + strings.TrimSuffix(strings.Repeat("/etc/slurm/big.sh,", 200), ",") + "\nNodeName=a-c-0 CPUs=16 RealMemory=63216\nPartitionName=p Nodes=a-c-0\n"
	spec, notes, err := Import([]byte(conf), nil, Options{IncludeDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(spec) > 2*MaxInputBytes {
		t.Errorf("the spec holds %d bytes of scripts", len(spec))
	}
	found := false
	for _, n := range notes {
		found = found || strings.Contains(n.Message, "take more than 16777216 bytes together")
	}
	if !found {
		t.Errorf("no note about the scripts' total size in %v", notes)
	}

	sd := t.TempDir()
	if err := os.MkdirAll(filepath.Join(sd, "prolog.d"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a.sh", "b.sh", "c.sh"} {
		if err := os.WriteFile(filepath.Join(sd, "prolog.d", name), []byte(big), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	conf = "ClusterName=a\nProlog=/etc/slurm/prolog.d/*\nNodeName=a-c-0 CPUs=16 RealMemory=63216\nPartitionName=p Nodes=a-c-0\n"
	if _, _, err := Import([]byte(conf), nil, Options{ScriptsDir: sd}); err == nil || !strings.Contains(err.Error(), "together") {
		t.Errorf("a scripts directory of 24 MiB: %v", err)
	}
}
