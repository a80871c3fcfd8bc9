package checker

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestHTTPClient: GOOGLE_OAUTH_ACCESS_TOKEN is sent as a bearer token.
// (Without credentials: cmd/slurmspec-deploy's verify_credentials script.)
func TestHTTPClient(t *testing.T) {
	var got string
	srv := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { got = r.Header.Get("Authorization") }))
	defer srv.Close()
	t.Setenv(EnvAccessToken, "ya29.token")
	c, err := HTTPClient(context.Background(), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got != "Bearer ya29.token" {
		t.Errorf("Authorization %q, want the token", got)
	}

}
