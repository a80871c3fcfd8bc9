package pulumitest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
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
// a passphrase, and the provider's call log.
type Env struct {
	Bin     string // directory of pulumi and pulumi-language-yaml
	Home    string // PULUMI_HOME
	Backend string // file:// URL
	Log     string // the test double's call log
	Cloud   string // the double's Google Cloud (fakegcp.EnvCloud)
}

// Setup builds the provider test double, installs it and sets the
// process environment for the test (t.Setenv): PATH, PULUMI_HOME,
// PULUMI_BACKEND_URL, PULUMI_CONFIG_PASSPHRASE, no update checks, no
// plugin downloads, a dummy Google Cloud token, the double's log and its
// cloud directory (so a create of an existing id fails as in Google
// Cloud).
func Setup(t *testing.T) *Env {
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
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("PULUMI_HOME", e.Home)
	t.Setenv("PULUMI_BACKEND_URL", e.Backend)
	t.Setenv("PULUMI_CONFIG_PASSPHRASE", "slurmspec-e2e")
	t.Setenv("PULUMI_SKIP_UPDATE_CHECK", "true")
	t.Setenv("PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION", "true")
	t.Setenv("PULUMI_SKIP_CONFIRMATIONS", "true")
	t.Setenv("GOOGLE_OAUTH_ACCESS_TOKEN", "e2e-test-token")
	t.Setenv("FAKEGCP_LOG", e.Log)
	t.Setenv("FAKEGCP_CLOUD", e.Cloud)
	t.Setenv("NO_COLOR", "1")

	provider := filepath.Join(dir, "pulumi-resource-gcp")
	build := exec.Command("go", "build", "-o", provider, "github.com/slurmspec/slurmspec/deploy/pulumi/pulumitest/fakegcp/pulumi-resource-gcp")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the provider test double: %v\n%s", err, out)
	}
	e.Pulumi(t, "", "plugin", "install", "resource", pulumimodel.ProviderPackage, "v"+pulumimodel.ProviderVersion, "--file", provider)
	return e
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
	var b bytes.Buffer
	cmd.Stdout, cmd.Stderr = &b, &b
	err := cmd.Run()
	return b.String(), err
}
