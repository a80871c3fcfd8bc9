package slurmapi

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/slurmspec/slurmspec/render/sacctmgr"
)

// TestSetLimitDoesNotWrap: a TRES size beyond what slurmrestd's count
// holds is refused, not sent wrapped around: cpu=18014398509481985 was
// sent as a count of 1.
func TestSetLimitDoesNotWrap(t *testing.T) {
	obj := map[string]any{}
	err := setLimit(obj, sacctmgr.FieldChange{Field: "GrpTRES", New: "cpu=18014398509481985"}, []string{"max", "tres", "total"})
	if err == nil {
		t.Errorf("GrpTRES cpu=18014398509481985 set as %v, want an error", obj)
	}
}

// TestCallTimeout: an endpoint that never answers, or sends its answer a
// byte at a time, ends the call with an error once Timeout has passed
// (the HTTP client the credentials give has no timeout, and verify waited
// forever).
func TestCallTimeout(t *testing.T) {
	for _, tc := range []struct {
		name    string
		handler func(stop chan struct{}) http.HandlerFunc
	}{
		{"no answer", func(stop chan struct{}) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				select {
				case <-r.Context().Done():
				case <-stop:
				}
			}
		}},
		{"a byte at a time", func(stop chan struct{}) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(200)
				for {
					if _, err := w.Write([]byte(" ")); err != nil {
						return
					}
					w.(http.Flusher).Flush()
					select {
					case <-r.Context().Done():
						return
					case <-stop:
						return
					case <-time.After(time.Millisecond):
					}
				}
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stop := make(chan struct{}) // ends the handler before the server closes
			srv := httptest.NewServer(tc.handler(stop))
			t.Cleanup(srv.Close)
			t.Cleanup(func() { close(stop) })
			c := &Client{HTTP: srv.Client(), Endpoint: srv.URL, Cluster: "projects/p/locations/r/modelDevelopmentClusters/c", Timeout: 50 * time.Millisecond}
			done := make(chan error, 1)
			go func() { _, err := c.Nodes(context.Background()); done <- err }()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), "no whole answer within 50ms") {
					t.Errorf("error %v, want the timeout named", err)
				}
			case <-time.After(time.Minute):
				t.Error("the call did not end")
			}
		})
	}
}
