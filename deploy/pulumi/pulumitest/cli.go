package pulumitest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/render/pulumimodel"
)

// PulumiVersion is the Pulumi CLI version the end-to-end tests use; it is
// the SDK version in go.mod.
const PulumiVersion = "v3.274.1"

// EnvBin names a directory holding pulumi and pulumi-language-yaml.
const EnvBin = "SLURMSPEC_PULUMI_BIN"

// CacheBin is where .ci/build-pulumi.sh puts the CLI:
// $HOME/.cache/slurmspec/pulumi-VERSION/bin.
func CacheBin() string {
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".cache", "slurmspec", "pulumi-"+PulumiVersion, "bin")
}

// RequireCLI returns the directory of the pulumi CLI and the YAML language
// host: $SLURMSPEC_PULUMI_BIN, else the build cache, else the directory of
// pulumi on PATH. When there is none, the test is skipped with one line, or
// fails when CI=true.
func RequireCLI(t testing.TB) string {
	t.Helper()
	var dirs []string
	if d := os.Getenv(EnvBin); d != "" {
		dirs = append(dirs, d)
	}
	dirs = append(dirs, CacheBin())
	if p, err := exec.LookPath("pulumi"); err == nil {
		dirs = append(dirs, filepath.Dir(p))
	}
	for _, d := range dirs {
		if d == "" {
			continue
		}
		if isExec(filepath.Join(d, "pulumi")) && isExec(filepath.Join(d, "pulumi-language-yaml")) {
			return d
		}
	}
	msg := "the Pulumi CLI " + PulumiVersion + " and pulumi-language-yaml are not installed: run .ci/build-pulumi.sh (about 12 minutes) or set " + EnvBin
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

func isExec(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

// Env is an isolated, offline Pulumi environment: its own PULUMI_HOME
// with the provider test double installed as gcp v10.5.0, a file backend,
// a passphrase, and the provider's call log. It changes nothing of the
// test process's environment, so that tests with an Env each can run side
// by side (t.Parallel): a process run in it gets Environ.
type Env struct {
	Bin     string // directory of pulumi and pulumi-language-yaml
	Home    string // PULUMI_HOME
	Backend string // file:// URL
	Log     string // the test double's call log
	Cloud   string // the double's Google Cloud (fakegcp.EnvCloud)
	vars    []string
}

// ProviderName is the provider plugin's executable name. A test binary
// whose TestMain runs fakegcp.Main when it is started under this name
// (filepath.Base(os.Args[0])) is a provider for Setup: Pulumi starts the
// installed plugin under that name.
const ProviderName = "pulumi-resource-gcp"

// Setup makes an Env for the test, with provider (a binary that serves
// the test double under ProviderName: one built from
// fakegcp/pulumi-resource-gcp, or the test binary itself, see
// ProviderName) installed: PATH with the CLI first, PULUMI_HOME,
// PULUMI_BACKEND_URL, PULUMI_CONFIG_PASSPHRASE, no update checks, no
// plugin downloads, a dummy Google Cloud token, the double's log and its
// cloud directory (so a create of an existing id fails as in Google
// Cloud).
func Setup(t *testing.T, provider string) *Env {
	t.Helper()
	bin := RequireCLI(t)
	dir := t.TempDir()
	e := &Env{
		Bin:     bin,
		Home:    filepath.Join(dir, "pulumi-home"),
		Backend: "file://" + filepath.Join(dir, "state"),
		Log:     filepath.Join(dir, "provider.log"),
		Cloud:   filepath.Join(dir, "cloud"),
	}
	for _, d := range []string{e.Home, filepath.Join(dir, "state"), e.Cloud} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	e.vars = []string{
		"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"PULUMI_HOME=" + e.Home,
		"PULUMI_BACKEND_URL=" + e.Backend,
		"PULUMI_CONFIG_PASSPHRASE=slurmspec-e2e",
		"PULUMI_SKIP_UPDATE_CHECK=true",
		"PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true",
		"PULUMI_SKIP_CONFIRMATIONS=true",
		"GOOGLE_OAUTH_ACCESS_TOKEN=e2e-test-token",
		"FAKEGCP_LOG=" + e.Log,
		"FAKEGCP_CLOUD=" + e.Cloud,
		"NO_COLOR=1",
	}
	e.Pulumi(t, "", "plugin", "install", "resource", pulumimodel.ProviderPackage, "v"+pulumimodel.ProviderVersion, "--file", provider)
	return e
}

// With returns a copy of e whose processes also get vars (KEY=value; a
// later value of a key wins).
func (e *Env) With(vars ...string) *Env {
	c := *e
	c.vars = append(slices.Clip(e.vars), vars...)
	return &c
}

// Environ is the environment of a process run in e: the test process's,
// with e's variables.
func (e *Env) Environ() []string {
	return append(os.Environ(), e.vars...)
}

// Pulumi runs the pulumi CLI in dir and fails the test when it fails.
func (e *Env) Pulumi(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := e.PulumiErr(dir, args...)
	if err != nil {
		t.Fatalf("pulumi %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// PulumiErr runs the pulumi CLI in dir and returns its combined output.
func (e *Env) PulumiErr(dir string, args ...string) (string, error) {
	name := filepath.Join(e.Bin, "pulumi")
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	cmd := exec.Command(name, append(args, "--non-interactive")...)
	cmd.Dir = dir
	cmd.Env = e.Environ()
	var b bytes.Buffer
	cmd.Stdout, cmd.Stderr = &b, &b
	err := cmd.Run()
	return b.String(), err
}
