// Package fakeslurmapi is a local double of the service's Slurm Job API: the
// custom method callSlurmRestApi on a ModelDevelopmentCluster, which takes a
// Slurm REST call, runs it as the caller's own Linux account and returns
// slurmrestd's answer. It is built from the request and response fields
// the public documentation names (reference/slurm-job-api.md) and nothing
// of slurmspec's own client, so that a test of that client through it
// checks the client against the documented contract:
//
//	POST /v1beta1/projects/P/locations/R/modelDevelopmentClusters/C:callSlurmRestApi
//	Authorization: Bearer TOKEN
//	{"method": "HTTP_METHOD_GET"|"HTTP_METHOD_POST"|"HTTP_METHOD_DELETE",
//	 "path": "/slurm/v0.0.42/...", "body": {...}}      (body for POST only)
//	→ 200 {"status": 200, "structuredBody": {...}}
//
// A request that breaks the contract gets the error a Google API gives
// (400 INVALID_ARGUMENT, 401 UNAUTHENTICATED, 403 PERMISSION_DENIED, 404
// NOT_FOUND, 405) as {"error": {"code", "message", "status"}}. A valid one
// is forwarded to a real slurmrestd (Backend) as the Linux user the
// caller's token maps to, with a JWT the backend's harness signs
// (lab/localslurm Options.RestAPI).
package fakeslurmapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"
)

// MaxRequestBytes bounds a request body; the service's own limit is not
// documented, a job script is a few KiB.
const MaxRequestBytes = 1 << 20

// Backend is the real slurmrestd behind the double.
type Backend struct {
	// URL is slurmrestd's base URL, such as http://127.0.0.1:6820.
	URL string
	// Token returns a token slurmrestd accepts for a Linux user
	// (localslurm's Cluster.RestToken).
	Token func(user string, lifetime time.Duration) (string, error)
}

// Server is the double. Its fields are set before it serves; Calls is safe
// to read while it serves.
type Server struct {
	// Cluster is the resource name the double answers for:
	// projects/P/locations/R/modelDevelopmentClusters/C.
	Cluster string
	// Users maps an OAuth access token to the caller's Linux account. A
	// token mapped to "" authenticates but lacks the permission
	// aiplatform.googleapis.com/modelDevelopmentClusters.run.
	Users map[string]string
	// Backend receives the calls.
	Backend Backend

	mu    sync.Mutex
	calls []Call
}

// Call is one forwarded call, for tests to inspect.
type Call struct {
	User, Method, Path string
	Status             int
}

// Calls returns the calls forwarded so far.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.calls...)
}

var (
	nameRE = regexp.MustCompile(`^/v1beta1/(projects/[^/]+/locations/[^/]+/modelDevelopmentClusters/[^/:]+):callSlurmRestApi$`)
	// A Slurm REST path: /slurm/ or /slurmdb/, a version, the rest.
	slurmPathRE = regexp.MustCompile(`^/slurm(db)?/v0\.0\.[0-9]+/[A-Za-z0-9_./-]*$`)
	methods     = map[string]string{"HTTP_METHOD_GET": http.MethodGet, "HTTP_METHOD_POST": http.MethodPost, "HTTP_METHOD_DELETE": http.MethodDelete}
)

// request is the documented request body; unknown fields are refused.
type request struct {
	Method string          `json:"method"`
	Path   string          `json:"path"`
	Body   json.RawMessage `json:"body,omitempty"`
}

// ServeHTTP answers one call.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	m := nameRE.FindStringSubmatch(r.URL.Path)
	if m == nil {
		apiError(w, http.StatusNotFound, "NOT_FOUND", "The requested URL "+r.URL.Path+" was not found on this server.")
		return
	}
	if r.Method != http.MethodPost {
		apiError(w, http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED", "callSlurmRestApi is called with POST, not "+r.Method)
		return
	}
	token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	user, known := s.Users[token]
	if !ok || !known {
		apiError(w, http.StatusUnauthorized, "UNAUTHENTICATED", "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.")
		return
	}
	if user == "" {
		apiError(w, http.StatusForbidden, "PERMISSION_DENIED", "Permission 'aiplatform.googleapis.com/modelDevelopmentClusters.run' denied on resource '//aiplatform.googleapis.com/"+m[1]+"'.")
		return
	}
	if m[1] != s.Cluster {
		apiError(w, http.StatusNotFound, "NOT_FOUND", "ModelDevelopmentCluster "+m[1]+" not found.")
		return
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		apiError(w, http.StatusBadRequest, "INVALID_ARGUMENT", "Content-Type must be application/json, not "+fmt.Sprintf("%q", ct))
		return
	}
	req, msg := decode(http.MaxBytesReader(w, r.Body, MaxRequestBytes))
	if msg != "" {
		apiError(w, http.StatusBadRequest, "INVALID_ARGUMENT", msg)
		return
	}
	status, body, err := s.forward(user, methods[req.Method], req.Path, req.Body)
	if err != nil {
		apiError(w, http.StatusBadGateway, "UNAVAILABLE", "slurmrestd: "+err.Error())
		return
	}
	s.mu.Lock()
	s.calls = append(s.calls, Call{User: user, Method: req.Method, Path: req.Path, Status: status})
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"status": status, "structuredBody": body})
}

// decode reads and checks the request body; msg says what is wrong.
func decode(r io.Reader) (request, string) {
	var req request
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return req, "Invalid JSON payload received. " + err.Error()
	}
	if dec.More() {
		return req, "Invalid JSON payload received. Extra data after the request object."
	}
	if _, ok := methods[req.Method]; !ok {
		return req, fmt.Sprintf("Invalid value at 'method' (type.googleapis.com/google.cloud.aiplatform.v1beta1.CallSlurmRestApiRequest.HttpMethod), %q", req.Method)
	}
	if !slurmPathRE.MatchString(req.Path) || strings.Contains(req.Path, "/..") || strings.Contains(req.Path, "/./") {
		return req, fmt.Sprintf("path %q is not a Slurm REST path (/slurm/vX.Y.Z/... or /slurmdb/vX.Y.Z/...)", req.Path)
	}
	hasBody := len(req.Body) > 0 && string(req.Body) != "null"
	switch {
	case req.Method == "HTTP_METHOD_POST" && !hasBody:
		return req, "body is required for HTTP_METHOD_POST"
	case req.Method != "HTTP_METHOD_POST" && hasBody:
		return req, "body must be omitted for " + req.Method
	case hasBody && !bytes.HasPrefix(bytes.TrimSpace(req.Body), []byte("{")):
		return req, "body must be a JSON object"
	}
	return req, ""
}

// forward makes the call on slurmrestd as user.
func (s *Server) forward(user, method, path string, body json.RawMessage) (int, json.RawMessage, error) {
	token, err := s.Backend.Token(user, 5*time.Minute)
	if err != nil {
		return 0, nil, err
	}
	var rd io.Reader
	if len(body) > 0 {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, strings.TrimRight(s.Backend.URL, "/")+path, rd)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("X-SLURM-USER-NAME", user)
	req.Header.Set("X-SLURM-USER-TOKEN", token)
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := (&http.Client{Timeout: time.Minute}).Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return 0, nil, err
	}
	if !json.Valid(data) {
		// slurmrestd answers some failures (401) with plain text; the
		// service's structuredBody is JSON, so wrap it.
		data, _ = json.Marshal(map[string]any{"errors": []map[string]string{{"description": strings.TrimSpace(string(data))}}})
	}
	return resp.StatusCode, data, nil
}

// apiError writes a Google API error.
func apiError(w http.ResponseWriter, code int, status, msg string) {
	writeJSON(w, code, map[string]any{"error": map[string]any{"code": code, "message": msg, "status": status}})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}
