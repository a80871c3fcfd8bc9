package localslurm

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNodeGroups(t *testing.T) {
	dir := t.TempDir()
	conf := `ClusterName=train
SlurmctldHost=train-controller
NodeName=DEFAULT Gres=gpu:b200:8
NodeName=train-a4-[0-1] CPUs=224
NodeName=train-a4-[2-3] CPUs=224 State=CLOUD
NodeName=train-cpu-0 CPUs=8 Gres=(null)
NodeSet=a4 Nodes=train-a4-[0-3]
NodeSet=cpu Nodes=train-cpu-0
NodeSet=fast Feature=fast
PartitionName=train Nodes=a4,cpu Default=YES
`
	if err := os.WriteFile(filepath.Join(dir, "slurm.conf"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := NodeGroups(dir)
	if err != nil {
		t.Fatal(err)
	}
	b200 := "gpu:b200:8"
	want := []NodeGroup{
		{Name: "a4", Nodes: []string{"train-a4-0", "train-a4-1", "train-a4-2", "train-a4-3"}, Cloud: []string{"train-a4-2", "train-a4-3"},
			Gres: map[string]string{"train-a4-0": b200, "train-a4-1": b200, "train-a4-2": b200, "train-a4-3": b200}},
		{Name: "cpu", Nodes: []string{"train-cpu-0"}, Gres: map[string]string{"train-cpu-0": "(null)"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("NodeGroups (-want +got):\n%s", diff)
	}

	// Without NodeSet lines, each NodeName line is a group.
	if err := os.WriteFile(filepath.Join(dir, "slurm.conf"), []byte("SlurmctldHost=c\nNodeName=n[1-2] State=CLOUD\nNodeName=m1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err = NodeGroups(dir)
	if err != nil {
		t.Fatal(err)
	}
	want = []NodeGroup{
		{Name: "n[1-2]", Nodes: []string{"n1", "n2"}, Cloud: []string{"n1", "n2"}, Gres: map[string]string{"n1": "", "n2": ""}},
		{Name: "m1", Nodes: []string{"m1"}, Gres: map[string]string{"m1": ""}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("NodeGroups without NodeSet (-want +got):\n%s", diff)
	}
	if _, err := NodeGroups(t.TempDir()); err == nil {
		t.Error("NodeGroups of a directory without slurm.conf: no error")
	}
}
