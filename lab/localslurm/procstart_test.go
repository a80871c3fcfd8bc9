package localslurm

import (
	"os/exec"
	"testing"
)

// StartedAt reads the right field: a child started after a reading of
// uptime started after it, and this process started before it.
func TestStartedAt(t *testing.T) {
	before, ok := Uptime()
	if !ok {
		t.Fatal("no /proc/uptime")
	}
	cmd := exec.Command("sleep", "5")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	child, ok := StartedAt(cmd.Process.Pid)
	if !ok {
		t.Fatalf("StartedAt(%d) failed", cmd.Process.Pid)
	}
	// One clock tick of slack: the start time is in ticks.
	if child+1.0/clockTicks < before {
		t.Errorf("child started at %.2f s, before the uptime %.2f s read before starting it", child, before)
	}
	after, _ := Uptime()
	if child > after+1.0/clockTicks {
		t.Errorf("child started at %.2f s, after the uptime %.2f s read after starting it", child, after)
	}
	self, ok := StartedAt(1)
	if !ok || self > before {
		t.Errorf("pid 1 started at %.2f s (ok %v), want before %.2f s", self, ok, before)
	}
}
