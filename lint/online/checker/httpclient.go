package checker

// An HTTP client with Google credentials, for the service's REST APIs that
// no Go client library covers (the Slurm Job API of `slurmspec verify`):
// the same credentials as the Filestore client's, found in the same
// places, with the same guard on the files read.

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"cloud.google.com/go/auth"
	"cloud.google.com/go/auth/credentials"
	"cloud.google.com/go/auth/httptransport"

	"github.com/slurmspec/slurmspec/lint/online"
)

// EnvAccessToken names the environment variable holding an OAuth 2 access
// token, which the Pulumi Google Cloud provider (slurmspec deploy) takes
// too: when set, it is sent as is and no other credentials are looked for.
const EnvAccessToken = "GOOGLE_OAUTH_ACCESS_TOKEN"

// CloudPlatformScope is the OAuth scope of the Vertex AI API.
const CloudPlatformScope = "https://www.googleapis.com/auth/cloud-platform"

// tokenHint says where credentials come from, for a client that also
// takes EnvAccessToken.
const tokenHint = adcHint + ", or set " + EnvAccessToken

// HTTPClient returns an HTTP client that authenticates every request with
// Google credentials: $GOOGLE_OAUTH_ACCESS_TOKEN, else Application Default
// Credentials (GOOGLE_APPLICATION_CREDENTIALS, gcloud's well-known file,
// the metadata server of a Google Cloud VM), found within timeout. Without
// credentials it returns an *online.Error of KindNoCredentials whose
// message is one line that says what to do.
func HTTPClient(ctx context.Context, timeout time.Duration) (*http.Client, error) {
	if tok := strings.TrimSpace(os.Getenv(EnvAccessToken)); tok != "" {
		return &http.Client{Transport: bearer{token: tok, next: http.DefaultTransport}}, nil
	}
	if err := checkCredentialsFiles(); err != nil {
		return nil, err
	}
	type result struct {
		c   *auth.Credentials
		err error
	}
	ch := make(chan result, 1)
	go func() {
		c, err := credentials.DetectDefault(&credentials.DetectOptions{Scopes: []string{CloudPlatformScope}})
		ch <- result{c, err}
	}()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case r := <-ch:
		if r.err != nil {
			e := classifySetup(r.err)
			if e.Kind == online.KindNoCredentials {
				e.Msg = strings.TrimSuffix(e.Msg, adcHint) + tokenHint
			}
			return nil, e
		}
		c, err := httptransport.NewClient(&httptransport.Options{Credentials: r.c})
		if err != nil {
			return nil, online.Errorf(online.KindOther, err, "cannot create the HTTP client: "+err.Error())
		}
		return c, nil
	case <-timer.C:
		return nil, online.Errorf(online.KindTimeout, context.DeadlineExceeded, fmt.Sprintf(
			"finding Google Cloud credentials took longer than %s: check the network, or run `gcloud auth application-default login`", timeout))
	case <-ctx.Done():
		return nil, online.Errorf(online.KindOther, ctx.Err(), "interrupted while finding Google Cloud credentials")
	}
}

// bearer sends a fixed access token.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}
