package slurmconf_test

import (
	"os"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/render/slurmconf"
)

// FuzzParse: the slurm.conf reader never panics, and every line it accepts
// has at least one pair with a non-empty key.
func FuzzParse(f *testing.F) {
	f.Add([]byte("A=1\nNodeName=n[1-2] CPUs=2 # c\nPartitionName=p Nodes=n[1-2] Default=YES\n"))
	f.Add([]byte("B=\"x y\"\nC=a\\#b\n"))
	if data, err := os.ReadFile("../../lab/localslurm/testdata/basic/slurm.conf"); err == nil {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := slurmconf.Parse(data)
		if err != nil {
			return
		}
		lines := append(append(append(file.Nodes, file.NodeSets...), file.Partitions...), file.Other...)
		for _, l := range lines {
			if len(l.Pairs) == 0 || l.Pairs[0].Key == "" {
				t.Fatalf("empty line accepted: %+v", l)
			}
		}
		for _, p := range file.Global {
			if p.Key == "" || strings.ContainsAny(p.Key, " \t\n") {
				t.Fatalf("bad key accepted: %q", p.Key)
			}
		}
	})
}
