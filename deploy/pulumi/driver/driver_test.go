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
