package rules

import (
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/ir"
)

// TestUnknownNodes: SuspendExcNodes is read with compiler/hostlist, its
// budget shared by the value's lists.
func TestUnknownNodes(t *testing.T) {
	c := &ir.Cluster{ID: ir.Str{Value: "c"}, NodePools: []*ir.NodePool{
		{ID: ir.Str{Value: "cpu"}, MaxNodeCount: ir.Int{Value: 3}},
		{ID: ir.Str{Value: "login"}, MaxNodeCount: ir.Int{Value: 1}},
	}}
	c.Slurm.LoginNodePoolID = ir.Str{Value: "login"}
	for value, want := range map[string]string{
		"c-cpu-[0-2]":             "",
		"c-cpu-[0-1]:1,c-cpu-2:1": "",
		"c-cpu-[00-01],c-cpu-3":   "c-cpu-00 c-cpu-01 c-cpu-3",
		"c-login-0,x[1-2]y":       "c-login-0 x1y x2y",
		"c-cpu-[0-1":              `error: host list "c-cpu-[0-1": unbalanced brackets`,
		"c-cpu-[2-1]":             `error: host list "c-cpu-[2-1]": range "2-1" runs backwards`,
		"c-cpu-[0-1]:x":           `error: "x" is not a node count`,
		"c-cpu-[0-65536]":         `error: host list "c-cpu-[0-65536]" is too long to check`,
		// The budget is shared: each list fits, not both.
		"a[0-40000]:1,b[0-40000]": `error: host list "b[0-40000]" is too long to check`,
	} {
		bad, err := unknownNodes(c, value)
		got := strings.Join(bad, " ")
		if err != nil {
			got = "error: " + err.Error()
		}
		if want == "" && got != "" || !strings.Contains(got, want) || want != "" && got == "" {
			t.Errorf("unknownNodes(%q) = %q, want %q", value, got, want)
		}
	}
}
