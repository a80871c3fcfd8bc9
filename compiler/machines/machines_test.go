package machines

import "testing"

func TestEmbeddedCatalogParses(t *testing.T) {
	c, err := Parse(tsv)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Types()) < 50 {
		t.Fatalf("only %d machine types parsed", len(c.Types()))
	}
}

func TestA4Facts(t *testing.T) {
	m, ok := Default().Lookup("a4-highgpu-8g")
	if !ok {
		t.Fatal("a4-highgpu-8g missing")
	}
	if m.VCPUs != 224 || m.MemoryGiB != 3968 || m.GPUModel != "b200" || m.GPUCount != 8 {
		t.Errorf("a4-highgpu-8g = %+v", m)
	}
	// 3968 GiB = 4063232 MiB; minus 400 + 30*3968.
	if got, want := m.RealMemoryMiB(), 4063232-(400+30*3968); got != want {
		t.Errorf("RealMemoryMiB = %d, want %d", got, want)
	}
	if listed, confirmed := Supports(m.BootDisks, "hyperdisk-balanced"); !listed || !confirmed {
		t.Errorf("a4 boot disks = %v", m.BootDisks)
	}
	if listed, _ := Supports(m.BootDisks, "pd-standard"); listed {
		t.Errorf("a4 should not list pd-standard: %v", m.BootDisks)
	}
}

func TestUncertainAndFractional(t *testing.T) {
	c := Default()
	a3, _ := c.Lookup("a3-megagpu-8g")
	if listed, confirmed := Supports(a3.BootDisks, "hyperdisk-balanced"); !listed || confirmed {
		t.Errorf("a3-mega hyperdisk-balanced should be listed but unconfirmed: %v", a3.BootDisks)
	}
	g4, _ := c.Lookup("g4-standard-6")
	if _, whole := g4.WholeGPUs(); whole {
		t.Errorf("g4-standard-6 has 1/8 GPU, WholeGPUs should say not whole")
	}
	n2, _ := c.Lookup("n2-standard-8")
	if n2.HasGPU() || n2.VCPUs != 8 || n2.MemoryGiB != 32 {
		t.Errorf("n2-standard-8 = %+v", n2)
	}
	lowmem, _ := c.Lookup("a4-highgpu-8g-lowmem")
	if lowmem.VCPUs != 0 || lowmem.RealMemoryMiB() != 0 || lowmem.Provisioning != nil {
		t.Errorf("unknown cells should be zero/nil: %+v", lowmem)
	}
}

func TestParseRejectsBadInput(t *testing.T) {
	for name, in := range map[string]string{
		"empty":          "",
		"missing column": "machine_type\tseries\nx\ty\n",
		"bad number":     "machine_type\tseries\tvcpus\tmemory_gib\tgpu_model\tgpu_count\tsupported_boot_disk_types\tprovisioning_models\tnotes\nx\ts\tmany\t1\tnone\t0\tpd-ssd\tSPOT\t\n",
	} {
		if _, err := Parse(in); err == nil {
			t.Errorf("%s: Parse succeeded", name)
		}
	}
}
