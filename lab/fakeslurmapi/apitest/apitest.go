// Package apitest starts, for a test, a cluster behind the double of the
// service's Slurm Job API (callSlurmRestApi, lab/fakeslurmapi): a local
// Slurm of one release (lab/localslurm) with its real slurmrestd, and the
// double in front of it on loopback, and gives the client side of the
// double's authentication (a bearer token, as Google credentials send).
// The real-Slurm tests of deploy/slurmapi, deploy/verify and
// slurmspec-deploy use it; each asks slurmtest.Require first.
package apitest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/slurmspec/slurmspec/lab/fakeslurmapi"
	"github.com/slurmspec/slurmspec/lab/localslurm"
	"github.com/slurmspec/slurmspec/render"
)

// Bearer is an http.RoundTripper that adds an OAuth token to every
// request, as Google credentials do, and sends it with
// http.DefaultTransport.
type Bearer struct{ Token string }

// RoundTrip sends a copy of r with "Authorization: Bearer TOKEN".
func (b Bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.Token)
	return http.DefaultTransport.RoundTrip(r)
}

// Client is an HTTP client that sends token (Bearer).
func Client(token string) *http.Client {
	return &http.Client{Transport: Bearer{Token: token}}
}

// Cluster is a local Slurm behind the double.
type Cluster struct {
	*localslurm.Cluster
	// URL is the double's: a slurmapi.Client's Endpoint, or
	// SLURMSPEC_SLURM_API_ENDPOINT for slurmspec-deploy.
	URL string
	// Double is the double as it serves.
	Double *fakeslurmapi.Server
}

// Start writes files (a rendered set: slurm.conf, gres.conf, scripts)
// into a new temporary o.Dir, starts the local Slurm o describes with
// its slurmrestd (o.RestAPI is set), and serves the double in front of
// it for the cluster named name (projects/P/locations/R/
// modelDevelopmentClusters/ID), users mapping a bearer token to the
// Linux user it calls as. Both stop when the test ends; a failure to
// start fails the test.
func Start(ctx context.Context, t testing.TB, o localslurm.Options, files render.Set, name string, users map[string]string) *Cluster {
	t.Helper()
	o.RestAPI = true
	o.Dir = t.TempDir()
	for _, a := range files {
		p := filepath.Join(o.Dir, filepath.FromSlash(a.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, a.Data, os.FileMode(a.Mode)); err != nil {
			t.Fatal(err)
		}
	}
	cl, err := localslurm.Start(ctx, o)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() {
		if err := cl.Stop(); err != nil {
			t.Errorf("Stop: %v", err)
		}
	})
	double := &fakeslurmapi.Server{Cluster: name, Users: users,
		Backend: fakeslurmapi.Backend{URL: cl.RestURL(), Token: cl.RestToken}}
	srv := httptest.NewServer(double)
	t.Cleanup(srv.Close)
	return &Cluster{Cluster: cl, URL: srv.URL, Double: double}
}
