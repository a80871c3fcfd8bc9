package main

import (
	"archive/zip"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// TestReleaseRehearsal rehearses docs/releasing.md in a temporary clone of
// this checkout: tag v0.9.9, `make release` for this machine's platform
// under GOFLAGS=-buildvcs=false, then check what a user gets. SHA256SUMS
// verifies with `sha256sum -c`; each of the three binaries in the archive
// prints "NAME v0.9.9" for --version (stamped at link time: the build
// records no VCS information). Then the README's routes: `go install
// …@v0.9.9` and `go install …@COMMIT` of the tagged commit from a file
// module proxy serving the tag (as the Go module proxy does: a commit
// with a tag resolves to it) report v0.9.9; `go install …@COMMIT` of a
// later, untagged commit, fetched from the clone with git as the go
// command fetches a repository (GONOPROXY, a git URL rewrite), reports the
// pseudo-version Go derives from the tag. The release and the installs run
// side by side (the later commit is made in a clone of the clone, so the
// release still builds the tagged commit). The dependencies come from this
// machine's module cache, offline; the build cache is shared, and the
// go install runs build as cacheFriendly says.
func TestReleaseRehearsal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the three binaries and installs slurmspec three times")
	}
	// Alongside the other tests that run processes; after
	// TestInstallByVersion (not parallel), whose v0.9.9 it installs again
	// from the build cache.
	t.Parallel()
	for _, tool := range []string{"git", "make", "sha256sum", "tar"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s", tool)
		}
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
	gitconfig := filepath.Join(dir, "gitconfig")
	env := append([]string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
		"GIT_CONFIG_GLOBAL=" + gitconfig, "GIT_CONFIG_NOSYSTEM=1", "GOWORK=off", "GOFLAGS=-buildvcs=false"}, cacheFriendly...)
	run := func(t *testing.T, wd string, extra []string, name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = wd
		cmd.Env = append(append(os.Environ(), env...), extra...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}

	// The clone: every tracked file (the helpers' modules too), committed
	// and tagged.
	src := filepath.Join(dir, "src")
	files := copyTracked(t, repo, src)
	run(t, src, nil, "git", "init", "-q")
	run(t, src, nil, "git", "add", "-A")
	run(t, src, nil, "git", "commit", "-q", "-m", "release "+version)
	run(t, src, nil, "git", "tag", "-a", version, "-m", version)
	rev := strings.TrimSpace(run(t, src, nil, "git", "rev-parse", "HEAD"))

	// A commit after the tag, as the README's pin before a release, in a
	// clone of the clone (so that the release below builds the tagged
	// commit while the installs run beside it).
	later := filepath.Join(dir, "later")
	run(t, dir, nil, "git", "clone", "-q", src, later)
	if err := os.WriteFile(filepath.Join(later, "AFTER"), []byte("after the release\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, later, nil, "git", "add", "AFTER")
	run(t, later, nil, "git", "commit", "-q", "-m", "after the release")
	next := strings.TrimSpace(run(t, later, nil, "git", "rev-parse", "HEAD"))
	rewrite := filepath.Join(dir, "gitconfig-rewrite")
	if err := os.WriteFile(rewrite, []byte("[url \""+later+"\"]\n\tinsteadOf = https://"+path+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	// The release and the installs share nothing but the tagged clone,
	// which both only read: they run side by side.
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		t.Run("release", func(t *testing.T) {
			// The release, for this platform only (the four take minutes).
			platform := runtime.GOOS + "_" + runtime.GOARCH
			dist := filepath.Join(dir, "dist")
			run(t, src, nil, "make", "release", "VERSION="+version, "PLATFORMS="+runtime.GOOS+"/"+runtime.GOARCH, "DIST="+dist)
			sums := run(t, dist, nil, "sha256sum", "-c", "SHA256SUMS")
			archive := "slurmspec_" + version + "_" + platform + ".tar.gz"
			if strings.TrimSpace(sums) != archive+": OK" {
				t.Errorf("sha256sum -c SHA256SUMS:\n%s\nwant %s: OK", sums, archive)
			}
			run(t, dist, nil, "tar", "-xzf", archive)
			for _, bin := range []string{"slurmspec", "slurmspec-online", "slurmspec-deploy"} {
				got := run(t, dist, nil, filepath.Join(dist, "slurmspec_"+version+"_"+platform, bin), "--version")
				if want := bin + " " + version + "\n"; got != want {
					t.Errorf("%s --version from the release: %q, want %q", bin, got, want)
				}
			}
			// The release refuses an untagged or mistagged commit.
			cmd := exec.Command("make", "release", "VERSION=v0.9.8", "PLATFORMS=linux/amd64", "DIST="+filepath.Join(dir, "dist2"))
			cmd.Dir = src
			cmd.Env = append(os.Environ(), env...)
			if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "HEAD is not tagged v0.9.8") {
				t.Errorf("make release VERSION=v0.9.8 at a commit tagged v0.9.9: %v\n%s", err, out)
			}
		})
	}()
	go func() {
		defer wg.Done()
		t.Run("install", func(t *testing.T) {
			// go install from a file module proxy serving the tag; the
			// tagged commit resolves to it.
			proxy := filepath.Join(dir, "proxy")
			writeModuleProxy(t, proxy, src, files, path, version, "2026-12-01T00:00:00Z")
			at := filepath.Join(proxy, filepath.FromSlash(path), "@v")
			for _, r := range []string{rev, rev[:12]} {
				if err := os.WriteFile(filepath.Join(at, r+".info"), []byte(`{"Version":"`+version+`","Time":"2026-12-01T00:00:00Z"}`), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			modcache := filepath.Join(dir, "modcache")
			deps := "file://" + filepath.ToSlash(filepath.Join(goEnv(t, "GOMODCACHE"), "cache", "download"))
			install := func(query string, extra ...string) string {
				t.Helper()
				bin := filepath.Join(dir, "bin")
				run(t, dir, append([]string{"GOBIN=" + bin, "GOMODCACHE=" + modcache, "GOSUMDB=off", "GOPRIVATE=",
					"GOFLAGS=-modcacherw " + cacheFriendlyFlags, "GOPROXY=file://" + filepath.ToSlash(proxy) + "," + deps}, extra...),
					"go", "install", path+"/cmd/slurmspec@"+query)
				return strings.TrimSpace(run(t, dir, nil, filepath.Join(bin, "slurmspec"), "version"))
			}
			for _, q := range []string{version, rev} {
				if got, want := install(q), "slurmspec "+version; got != want {
					t.Errorf("go install …@%s from the proxy: %q, want %q", q, got, want)
				}
			}

			// The later commit: the go command fetches it from the
			// repository (here the clone, by a URL rewrite) and names it by
			// a pseudo-version.
			pseudo := regexp.MustCompile(`^slurmspec v0\.9\.10-0\.\d{14}-` + next[:12] + `$`)
			if got := install(next, "GONOPROXY="+path, "GIT_CONFIG_GLOBAL="+rewrite); !pseudo.MatchString(got) {
				t.Errorf("go install …@%s (a commit after the tag): %q, want %s", next, got, pseudo)
			}
		})
	}()
	wg.Wait()
}

// copyTracked copies the tracked files of the checkout repo as they are in
// its working tree (a file deleted there is left out) into dst, and
// returns their slash-separated paths.
func copyTracked(t *testing.T, repo, dst string) []string {
	t.Helper()
	out, err := exec.Command("git", "-C", repo, "ls-files", "--cached").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	var files []string
	for _, f := range strings.Fields(string(out)) {
		info, err := os.Stat(filepath.Join(repo, f))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(repo, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dst, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, f), data, info.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

// writeModuleProxy lays out, under root, a file module proxy (GOPROXY=file://
// root) serving the root module of the checkout src at version: the list,
// .info, .mod and the module zip as the go command builds it (every file
// of files but those of a directory with its own go.mod: the helpers'
// nested modules).
func writeModuleProxy(t *testing.T, root, src string, files []string, path, version, time string) {
	t.Helper()
	at := filepath.Join(root, filepath.FromSlash(path), "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(src, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{
		"list":            version + "\n",
		version + ".info": `{"Version":"` + version + `","Time":"` + time + `"}`,
		version + ".mod":  string(gomod),
	} {
		if err := os.WriteFile(filepath.Join(at, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var nested []string
	for _, f := range files {
		if strings.HasSuffix(f, "/go.mod") {
			nested = append(nested, strings.TrimSuffix(f, "go.mod"))
		}
	}
	if len(nested) < 4 {
		t.Fatalf("nested modules %q; want the helpers'", nested)
	}
	zf, err := os.Create(filepath.Join(at, version+".zip"))
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
		data, err := os.ReadFile(filepath.Join(src, f))
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
}

// cacheFriendly are the build settings of the tests that build a copy of
// this checkout (another directory, another module cache) with the real go
// command. -trimpath leaves the directory a package is compiled in out of
// the package's build cache key: without it, every package of the copy,
// and every dependency unpacked into a fresh module cache, was compiled
// again on every run (the directories are temporary). CGO_ENABLED=0 is
// what `make release` builds with (.ci/release.sh), so the tests share
// those packages too. Neither changes what the tests check: the go
// command records the module's version and the VCS revision the same way.
var cacheFriendly = []string{"CGO_ENABLED=0"}

// cacheFriendlyFlags go into GOFLAGS with cacheFriendly.
const cacheFriendlyFlags = "-trimpath"

// goEnv is `go env key`.
func goEnv(t *testing.T, key string) string {
	t.Helper()
	out, err := exec.Command("go", "env", key).Output()
	if err != nil {
		t.Fatalf("go env %s: %v", key, err)
	}
	return strings.TrimSpace(string(out))
}

// TestReadmeInstallsReleasedVersions: every version README.md tells a user
// to install (`go install …@vX.Y.Z`, `@latest`, pre-commit's `rev:
// vX.Y.Z`, `git checkout vX.Y.Z`) exists: it has a release section in CHANGELOG.md (`## [X.Y.Z]`,
// docs/releasing.md). Before the first release the README pins commits.
func TestReadmeInstallsReleasedVersions(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	changelog, err := os.ReadFile("../../CHANGELOG.md")
	if err != nil {
		t.Fatal(err)
	}
	released := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^## \[(\d+\.\d+\.\d+[^\]]*)\]`).FindAllStringSubmatch(string(changelog), -1) {
		released["v"+m[1]] = true
	}
	route := regexp.MustCompile(`@(v\d+\.\d+\.\d+[0-9A-Za-z.+-]*|latest)\b|\b(?:rev:|git checkout) (v\d+\.\d+\.\d+[0-9A-Za-z.+-]*)`)
	for i, line := range strings.Split(string(readme), "\n") {
		for _, m := range route.FindAllStringSubmatch(line, -1) {
			v := m[1] + m[2]
			if v == "latest" && len(released) == 0 {
				t.Errorf("README.md:%d: @latest, but no release exists (CHANGELOG.md has no release section): %s", i+1, strings.TrimSpace(line))
			} else if v != "latest" && !released[v] {
				t.Errorf("README.md:%d: %s is not a release (no section in CHANGELOG.md): %s", i+1, v, strings.TrimSpace(line))
			}
		}
	}
}

// TestReadmePreCommitPin follows the README's pre-commit set-up with the
// real pre-commit, in a repository whose history has no tag (as the
// project's before its first release): its .pre-commit-config.yaml, the
// first YAML block after the "## pre-commit" heading with the repository
// URL pointing to a local git repository holding .pre-commit-hooks.yaml,
// then `pre-commit autoupdate --bleeding-edge` as the README says. rev must
// become that repository's commit (full SHA), and both hooks must still be
// found at it.
func TestReadmePreCommitPin(t *testing.T) {
	if _, err := exec.LookPath("pre-commit"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("pre-commit is not installed (apt-get install pre-commit)")
		}
		t.Skip("pre-commit is not installed (apt-get install pre-commit)")
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n## pre-commit\n")
	if !ok {
		t.Fatal("README.md has no ## pre-commit section")
	}
	_, block, ok := strings.Cut(section, "```yaml\n")
	block, _, ok2 := strings.Cut(block, "```")
	if !ok || !ok2 || !strings.Contains(block, "repo: https://github.com/slurmspec/slurmspec\n") {
		t.Fatalf("README.md, pre-commit: no YAML block with the repository:\n%s", block)
	}
	if !strings.Contains(section, "pre-commit autoupdate --bleeding-edge") {
		t.Error("README.md, pre-commit: does not say `pre-commit autoupdate --bleeding-edge`")
	}
	hooksYAML, err := os.ReadFile("../../.pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	env := []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1", "PRE_COMMIT_HOME=" + filepath.Join(dir, "cache")}
	run := func(wd string, name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = wd
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	hooks, user := filepath.Join(dir, "hooks"), filepath.Join(dir, "user")
	config := strings.Replace(block, "https://github.com/slurmspec/slurmspec", hooks, 1)
	for path, data := range map[string]string{
		filepath.Join(hooks, ".pre-commit-hooks.yaml"): string(hooksYAML),
		filepath.Join(user, ".pre-commit-config.yaml"): config,
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, repo := range []string{hooks, user} {
		run(repo, "git", "init", "-q")
		run(repo, "git", "add", "-A")
		run(repo, "git", "commit", "-q", "-m", "init")
	}
	rev := strings.TrimSpace(run(hooks, "git", "rev-parse", "HEAD"))
	run(user, "pre-commit", "autoupdate", "--bleeding-edge")
	got, err := os.ReadFile(filepath.Join(user, ".pre-commit-config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^\s+rev: ` + rev + `\b`).Match(got) {
		t.Errorf("after pre-commit autoupdate --bleeding-edge, rev is not %s:\n%s", rev, got)
	}
}
