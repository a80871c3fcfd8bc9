package driver

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
)

func TestCheckBackend(t *testing.T) {
	home := t.TempDir()
	t.Setenv("PULUMI_HOME", home)
	t.Setenv("PULUMI_BACKEND_URL", "")
	t.Setenv("PULUMI_ACCESS_TOKEN", "")
	t.Setenv("PULUMI_CONFIG_PASSPHRASE", "")
	t.Setenv("PULUMI_CONFIG_PASSPHRASE_FILE", "")
	if _, err := CheckBackend(Config{}); !errors.Is(err, ErrNoBackend) {
		t.Errorf("no login: %v", err)
	}
	// The CLI's login is used, with its token.
	creds := `{"current": "https://api.pulumi.com", "accessTokens": {"https://api.pulumi.com": "pul-x"}}`
	if err := os.WriteFile(filepath.Join(home, "credentials.json"), []byte(creds), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, err := CheckBackend(Config{}); err != nil || b != "https://api.pulumi.com" {
		t.Errorf("logged in: %q, %v", b, err)
	}
	// --backend wins; a file backend needs a passphrase or a secrets provider.
	if _, err := CheckBackend(Config{Backend: "file:///tmp/state"}); err == nil || !strings.Contains(err.Error(), "PULUMI_CONFIG_PASSPHRASE") {
		t.Errorf("file backend without passphrase: %v", err)
	}
	if _, err := CheckBackend(Config{Backend: "gs://bucket", SecretsProvider: "gcpkms://k"}); err != nil {
		t.Errorf("gs backend with a secrets provider: %v", err)
	}
	t.Setenv("PULUMI_CONFIG_PASSPHRASE", "p")
	if _, err := CheckBackend(Config{Backend: "file:///tmp/state"}); err != nil {
		t.Errorf("file backend with passphrase: %v", err)
	}
}

func TestExplainCredentials(t *testing.T) {
	err := Explain(errors.New("exit status 255: error: google: could not find default credentials. See https://cloud.google.com/docs/authentication"))
	if err == nil || !strings.HasPrefix(err.Error(), "Google Cloud credentials are missing or invalid: run `gcloud auth application-default login`") {
		t.Errorf("Explain = %v", err)
	}
	other := errors.New("something else")
	if Explain(other) != other {
		t.Error("Explain changed an unrelated error")
	}
}

func TestStreamedErrorIsShort(t *testing.T) {
	err := streamed(errors.New("failed to run update: exit status 255\ncode: 255\nstdout: lots\nstderr: error: google: could not find default credentials\n"))
	var ce *CredentialsError
	if !errors.As(err, &ce) || strings.Contains(err.Error(), "stdout:") || !strings.Contains(err.Error(), "failed to run update: exit status 255 (Pulumi's output is above)") {
		t.Errorf("streamed = %v", err)
	}
}

// TestSteps: the engine's step events fold into one step per resource,
// and the order of a replacement's steps tells whether it deletes first.
func TestSteps(t *testing.T) {
	const c = "urn:pulumi:s::p::gcp:vertex/aiModelDevelopmentCluster:AiModelDevelopmentCluster::cluster"
	const n = "urn:pulumi:s::p::gcp:compute/network:Network::network"
	ev := func(op apitype.OpType, urn string) apitype.StepEventMetadata {
		return apitype.StepEventMetadata{Op: op, URN: urn, Type: urn[strings.LastIndex(urn[:strings.LastIndex(urn, "::")], "::")+2 : strings.LastIndex(urn, "::")]}
	}
	got := FoldSteps([]apitype.StepEventMetadata{
		ev(apitype.OpSame, "urn:pulumi:s::p::pulumi:pulumi:Stack::p-s"),
		ev(apitype.OpDeleteReplaced, c), ev(apitype.OpReplace, c), ev(apitype.OpCreateReplacement, c),
		ev(apitype.OpCreateReplacement, n), ev(apitype.OpReplace, n), ev(apitype.OpDeleteReplaced, n),
	})
	want := []Step{
		{Name: "cluster", Type: "gcp:vertex/aiModelDevelopmentCluster:AiModelDevelopmentCluster", Op: apitype.OpReplace, DeleteFirst: true},
		{Name: "network", Type: "gcp:compute/network:Network", Op: apitype.OpReplace},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("steps\n%+v\nwant\n%+v", got, want)
	}
	p := &Plan{Steps: got}
	if len(p.Destroys()) != 2 || p.Step("cluster") == nil || p.Step("nat") != nil {
		t.Errorf("plan %+v", p)
	}
}

// TestPreflightListsEveryMiss: one check names every missing prerequisite
// (no CLI and no passphrase together), and warns about credentials and the
// pinned provider plugin with the command that installs it.
func TestPreflightListsEveryMiss(t *testing.T) {
	home := t.TempDir()
	t.Setenv("PULUMI_HOME", home)
	t.Setenv("PATH", t.TempDir())
	t.Setenv("PULUMI_BACKEND_URL", "")
	t.Setenv("PULUMI_CONFIG_PASSPHRASE", "")
	t.Setenv("PULUMI_CONFIG_PASSPHRASE_FILE", "")
	for _, v := range []string{"GOOGLE_CREDENTIALS", "GOOGLE_CLOUD_KEYFILE_JSON", "GCLOUD_KEYFILE_JSON", "GOOGLE_APPLICATION_CREDENTIALS", "GOOGLE_OAUTH_ACCESS_TOKEN"} {
		t.Setenv(v, "")
	}
	t.Setenv("CLOUDSDK_CONFIG", t.TempDir())

	p := Check(Config{Backend: "file:///tmp/state"})
	err := p.Err()
	if err == nil {
		t.Fatal("no error with neither CLI nor passphrase")
	}
	for _, want := range []string{"2 prerequisites are missing:", "the pulumi CLI is not on PATH", "set PULUMI_CONFIG_PASSPHRASE"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not say %q:\n%v", want, err)
		}
	}
	if len(p.Warnings) != 2 || !strings.Contains(p.Warnings[0], "no Google Cloud credentials") || !strings.Contains(p.Warnings[1], "pulumi plugin install resource gcp v10.5.0") {
		t.Errorf("warnings %q", p.Warnings)
	}

	// Installed plugin and a passphrase: only the CLI is missing.
	if err := os.MkdirAll(filepath.Join(home, "plugins", "resource-gcp-v10.5.0"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PULUMI_CONFIG_PASSPHRASE", "p")
	p = Check(Config{Backend: "file:///tmp/state"})
	if err := p.Err(); err == nil || err.Error() != ErrNoCLI.Error() {
		t.Errorf("only the CLI missing: %v", err)
	}
	if len(p.Warnings) != 1 {
		t.Errorf("plugin installed, still warned: %q", p.Warnings)
	}
}
