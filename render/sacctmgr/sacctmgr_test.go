package sacctmgr_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/render/sacctmgr"
	"github.com/slurmspec/slurmspec/schema/accounting"
)

func load(t *testing.T) *accounting.File {
	t.Helper()
	f, l := accounting.Load("testdata/teams.yaml")
	if f == nil {
		t.Fatalf("testdata/teams.yaml: %s", l)
	}
	return f
}

// TestScriptGolden pins the script of testdata/teams.yaml
// (SLURMSPEC_UPDATE=1 rewrites testdata/teams.apply.sh).
func TestScriptGolden(t *testing.T) {
	got := sacctmgr.Script(load(t))
	const golden = "testdata/teams.apply.sh"
	if os.Getenv("SLURMSPEC_UPDATE") != "" {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("script differs from %s:\n%s", golden, got)
	}
}

// TestOrder: QOS before accounts, each account after its parent, users
// after accounts, modifications last.
func TestOrder(t *testing.T) {
	s := string(sacctmgr.Script(load(t)))
	order := []string{"add qos scavenger", "add qos high", "add account research", "add account vision", "add user alice", "add user bob",
		"modify qos where name=scavenger", "modify qos where name=high", "modify account where name=research", "modify account where name=vision", "modify user where name=alice"}
	at := -1
	for _, o := range order {
		i := strings.Index(s, o)
		if i <= at {
			t.Fatalf("%q is not after the previous step:\n%s", o, s)
		}
		at = i
	}
	if !strings.Contains(s, "Description='Research teams (all)'") {
		t.Errorf("description not quoted as one word:\n%s", s)
	}
}

// TestIdempotent runs the script twice against a stand-in sacctmgr that
// answers as the real one does: the first run adds and sets everything,
// the second adds and modifies nothing and succeeds.
func TestIdempotent(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatal("no sh on PATH")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	db := filepath.Join(dir, "db")
	for _, d := range []string{bin, db} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	fake, err := os.ReadFile("testdata/fake-sacctmgr")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "sacctmgr"), fake, 0o755); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "apply.sh")
	if err := os.WriteFile(script, sacctmgr.Script(load(t)), 0o755); err != nil {
		t.Fatal(err)
	}
	run := func() string {
		if err := os.WriteFile(filepath.Join(db, "log"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(sh, script)
		cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "FAKE_DB="+db)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("apply.sh: %v\n%s", err, out)
		}
		log, err := os.ReadFile(filepath.Join(db, "log"))
		if err != nil {
			t.Fatal(err)
		}
		return string(log)
	}
	first := run()
	for _, want := range []string{"ADDED qos high", "ADDED account vision", "ADDED user alice", "MODIFIED qos high", "MODIFIED account research", "MODIFIED user bob"} {
		if !strings.Contains(first, want) {
			t.Errorf("first run: no %q in\n%s", want, first)
		}
	}
	second := run()
	if strings.Contains(second, "ADDED") || strings.Contains(second, "MODIFIED") {
		t.Errorf("second run changed the database:\n%s", second)
	}
}

// TestFailureStops: an error other than "nothing to do" fails the script.
func TestFailureStops(t *testing.T) {
	dir := t.TempDir()
	fake := "#!/bin/sh\necho ' Unknown QOS' >&2\nexit 1\n"
	if err := os.WriteFile(filepath.Join(dir, "sacctmgr"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "apply.sh")
	if err := os.WriteFile(script, sacctmgr.Script(load(t)), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sh", script)
	cmd.Env = append(os.Environ(), "PATH="+dir+":"+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "Unknown QOS") {
		t.Errorf("script did not fail on a sacctmgr error: %v\n%s", err, out)
	}
}
