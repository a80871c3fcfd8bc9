package dispatch_test

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/lint/online"
	"github.com/slurmspec/slurmspec/lint/online/dispatch"
)

// findEnv makes the test binary print Find's answer and exit: the test
// runs a copy of itself, so that the running executable has a directory
// of the test's choosing.
const findEnv = "SLURMSPEC_TEST_DISPATCH_FIND"

func TestMain(m *testing.M) {
	if os.Getenv(findEnv) == "1" {
		p, err := dispatch.Find()
		fmt.Println(p, err)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestFindPassesOverAFileThatCannotRun: a slurmspec-online next to
// slurmspec that lost its execute bit (an archive unpacked without modes)
// is passed over for the one on PATH, as slurmspec-deploy's finder always
// did (compiler/helperbin), rather than found and then refused.
func TestFindPassesOverAFileThatCannotRun(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin, path := t.TempDir(), t.TempDir()
	exe := filepath.Join(bin, "slurmspec")
	copyFile(t, self, exe, 0o755)
	if err := os.WriteFile(filepath.Join(bin, online.HelperName), []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(path, online.HelperName)
	if err := os.WriteFile(want, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), findEnv+"=1", "PATH="+path)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(out)); got != want+" <nil>" {
		t.Errorf("Find: %s; want %s", got, want)
	}
}

func copyFile(t *testing.T, from, to string, mode os.FileMode) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_EXCL, mode)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
