package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestInstallByVersion is the README's `go install
// github.com/slurmspec/slurmspec/cmd/slurmspec@VERSION` with the real go
// command, offline: this checkout's root module is served as v0.9.9 by a
// file proxy (the module zip as the go command builds it: the nested
// helper modules left out), the dependencies from this machine's module
// cache (no checksum database: this test runs offline). The installed
// binary must report v0.9.9. TestReleaseRehearsal does the same from a
// tagged clone, and by commit. It builds as cacheFriendly says.
func TestInstallByVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds slurmspec")
	}
	const (
		path    = "github.com/slurmspec/slurmspec"
		version = "v0.9.9"
	)
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	files := copyTracked(t, repo, src)
	writeModuleProxy(t, filepath.Join(dir, "proxy"), src, files, path, version, "2026-12-01T00:00:00Z")

	bin := filepath.Join(dir, "bin")
	cmd := exec.Command("go", "install", path+"/cmd/slurmspec@"+version)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), cacheFriendly...),
		"GOBIN="+bin,
		"GOMODCACHE="+filepath.Join(dir, "modcache"),
		"GOPROXY=file://"+filepath.ToSlash(filepath.Join(dir, "proxy"))+",file://"+filepath.ToSlash(filepath.Join(goEnv(t, "GOMODCACHE"), "cache", "download")),
		"GOSUMDB=off", "GONOPROXY=", "GOPRIVATE=", "GOFLAGS=-modcacherw "+cacheFriendlyFlags, "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go install %s/cmd/slurmspec@%s: %v\n%s", path, version, err, out)
	}
	got, err := exec.Command(filepath.Join(bin, "slurmspec"), "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "slurmspec "+version+"\n" {
		t.Errorf("slurmspec version: %q, want %q", got, "slurmspec "+version+"\n")
	}
}
