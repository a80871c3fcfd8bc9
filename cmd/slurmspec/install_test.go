package main

import (
	"archive/zip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestInstallByVersion is the README's `go install
// github.com/slurmspec/slurmspec/cmd/slurmspec@v0.1.0` with the real go
// command, offline: this checkout's root module is served as v0.9.9 by a
// file proxy (the module zip as the go command builds it: the nested
// helper modules left out), the dependencies from this machine's module
// cache (no checksum database: this test runs offline). The installed
// binary must report v0.9.9.
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
	goEnv := func(key string) string {
		out, err := exec.Command("go", "env", key).Output()
		if err != nil {
			t.Fatalf("go env %s: %v", key, err)
		}
		return strings.TrimSpace(string(out))
	}
	dir := t.TempDir()
	proxy := filepath.Join(dir, "proxy", filepath.FromSlash(path), "@v")
	if err := os.MkdirAll(proxy, 0o755); err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(repo, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, data string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(proxy, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("list", version+"\n")
	write(version+".info", `{"Version":"`+version+`","Time":"2026-12-01T00:00:00Z"}`)
	write(version+".mod", string(gomod))

	// The zip: every tracked file of the root module, not those of a
	// directory with its own go.mod.
	out, err := exec.Command("git", "-C", repo, "ls-files", "--cached").Output()
	if err != nil {
		t.Fatal(err)
	}
	var nested []string
	files := strings.Fields(string(out))
	for _, f := range files {
		if strings.HasSuffix(f, "/go.mod") {
			nested = append(nested, strings.TrimSuffix(f, "go.mod"))
		}
	}
	if len(nested) < 4 {
		t.Fatalf("nested modules %q; want the helpers'", nested)
	}
	zf, err := os.Create(filepath.Join(proxy, version+".zip"))
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(zf)
files:
	for _, f := range files {
		for _, n := range nested {
			if strings.HasPrefix(f, n) {
				continue files
			}
		}
		data, err := os.ReadFile(filepath.Join(repo, f))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		w, err := zw.Create(path + "@" + version + "/" + f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(data); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zf.Close(); err != nil {
		t.Fatal(err)
	}

	bin := filepath.Join(dir, "bin")
	cmd := exec.Command("go", "install", path+"/cmd/slurmspec@"+version)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"GOBIN="+bin,
		"GOMODCACHE="+filepath.Join(dir, "modcache"),
		"GOPROXY=file://"+filepath.ToSlash(filepath.Join(dir, "proxy"))+",file://"+filepath.ToSlash(filepath.Join(goEnv("GOMODCACHE"), "cache", "download")),
		"GOSUMDB=off", "GONOPROXY=", "GOPRIVATE=", "GOFLAGS=-modcacherw", "GOWORK=off")
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
