package fakeslurmapi

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

const cluster = "projects/acme/locations/us-central1/modelDevelopmentClusters/train"

// backend is a stand-in slurmrestd that records what it was sent.
type backend struct {
	method, path, user, token, body string
	status                          int
	answer                          string
}

func (b *backend) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	data, _ := io.ReadAll(r.Body)
	b.method, b.path, b.body = r.Method, r.URL.Path, string(data)
	b.user, b.token = r.Header.Get("X-SLURM-USER-NAME"), r.Header.Get("X-SLURM-USER-TOKEN")
	w.WriteHeader(b.status)
	_, _ = io.WriteString(w, b.answer)
}

func newDouble(t *testing.T, b *backend) *httptest.Server {
	t.Helper()
	be := httptest.NewServer(b)
	t.Cleanup(be.Close)
	s := &Server{
		Cluster: cluster,
		Users:   map[string]string{"ya29.alice": "alice", "ya29.viewer": ""},
		Backend: Backend{URL: be.URL, Token: func(user string, _ time.Duration) (string, error) { return "jwt-for-" + user, nil }},
	}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return srv
}

func call(t *testing.T, srv *httptest.Server, method, path, token, contentType, body string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatalf("the answer is not JSON: %v", err)
	}
	return resp.StatusCode, out
}

const method = "/v1beta1/" + cluster + ":callSlurmRestApi"

// TestContract checks that the double refuses every request the
// documented contract does not allow, with the Google API error a client
// would see, and forwards nothing then.
func TestContract(t *testing.T) {
	for _, tc := range []struct {
		name, method, path, token, contentType, body string
		code                                         int
		status                                       string
	}{
		{"not the custom method", "POST", "/v1beta1/" + cluster, "ya29.alice", "application/json", `{}`, 404, "NOT_FOUND"},
		{"GET instead of POST", "GET", method, "ya29.alice", "application/json", ``, 405, "METHOD_NOT_ALLOWED"},
		{"no token", "POST", method, "", "application/json", `{"method":"HTTP_METHOD_GET","path":"/slurm/v0.0.42/nodes"}`, 401, "UNAUTHENTICATED"},
		{"unknown token", "POST", method, "ya29.mallory", "application/json", `{"method":"HTTP_METHOD_GET","path":"/slurm/v0.0.42/nodes"}`, 401, "UNAUTHENTICATED"},
		{"no run permission", "POST", method, "ya29.viewer", "application/json", `{"method":"HTTP_METHOD_GET","path":"/slurm/v0.0.42/nodes"}`, 403, "PERMISSION_DENIED"},
		{"another cluster", "POST", strings.Replace(method, "/train:", "/other:", 1), "ya29.alice", "application/json", `{"method":"HTTP_METHOD_GET","path":"/slurm/v0.0.42/nodes"}`, 404, "NOT_FOUND"},
		{"not JSON", "POST", method, "ya29.alice", "text/plain", `method=GET`, 400, "INVALID_ARGUMENT"},
		{"plain HTTP verb", "POST", method, "ya29.alice", "application/json", `{"method":"GET","path":"/slurm/v0.0.42/nodes"}`, 400, "INVALID_ARGUMENT"},
		{"unknown field", "POST", method, "ya29.alice", "application/json", `{"method":"HTTP_METHOD_GET","path":"/slurm/v0.0.42/nodes","headers":{}}`, 400, "INVALID_ARGUMENT"},
		{"not a Slurm path", "POST", method, "ya29.alice", "application/json", `{"method":"HTTP_METHOD_GET","path":"/openapi/v3"}`, 400, "INVALID_ARGUMENT"},
		{"path escaping", "POST", method, "ya29.alice", "application/json", `{"method":"HTTP_METHOD_GET","path":"/slurm/v0.0.42/../../x"}`, 400, "INVALID_ARGUMENT"},
		{"POST without body", "POST", method, "ya29.alice", "application/json", `{"method":"HTTP_METHOD_POST","path":"/slurm/v0.0.42/job/submit"}`, 400, "INVALID_ARGUMENT"},
		{"GET with body", "POST", method, "ya29.alice", "application/json", `{"method":"HTTP_METHOD_GET","path":"/slurm/v0.0.42/nodes","body":{}}`, 400, "INVALID_ARGUMENT"},
		{"body not an object", "POST", method, "ya29.alice", "application/json", `{"method":"HTTP_METHOD_POST","path":"/slurm/v0.0.42/job/submit","body":"x"}`, 400, "INVALID_ARGUMENT"},
		{"two objects", "POST", method, "ya29.alice", "application/json", `{"method":"HTTP_METHOD_GET","path":"/slurm/v0.0.42/nodes"}{}`, 400, "INVALID_ARGUMENT"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := &backend{status: 200, answer: `{}`}
			srv := newDouble(t, b)
			code, out := call(t, srv, tc.method, tc.path, tc.token, tc.contentType, tc.body)
			e, _ := out["error"].(map[string]any)
			if code != tc.code || e == nil || e["status"] != tc.status || e["message"] == "" {
				t.Errorf("answer %d %v, want %d with error status %s", code, out, tc.code, tc.status)
			}
			if b.path != "" {
				t.Errorf("a refused request was forwarded: %s %s", b.method, b.path)
			}
		})
	}
}

// TestForward checks a valid call: forwarded as the caller's Linux user
// with a token for that user, and slurmrestd's answer returned as status
// and structuredBody, also when it is not JSON.
func TestForward(t *testing.T) {
	b := &backend{status: 500, answer: `{"errors":[{"error":"Requested node configuration is not available"}]}`}
	srv := newDouble(t, b)
	code, out := call(t, srv, "POST", method, "ya29.alice", "application/json",
		`{"method":"HTTP_METHOD_POST","path":"/slurm/v0.0.42/job/submit","body":{"job":{"partition":"train"}}}`)
	if code != 200 || out["status"] != float64(500) {
		t.Fatalf("answer %d %v, want 200 with status 500", code, out)
	}
	body, _ := out["structuredBody"].(map[string]any)
	if body == nil || body["errors"] == nil {
		t.Errorf("structuredBody %v, want slurmrestd's answer", out["structuredBody"])
	}
	if b.method != "POST" || b.path != "/slurm/v0.0.42/job/submit" || b.user != "alice" || b.token != "jwt-for-alice" || b.body != `{"job":{"partition":"train"}}` {
		t.Errorf("forwarded %s %s as %s with token %s and body %s", b.method, b.path, b.user, b.token, b.body)
	}

	b.status, b.answer = 401, "Authentication failure"
	code, out = call(t, srv, "POST", method, "ya29.alice", "application/json", `{"method":"HTTP_METHOD_DELETE","path":"/slurm/v0.0.42/job/7"}`)
	if code != 200 || out["status"] != float64(401) {
		t.Fatalf("answer %d %v, want 200 with status 401", code, out)
	}
	if body, _ := out["structuredBody"].(map[string]any); body == nil || !strings.Contains(toJSON(body), "Authentication failure") {
		t.Errorf("structuredBody %v, want the plain-text answer as JSON", out["structuredBody"])
	}
	if b.method != "DELETE" || b.body != "" {
		t.Errorf("forwarded %s with body %q, want DELETE without body", b.method, b.body)
	}
}

func toJSON(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}
