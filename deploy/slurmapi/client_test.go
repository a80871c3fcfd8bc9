package slurmapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestEndpoint: the region's endpoint, or a loopback testing hook; the
// hook never points credentials at another machine.
func TestEndpoint(t *testing.T) {
	for _, tc := range []struct{ env, want, err string }{
		{"", "https://us-central1-aiplatform.googleapis.com", ""},
		{"http://127.0.0.1:8080", "http://127.0.0.1:8080", ""},
		{"http://localhost:1", "http://localhost:1", ""},
		{"http://[::1]:1", "http://[::1]:1", ""},
		{"https://evil.example.com", "", "not on this machine"},
		{"http://10.0.0.1:80", "", "not on this machine"},
		{"ftp://127.0.0.1", "", "not an http or https URL"},
	} {
		t.Setenv(EnvEndpoint, tc.env)
		got, err := Endpoint("us-central1")
		if got != tc.want || (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s=%q: %q, %v; want %q, error %q", EnvEndpoint, tc.env, got, err, tc.want, tc.err)
		}
	}
}

func serve(t *testing.T, status int, body string) *Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(status)
		fmt.Fprint(w, body)
	}))
	t.Cleanup(srv.Close)
	return &Client{HTTP: srv.Client(), Endpoint: srv.URL, Cluster: "projects/p/locations/r/modelDevelopmentClusters/c"}
}

// TestErrors: every failure is an *Error whose message is one line.
func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		status     int
		want       string
	}{
		{"API refusal", `{"error":{"code":404,"message":"Cluster\nnot found.","status":"NOT_FOUND"}}`, 404,
			"GET /slurm/v0.0.42/nodes: the Slurm Job API refused the call (404 NOT_FOUND: Cluster not found.); is cluster projects/p/locations/r/modelDevelopmentClusters/c deployed (slurmspec deploy up)?"},
		{"unauthenticated", `<html>no</html>`, 401,
			"GET /slurm/v0.0.42/nodes: the Slurm Job API refused the call (401 <html>no</html>); the credentials were refused: run `gcloud auth application-default login`"},
		{"slurmrestd error", `{"status":500,"structuredBody":{"errors":[{"description":"Unable to query nodes","error":"Invalid node name\nspecified"}]}}`, 200,
			"GET /slurm/v0.0.42/nodes: slurmrestd answered 500: Unable to query nodes: Invalid node name specified"},
		{"not the API", `[1,2]`, 200, "GET /slurm/v0.0.42/nodes: the answer is not the Slurm Job API's (a JSON object with status and structuredBody)"},
		{"no status", `{"nodes":[]}`, 200, "GET /slurm/v0.0.42/nodes: the answer is not the Slurm Job API's (a JSON object with status and structuredBody)"},
		{"too large", `{"status":200,"structuredBody":{"nodes":[` + strings.Repeat(" ", MaxResponseBytes) + `]}}`, 200,
			"GET /slurm/v0.0.42/nodes: the answer is larger than 32 MiB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := serve(t, tc.status, tc.body).Nodes(context.Background())
			var e *Error
			if !errors.As(err, &e) || err.Error() != tc.want || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// TestSubmitBody: a job shape becomes the v0.0.42 job description, and
// the API's request carries method, path and body only.
func TestSubmitBody(t *testing.T) {
	var got string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b strings.Builder
		_, _ = fmt.Fprint(&b, r.Method, " ", r.URL.Path, " ")
		buf := make([]byte, 4096)
		n, _ := r.Body.Read(buf)
		b.Write(buf[:n])
		got = b.String()
		fmt.Fprint(w, `{"status":200,"structuredBody":{"job_id":42}}`)
	}))
	defer srv.Close()
	c := &Client{HTTP: srv.Client(), Endpoint: srv.URL, Cluster: "projects/p/locations/r/modelDevelopmentClusters/c"}
	id, err := c.Submit(context.Background(), JobSpec{Name: "n", Partition: "train", Script: "#!/bin/sh\ntrue\n", Nodes: 1, GPUsPerNode: 8, Exclusive: true})
	if err != nil || id != 42 {
		t.Fatalf("Submit: %d, %v", id, err)
	}
	want := `POST /v1beta1/projects/p/locations/r/modelDevelopmentClusters/c:callSlurmRestApi {"body":{"job":{"current_working_directory":"/tmp","environment":["PATH=/usr/local/bin:/usr/bin:/bin"],"maximum_nodes":1,"minimum_nodes":1,"name":"n","partition":"train","script":"#!/bin/sh\ntrue\n","shared":["none"],"standard_error":"/dev/null","standard_output":"/dev/null","tres_per_node":"gres/gpu:8"}},"method":"HTTP_METHOD_POST","path":"/slurm/v0.0.42/job/submit"}`
	if got != want {
		t.Errorf("request\n%s\nwant\n%s", got, want)
	}
}
