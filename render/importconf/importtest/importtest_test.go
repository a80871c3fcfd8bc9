package importtest

import (
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/machines"
)

func TestDecideFirst(t *testing.T) {
	spec := "# pool: TODO-cpus-64-mem-257000 stays in comments\n" +
		"  - id: a\n    machineSpec:\n      machineType: TODO-cpus-64-mem-257000 # TODO\n" +
		"  - id: g\n    machineSpec:\n      machineType: TODO-cpus-96-mem-unknown-gpus-8-nvidia-a100\n    provisioningModel: TODO-choose-ON_DEMAND-or-SPOT\n" +
		"  - id: t\n    machineSpec:\n      machineType: TODO-choose-a3-highgpu-8g-or-a3-megagpu-8g\n" +
		"  - id: login\n    machineSpec:\n      machineType: TODO-choose-login-machine-type\n"
	out, err := DecideFirst([]byte(spec))
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	if !strings.HasPrefix(got, "# pool: TODO-cpus-64-mem-257000 stays") || strings.Count(got, "TODO-") != 1 {
		t.Errorf("placeholders left, or a comment changed:\n%s", got)
	}
	cat := machines.Default()
	for _, l := range strings.Split(got, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "machineType: "); ok {
			if _, known := cat.Lookup(v); !known {
				t.Errorf("machineType %q is not in the catalog", v)
			}
		}
	}
	for _, w := range []string{"provisioningModel: SPOT\n", "machineType: a3-highgpu-8g\n", "machineType: " + LoginMachineType + "\n"} {
		if !strings.Contains(got, w) {
			t.Errorf("no %q in\n%s", w, got)
		}
	}
	if m, _ := cat.Lookup(strings.TrimSpace(strings.SplitAfter(strings.Split(got, "machineType: ")[2], "\n")[0])); m == nil || m.GPUModel != "a100" {
		t.Errorf("the GPU placeholder did not get an A100 type:\n%s", got)
	}
	if _, err := DecideFirst([]byte("x: TODO-something-else\n")); err == nil {
		t.Error("an unknown placeholder was accepted")
	}
}
