package output

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// The data-loss tests: each runs a race many times and fails if it never
// hit the race.

// deadPID returns a process id that no process has.
func deadPID(t *testing.T) int {
	for pid := 700; pid < 1<<22; pid += 7919 {
		if syscall.Kill(pid, 0) == syscall.ESRCH {
			return pid
		}
	}
	t.Fatal("no free pid")
	return 0
}

// TestConcurrentNeighbourRenders renders into X in this process while a
// child renders into X-PID (PID of no process) in the same parent, many
// times: each must finish with its own complete set (#15.7). The render
// into X once took PID for a dead render's and deleted X-PID's live
// staging directory.
func TestConcurrentNeighbourRenders(t *testing.T) {
	if os.Getenv("SLURMSPEC_OUTPUT_CHILD") != "" {
		t.Skip("child process")
	}
	parent := t.TempDir()
	x := filepath.Join(parent, "X")
	neighbour := filepath.Join(parent, fmt.Sprintf("X-%d", deadPID(t)))
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestChildRenders$", "-test.count=1")
	cmd.Env = append(os.Environ(), "SLURMSPEC_OUTPUT_CHILD="+neighbour, "SLURMSPEC_OUTPUT_ROUNDS=60")
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var errs []error
	for i := range 60 {
		if err := Write(x, bigSet(fmt.Sprintf("x%d", i))); err != nil {
			errs = append(errs, err)
			continue
		}
		if tag := completeTag(t, x); tag != fmt.Sprintf("x%d", i) {
			t.Errorf("round %d: X holds %q", i, tag)
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("the render into %s failed: %v\n%s", filepath.Base(neighbour), err, stderr.String())
	}
	if len(errs) > 0 {
		t.Errorf("%d renders into X failed, first: %v", len(errs), errs[0])
	}
	entries, _ := os.ReadDir(parent)
	if len(entries) != 2 {
		t.Errorf("left next to the outputs: %v", entries)
	}
}

// TestChildRenders is the child of TestConcurrentNeighbourRenders.
func TestChildRenders(t *testing.T) {
	dir := os.Getenv("SLURMSPEC_OUTPUT_CHILD")
	if dir == "" || os.Getenv("SLURMSPEC_OUTPUT_ROUNDS") == "" {
		t.Skip("only run as the child of TestConcurrentNeighbourRenders")
	}
	for i := range 60 {
		tag := fmt.Sprintf("n%d", i)
		if err := Write(dir, bigSet(tag)); err != nil {
			t.Fatalf("round %d: %v", i, err)
		}
		if got := completeTag(t, dir); got != tag {
			t.Fatalf("round %d: holds %q", i, got)
		}
	}
}

// TestDirectoryCreatedDuringRenderSurvives creates a directory with a
// user's file at -o while a render into the absent path runs, many times
// at different moments: the file is never lost (#15.8).
func TestDirectoryCreatedDuringRenderSurvives(t *testing.T) {
	lost, failed := 0, 0
	start := time.Now()
	if err := Write(filepath.Join(t.TempDir(), "out"), bigSet("timing")); err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	for i := range 60 {
		out := filepath.Join(t.TempDir(), "out")
		type result struct {
			created bool
			err     error
		}
		done := make(chan result, 1)
		go func() {
			time.Sleep(took * time.Duration(i) / 50) // from the start to past the end
			if err := os.Mkdir(out, 0o755); err != nil {
				done <- result{} // the render came first: nothing of the user's at stake
				return
			}
			done <- result{true, os.WriteFile(filepath.Join(out, "user.txt"), []byte("mine"), 0o644)}
		}()
		err := Write(out, bigSet("new"))
		r := <-done
		if !r.created || r.err != nil {
			// Nothing created, or the user's write failed loudly.
			continue
		}
		if err != nil {
			failed++
		}
		if _, statErr := os.Stat(filepath.Join(out, "user.txt")); statErr != nil {
			lost++
		}
	}
	if lost > 0 {
		t.Errorf("the user's directory was swapped out and deleted in %d of 60 rounds", lost)
	}
	t.Logf("%d of 60 renders refused a directory that appeared while they ran", failed)
	if failed == 0 {
		t.Error("no directory appeared while a render ran; the test proved nothing")
	}
}

// TestFileAddedToOutputDuringRenderSurvives adds a file to an existing
// output directory while a render replaces it, many times: the render
// fails and puts the directory back instead of deleting the file (#15.8).
func TestFileAddedToOutputDuringRenderSurvives(t *testing.T) {
	lost, refused := 0, 0
	start := time.Now()
	if err := Write(filepath.Join(t.TempDir(), "out"), bigSet("timing")); err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	for i := range 60 {
		out := filepath.Join(t.TempDir(), "out")
		if err := Write(out, set("old")); err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			time.Sleep(took * time.Duration(i) / 50)
			_ = os.WriteFile(filepath.Join(out, "user.txt"), []byte("mine"), 0o644)
		}()
		err := Write(out, bigSet("new"))
		<-done
		if err != nil {
			refused++
		}
		_, statErr := os.Stat(filepath.Join(out, "user.txt"))
		if statErr != nil && err == nil {
			// Written after the exchange into the new directory is fine;
			// gone altogether is not.
			lost++
		}
	}
	if lost > 0 {
		t.Errorf("a file added during the render was deleted in %d of 60 rounds", lost)
	}
	t.Logf("%d of 60 renders found a file added while they ran and put the directory back", refused)
	if refused == 0 {
		t.Error("no file was added while a render ran; the test proved nothing")
	}
}
