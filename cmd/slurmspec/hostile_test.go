package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"

	"go.yaml.in/yaml/v3"
)

// Bounds every command run over a hostile checkout must keep.
const (
	// hostileMaxRSSKB is the peak resident set of one process: 2 GiB.
	hostileMaxRSSKB = 2 << 20
	// hostileAddressSpaceKB is the address space each command gets
	// (ulimit -v), so that a run that does not keep the bound fails with
	// an out-of-memory error instead of taking the shared machine's
	// memory: 4 GiB.
	hostileAddressSpaceKB = 4 << 20
	// hostileMaxOutput is the most a command may print (standard output
	// and error together, and any report it writes): 1 MiB.
	hostileMaxOutput = 1 << 20
)

// hostileRepo is a pull request's checkout with its base branch as
// origin/main, next to a directory outside it that holds a secret, and
// the runner's $RUNNER_TEMP.
type hostileRepo struct {
	root, checkout, outside, temp, bin string
	secret                             string
}

// hostileRun is what one command did.
type hostileRun struct {
	name     string // the command line, for messages
	code     int
	output   string // standard output and error, and the report it wrote
	maxRSSKB int64
	reports  bool // a run that lints the whole checkout (or the hook's files)
}

// newHostileRepo makes the checkout: cluster.yaml (the A4 example) and
// its rendered files committed on main, origin/main pointing there, the
// branch pr checked out; outside/creds holds credentials files carrying
// the secret, readable as JSON and YAML specs.
func newHostileRepo(t *testing.T, bin string) *hostileRepo {
	t.Helper()
	root := t.TempDir()
	h := &hostileRepo{root: root, checkout: filepath.Join(root, "work"), outside: filepath.Join(root, "outside"),
		temp: filepath.Join(root, "runner-temp"), bin: bin, secret: secretValue(t)}
	for _, d := range []string{h.checkout, filepath.Join(h.outside, "creds"), h.temp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	h.writeOutside(t, "creds/credentials.json", fmt.Sprintf(`{"nodePools": [{"id": %q}], "orchestratorSpec": {"token": %q}}`+"\n", h.secret, h.secret))
	h.writeOutside(t, "creds/credentials.yaml", fmt.Sprintf("nodePools:\n  - id: %s\norchestratorSpec:\n  token: %s\n", h.secret, h.secret))
	h.writeOutside(t, "victim.txt", "not the pull request's\n")
	spec, err := os.ReadFile(filepath.Join("..", "..", "examples", "a4-training.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	h.write(t, "cluster.yaml", string(spec))
	render := exec.Command(bin, "render", "cluster.yaml", "-o", "rendered")
	render.Dir = h.checkout
	if out, err := render.CombinedOutput(); err != nil {
		t.Fatalf("render: %v\n%s", err, out)
	}
	gitIn(t, h.checkout, "init", "-q")
	gitIn(t, h.checkout, "add", "-A")
	gitIn(t, h.checkout, "commit", "-q", "-m", "base")
	gitIn(t, h.checkout, "update-ref", "refs/remotes/origin/main", "HEAD")
	gitIn(t, h.checkout, "checkout", "-q", "-b", "pr")
	return h
}

// write writes a file of the checkout, making its directory.
func (h *hostileRepo) write(t *testing.T, name, data string) {
	t.Helper()
	writeIn(t, h.checkout, name, data)
}

// writeOutside writes a file outside the checkout.
func (h *hostileRepo) writeOutside(t *testing.T, name, data string) {
	t.Helper()
	writeIn(t, h.outside, name, data)
}

func writeIn(t *testing.T, dir, name, data string) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// link commits name as a symlink to target.
func (h *hostileRepo) link(t *testing.T, target, name string) {
	t.Helper()
	p := filepath.Join(h.checkout, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(p); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
}

// fingerprint lists every path below root (but .git) with its mode and,
// for regular files, a hash of the content; symlinks with their target.
func fingerprint(t *testing.T, root string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%q %s", p, info.Mode())
		switch {
		case info.Mode().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(data)
			b.WriteString(" " + hex.EncodeToString(sum[:8]))
		case info.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			b.WriteString(" -> " + target)
		}
		b.WriteString("\n")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// run runs slurmspec in the checkout with args, under the address-space
// limit, with the secret in its environment.
func (h *hostileRepo) run(t *testing.T, args ...string) hostileRun {
	t.Helper()
	script := fmt.Sprintf(`ulimit -v %d && exec "$@"`, hostileAddressSpaceKB)
	cmd := exec.Command("bash", append([]string{"-c", script, "bash", h.bin}, args...)...)
	cmd.Dir = h.checkout
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + h.root, "NO_COLOR=1", "CI=true", "GITHUB_ACTIONS=true", plantedSecret + "=" + h.secret}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	r := hostileRun{name: "slurmspec " + strings.Join(args, " "), output: out.String()}
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("%s: %v", r.name, err)
		}
		r.code = ee.ExitCode()
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.maxRSSKB = ru.Maxrss
	}
	return r
}

// hookFiles returns the files pre-commit passes to the hook with
// --all-files: the tracked files its files: pattern matches whose type is
// file (pre-commit's "file" excludes symlinks).
func hookFiles(t *testing.T, h *hostileRepo, pattern string) []string {
	t.Helper()
	re, err := regexp.Compile(pattern)
	if err != nil {
		t.Fatalf("the hook's files: %q: %v", pattern, err)
	}
	var files []string
	for _, name := range strings.Split(strings.TrimSuffix(gitIn(t, h.checkout, "ls-files", "-z"), "\x00"), "\x00") {
		fi, err := os.Lstat(filepath.Join(h.checkout, name))
		if err == nil && fi.Mode().IsRegular() && re.MatchString(name) {
			files = append(files, name)
		}
	}
	return files
}

// preCommitHook is the slurmspec-lint hook of .pre-commit-hooks.yaml.
type preCommitHook struct {
	ID    string   `yaml:"id"`
	Entry string   `yaml:"entry"`
	Args  []string `yaml:"args"`
	Files string   `yaml:"files"`
}

// lintHook reads the slurmspec-lint hook's definition.
func lintHook(t *testing.T) preCommitHook {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", ".pre-commit-hooks.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var hooks []preCommitHook
	if err := yaml.Unmarshal(data, &hooks); err != nil {
		t.Fatal(err)
	}
	for _, hk := range hooks {
		if hk.ID == "slurmspec-lint" {
			if !strings.HasPrefix(hk.Entry, "slurmspec ") {
				t.Fatalf("the hook's entry %q does not run slurmspec", hk.Entry)
			}
			return hk
		}
	}
	t.Fatal(".pre-commit-hooks.yaml has no slurmspec-lint hook")
	return preCommitHook{}
}

// runAll runs over the checkout every command of the example workflow
// (its run: steps, with runWorkflow) and the workflow's lint commands
// over each of specs (a value of its SPEC: "." the whole checkout, or the
// arguments a trick names), and the pre-commit hook's entry over the
// files pre-commit would pass it. It returns the runs of slurmspec and
// the workflow's steps.
func runAll(t *testing.T, h *hostileRepo, specs []string) ([]hostileRun, []*stepRun) {
	t.Helper()
	var runs []hostileRun
	for _, spec := range specs {
		reports := spec == "."
		for _, args := range [][]string{
			{"lint", "--format", "github", spec},
			{"lint", "--format", "sarif", "--output", filepath.Join(h.temp, "slurmspec.sarif"), spec},
			{"lint", spec},
		} {
			r := h.run(t, args...)
			r.reports = reports
			if slices.Contains(args, "--output") {
				if data, err := os.ReadFile(filepath.Join(h.temp, "slurmspec.sarif")); err == nil {
					r.output += string(data)
				}
			}
			runs = append(runs, r)
		}
	}
	hook := lintHook(t)
	entry := strings.Fields(hook.Entry)[1:]
	if files := hookFiles(t, h, hook.Files); len(files) > 0 {
		r := h.run(t, slices.Concat(entry, hook.Args, files)...)
		r.name = "pre-commit hook: " + r.name
		r.reports = true
		runs = append(runs, r)
	}

	gopath, record := filepath.Join(h.root, "gopath"), filepath.Join(h.root, "record")
	fakeTools(t, filepath.Join(h.root, "bin"), gopath, record, h.bin)
	w := &workflowRun{t: t, steps: map[string]*stepRun{}, runner: map[string]string{}, limitKB: hostileAddressSpaceKB,
		github: map[string]string{
			"base_ref": "main", "repository": "acme/clusters", "token": "ghs_test_token",
			"event.pull_request.number": "7", "event.pull_request.head.repo.full_name": "acme/clusters",
		}}
	steps := w.runWorkflow(exampleWorkflow, h.checkout, h.temp, []string{
		"PATH=" + filepath.Join(h.root, "bin") + ":/usr/bin:/bin", "HOME=" + h.root, "NO_COLOR=1",
		plantedSecret + "=" + h.secret,
	})
	// What the workflow would publish: the reports it leaves in
	// $RUNNER_TEMP (the SARIF file goes to code scanning) and what gh
	// would post.
	published, _ := filepath.Glob(filepath.Join(h.temp, "slurmspec*"))
	posted, _ := filepath.Glob(filepath.Join(record, "gh-*"))
	for _, f := range append(published, posted...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		steps = append(steps, &stepRun{name: "published: " + filepath.Base(f), ran: true, output: string(data)})
	}
	return runs, steps
}

// forgedLine matches a workflow command a file name could forge: an
// annotation for file x (the name's own) or stop-commands.
var forgedLine = regexp.MustCompile(`^::(error file=x::|stop-commands::)`)

// checkRun asserts what every command over a hostile checkout keeps: no
// secret, no forged workflow command, no crash, bounded memory and
// output.
func checkRun(t *testing.T, h *hostileRepo, name, output string, maxRSSKB int64) {
	t.Helper()
	if strings.Contains(output, h.secret) {
		t.Errorf("%s: printed the secret planted outside the checkout:\n%.2000s", name, output)
	}
	for line := range strings.Lines(output) {
		if forgedLine.MatchString(strings.TrimSpace(line)) {
			t.Errorf("%s: a file name forged a workflow command: %q", name, line)
		}
	}
	for _, crash := range []string{"panic: ", "fatal error: "} {
		if strings.Contains(output, crash) {
			t.Errorf("%s: crashed (%q):\n%.2000s", name, crash, output)
			break
		}
	}
	if maxRSSKB > hostileMaxRSSKB {
		t.Errorf("%s: peak RSS %d MiB, want at most %d MiB", name, maxRSSKB>>10, hostileMaxRSSKB>>10)
	}
	if len(output) > hostileMaxOutput {
		t.Errorf("%s: printed %d bytes, want at most %d", name, len(output), hostileMaxOutput)
	}
}
