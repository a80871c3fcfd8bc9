// Package driver runs a cluster's Go Pulumi program (package deploy/pulumi)
// through the Automation API: preview, up and destroy of one stack, with
// Pulumi's progress streamed, and the inputs the stack last deployed read
// back from its state. It needs the pulumi CLI at run time, and says so
// clearly when it is missing, as it does for a missing backend login or
// secrets passphrase.
package driver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/events"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"

	deploypulumi "github.com/slurmspec/slurmspec/deploy/pulumi"
	"github.com/slurmspec/slurmspec/render/pulumimodel"
)

// Config selects the stack and where output goes.
type Config struct {
	// Stack is the stack name (or org/project/stack).
	Stack string
	// Backend is the state backend URL; empty: $PULUMI_BACKEND_URL, else
	// the pulumi CLI's current login.
	Backend string
	// SecretsProvider is the stack's secrets provider (e.g.
	// gcpkms://...); empty: the backend's default (a passphrase for
	// self-managed backends).
	SecretsProvider string
	// Stdout and Stderr receive Pulumi's progress and errors.
	Stdout, Stderr io.Writer
	// Color is Pulumi's --color: always, never, raw or auto.
	Color string
}

// ErrNoCLI is returned when the pulumi CLI is not on PATH.
var ErrNoCLI = errors.New("the pulumi CLI is not on PATH: install it (https://www.pulumi.com/docs/iac/download-install/), or build it with .ci/build-pulumi.sh and put its bin directory on PATH")

// ErrNoBackend is returned when no state backend is configured.
var ErrNoBackend = errors.New("no Pulumi backend: run `pulumi login` (Pulumi Cloud; needs PULUMI_ACCESS_TOKEN when not interactive), `pulumi login gs://BUCKET` or `pulumi login file://DIR`, set PULUMI_BACKEND_URL, or pass --backend URL")

// Stack is one stack of a cluster's program.
type Stack struct {
	m     *pulumimodel.Model
	cfg   Config
	stack auto.Stack
}

// Open checks the prerequisites and opens the stack of m: it is created
// when create is true and it does not exist yet.
func Open(ctx context.Context, m *pulumimodel.Model, cfg Config, create bool) (*Stack, error) {
	if err := Check(cfg).Err(); err != nil {
		return nil, err
	}
	cmd, err := CLI()
	if err != nil {
		return nil, err
	}
	backend, err := CheckBackend(cfg)
	if err != nil {
		return nil, err
	}
	env := map[string]string{"PULUMI_SKIP_UPDATE_CHECK": "true"}
	proj := workspace.Project{
		Name:        tokens.PackageName(m.Project),
		Runtime:     workspace.NewProjectRuntimeInfo("go", nil),
		Description: &m.Description,
	}
	if cfg.Backend != "" {
		proj.Backend = &workspace.ProjectBackend{URL: cfg.Backend}
		env["PULUMI_BACKEND_URL"] = cfg.Backend
	}
	opts := []auto.LocalWorkspaceOption{auto.Pulumi(cmd), auto.Project(proj), auto.EnvVars(env)}
	if cfg.SecretsProvider != "" {
		opts = append(opts, auto.SecretsProvider(cfg.SecretsProvider))
	}
	program := deploypulumi.Program(m)
	var st auto.Stack
	if create {
		st, err = auto.UpsertStackInlineSource(ctx, cfg.Stack, m.Project, program, opts...)
	} else {
		st, err = auto.SelectStackInlineSource(ctx, cfg.Stack, m.Project, program, opts...)
	}
	if err != nil {
		if auto.IsSelectStack404Error(err) {
			return nil, fmt.Errorf("stack %q of project %s does not exist in %s", cfg.Stack, m.Project, backend)
		}
		return nil, fmt.Errorf("opening stack %q in %s: %w", cfg.Stack, backend, Explain(err))
	}
	return &Stack{m: m, cfg: cfg, stack: st}, nil
}

// CLI finds the pulumi CLI and checks its version.
func CLI() (auto.PulumiCommand, error) {
	if _, err := exec.LookPath("pulumi"); err != nil {
		return nil, ErrNoCLI
	}
	cmd, err := auto.NewPulumiCommand(nil)
	if err != nil {
		return nil, fmt.Errorf("the pulumi CLI on PATH cannot be used: %w", err)
	}
	return cmd, nil
}

// CheckBackend returns the backend URL in force, or ErrNoBackend; for a
// self-managed backend it also checks that secrets can be encrypted.
func CheckBackend(cfg Config) (string, error) {
	backend := cfg.Backend
	if backend == "" {
		backend = os.Getenv("PULUMI_BACKEND_URL")
	}
	if backend == "" {
		backend = currentLogin()
	}
	if backend == "" {
		return "", ErrNoBackend
	}
	u, err := url.Parse(backend)
	if err != nil {
		return "", fmt.Errorf("backend %q: %w", backend, err)
	}
	switch u.Scheme {
	case "file", "gs", "s3", "azblob":
		if cfg.SecretsProvider == "" && os.Getenv("PULUMI_CONFIG_PASSPHRASE") == "" && os.Getenv("PULUMI_CONFIG_PASSPHRASE_FILE") == "" {
			return "", fmt.Errorf("stacks in %s encrypt their secrets with a passphrase: set PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE, or pass --secrets-provider (e.g. gcpkms://projects/P/locations/L/keyRings/R/cryptoKeys/K)", backend)
		}
	case "https", "http":
		if os.Getenv("PULUMI_ACCESS_TOKEN") == "" && !hasToken(backend) {
			return "", fmt.Errorf("no access token for %s: run `pulumi login %s` or set PULUMI_ACCESS_TOKEN", backend, backend)
		}
	}
	return backend, nil
}

// credentials is the pulumi CLI's ~/.pulumi/credentials.json.
type credentials struct {
	Current      string            `json:"current"`
	AccessTokens map[string]string `json:"accessTokens"`
}

func readCredentials() credentials {
	home := os.Getenv("PULUMI_HOME")
	if home == "" {
		if h, err := os.UserHomeDir(); err == nil {
			home = filepath.Join(h, ".pulumi")
		}
	}
	var c credentials
	if data, err := os.ReadFile(filepath.Join(home, "credentials.json")); err == nil {
		_ = json.Unmarshal(data, &c)
	}
	return c
}

func currentLogin() string { return readCredentials().Current }

func hasToken(backend string) bool { return readCredentials().AccessTokens[backend] != "" }

// GCPCredentialsHint returns a warning when no Google Cloud credentials
// are visible to the provider (it may still find them on the metadata
// server of a Google Cloud VM); "" when some are.
func GCPCredentialsHint() string {
	for _, v := range []string{"GOOGLE_CREDENTIALS", "GOOGLE_CLOUD_KEYFILE_JSON", "GCLOUD_KEYFILE_JSON", "GOOGLE_APPLICATION_CREDENTIALS", "GOOGLE_OAUTH_ACCESS_TOKEN"} {
		if os.Getenv(v) != "" {
			return ""
		}
	}
	dir := os.Getenv("CLOUDSDK_CONFIG")
	if dir == "" {
		if h, err := os.UserHomeDir(); err == nil {
			dir = filepath.Join(h, ".config", "gcloud")
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "application_default_credentials.json")); err == nil {
		return ""
	}
	return "no Google Cloud credentials found (GOOGLE_APPLICATION_CREDENTIALS, GOOGLE_CREDENTIALS or `gcloud auth application-default login`); the provider will try the metadata server, which only a Google Cloud VM has"
}

// credentialErrors are what the provider says when it has no credentials.
var credentialErrors = []string{"could not find default credentials", "google: could not find", "oauth2: cannot fetch token", "invalid_grant", "Reauthentication failed"}

// Explain adds a hint to an Automation API error that is about missing
// Google Cloud credentials.
func Explain(err error) error {
	if err == nil {
		return nil
	}
	if aboutCredentials(err.Error()) {
		return &CredentialsError{Err: err}
	}
	return err
}

func aboutCredentials(msg string) bool {
	for _, s := range credentialErrors {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// streamed shortens an Automation API error whose output was streamed:
// the CLI's standard output and error are already on the terminal.
func streamed(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	short := err
	if i := strings.Index(msg, "\ncode: "); i >= 0 {
		short = fmt.Errorf("%s (Pulumi's output is above)", msg[:i])
	}
	if aboutCredentials(msg) {
		return &CredentialsError{Err: short}
	}
	return short
}

// CredentialsError is a failure caused by missing or invalid Google Cloud
// credentials.
type CredentialsError struct{ Err error }

func (e *CredentialsError) Error() string {
	return "Google Cloud credentials are missing or invalid: run `gcloud auth application-default login`, or set GOOGLE_APPLICATION_CREDENTIALS to a service account key file: " + e.Err.Error()
}

func (e *CredentialsError) Unwrap() error { return e.Err }

// Deployed returns the inputs the stack last deployed the cluster with;
// found is false when the stack has no cluster.
func (s *Stack) Deployed(ctx context.Context) (inputs map[string]any, found bool, err error) {
	dep, err := s.stack.Export(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("exporting stack %s: %w", s.cfg.Stack, err)
	}
	if len(dep.Deployment) == 0 {
		return nil, false, nil
	}
	var d apitype.DeploymentV3
	if err := json.Unmarshal(dep.Deployment, &d); err != nil {
		return nil, false, fmt.Errorf("reading stack %s's state: %w", s.cfg.Stack, err)
	}
	for _, r := range d.Resources {
		if string(r.Type) == pulumimodel.ClusterType && r.Custom && !r.Delete {
			return r.Inputs, true, nil
		}
	}
	return nil, false, nil
}

// ChangeSummary counts the operations of a preview.
type ChangeSummary map[apitype.OpType]int

// Replacements counts resources a preview would replace.
func (c ChangeSummary) Replacements() int {
	return c[apitype.OpReplace] + c[apitype.OpCreateReplacement]
}

// Changes counts every operation but "same".
func (c ChangeSummary) Changes() int {
	n := 0
	for op, k := range c {
		if op != apitype.OpSame {
			n += k
		}
	}
	return n
}

// Preview runs a preview; quiet leaves out the progress.
func (s *Stack) Preview(ctx context.Context, quiet bool) (*Plan, error) {
	ch := make(chan events.EngineEvent)
	done := make(chan []apitype.StepEventMetadata)
	go func() {
		var evs []apitype.StepEventMetadata
		for e := range ch {
			if e.ResourcePreEvent != nil {
				evs = append(evs, e.ResourcePreEvent.Metadata)
			}
		}
		done <- evs
	}()
	opts := []optpreview.Option{optpreview.Color(s.color()), optpreview.EventStreams(ch)}
	if quiet {
		opts = append(opts, optpreview.SuppressProgress())
	} else {
		opts = append(opts, optpreview.ProgressStreams(s.cfg.Stdout), optpreview.ErrorProgressStreams(s.cfg.Stderr))
	}
	res, err := s.stack.Preview(ctx, opts...)
	var evs []apitype.StepEventMetadata
	if err == nil {
		evs = <-done
	} else {
		// The Automation API does not close the stream when it fails
		// before the CLI runs.
		select {
		case evs = <-done:
		case <-time.After(2 * time.Second):
		}
	}
	if err != nil && !quiet {
		return nil, streamed(err)
	}
	if err != nil {
		return nil, Explain(err)
	}
	return &Plan{Summary: ChangeSummary(res.ChangeSummary), Steps: FoldSteps(evs)}, nil
}

// Up deploys the program and returns the stack outputs.
func (s *Stack) Up(ctx context.Context) (auto.OutputMap, map[string]int, error) {
	res, err := s.stack.Up(ctx, optup.Color(s.color()), optup.ProgressStreams(s.cfg.Stdout), optup.ErrorProgressStreams(s.cfg.Stderr))
	if err != nil {
		return nil, nil, streamed(err)
	}
	var changes map[string]int
	if res.Summary.ResourceChanges != nil {
		changes = *res.Summary.ResourceChanges
	}
	return res.Outputs, changes, nil
}

// Destroy deletes every resource of the stack.
func (s *Stack) Destroy(ctx context.Context) error {
	_, err := s.stack.Destroy(ctx, optdestroy.Color(s.color()), optdestroy.ProgressStreams(s.cfg.Stdout), optdestroy.ErrorProgressStreams(s.cfg.Stderr))
	return streamed(err)
}

func (s *Stack) color() string {
	if s.cfg.Color == "" {
		return "never"
	}
	return s.cfg.Color
}
