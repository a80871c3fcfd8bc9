package realslurm

import "testing"

// TestSameValue pins the value mapping between slurm.conf and scontrol
// show (see sameValue); it needs no Slurm.
func TestSameValue(t *testing.T) {
	for _, tt := range []struct {
		want, got string
		same      bool
	}{
		{"CR_Core_Memory", "CR_CORE_MEMORY", true},
		{"00:10:00", "00:10:00", true},
		{"10", "00:10:00", true},
		{"7-00:00:00", "7-00:00:00", true},
		{"2-0", "2-00:00:00", true},
		{"INFINITE", "UNLIMITED", true},
		{"300", "300 sec", true},
		{"root", "root(0)", true},
		{"qos,associations,limits", "associations,limits,qos", true},
		{"1000", "1000", true},
		{"00:10:00", "00:00:01", false},
		{"10", "1", false},
		{"gpu:b200:8", "(null)", false},
		{"associations,limits,qos", "associations,limits", false},
		{"REQUEUE", "OFF", false},
	} {
		if got := sameValue(tt.want, tt.got); got != tt.same {
			t.Errorf("sameValue(%q, %q) = %v, want %v", tt.want, tt.got, got, tt.same)
		}
	}
	if m, ok := tresMemMiB("cpu=896,mem=11460.50G,node=4"); !ok || m != 11735552 {
		t.Errorf("tresMemMiB = %v, %v; want 11735552", m, ok)
	}
}
