// Package slurmapi calls the service's Slurm Job API: the custom method
// callSlurmRestApi on a ModelDevelopmentCluster, which forwards a Slurm REST
// call (/slurm/v0.0.42/...) to the cluster's slurmrestd as the caller's own
// Linux account and returns its answer (reference/slurm-job-api.md). It
// holds the calls `slurmspec verify` needs (partitions, nodes, job submit,
// job state, job cancel) and those `slurmspec-deploy accounting` needs
// (the accounting database read through /slurmdb/v0.0.42/ into
// render/sacctmgr's state, and a plan applied), and decodes only the
// fields it uses.
//
// Authentication is the *http.Client's: the caller gives one that adds
// Google credentials (slurmspec-deploy does, from Application Default
// Credentials). This package imports no Google library.
package slurmapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
	"unicode/utf8"
)

// Version is the Slurm REST version the client speaks: the one Slurm 24.11
// through 26.05 all serve (24.11: v0.0.40-42, 26.05: v0.0.42-45).
const Version = "v0.0.42"

// MaxResponseBytes bounds an answer: the node list of a large cluster is a
// few MiB (about 2.5 KiB a node in v0.0.42).
const MaxResponseBytes = 32 << 20

// EnvEndpoint names the environment variable that replaces the API's base
// URL (https://REGION-aiplatform.googleapis.com): a testing hook for a
// local double (lab/fakeslurmapi); never set it against the real API.
const EnvEndpoint = "SLURMSPEC_SLURM_API_ENDPOINT"

// Endpoint returns the API's base URL for a region: the regional Vertex AI
// endpoint, or $SLURMSPEC_SLURM_API_ENDPOINT (EnvEndpoint) when set, which
// must be a loopback URL: the caller's credentials go to it.
func Endpoint(region string) (string, error) {
	ep := strings.TrimSpace(os.Getenv(EnvEndpoint))
	if ep == "" {
		return "https://" + region + "-aiplatform.googleapis.com", nil
	}
	u, err := url.Parse(ep)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%s=%q is not an http or https URL", EnvEndpoint, ep)
	}
	if ip := net.ParseIP(u.Hostname()); u.Hostname() != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return "", fmt.Errorf("%s=%q is not on this machine: the testing hook takes a loopback address only, since Google credentials are sent to it", EnvEndpoint, ep)
	}
	return ep, nil
}

// CallTimeout bounds one call, its answer read whole, when
// Client.Timeout is 0: an endpoint that never answers, or answers a byte
// at a time, would otherwise hold verify and accounting forever (the
// credentials' HTTP client has no timeout of its own).
const CallTimeout = time.Minute

// Client calls callSlurmRestApi on one cluster.
type Client struct {
	// HTTP sends the calls; it adds the credentials.
	HTTP *http.Client
	// Timeout bounds each call; 0 means CallTimeout.
	Timeout time.Duration
	// Endpoint is the API's base URL (Endpoint(region), or a double's).
	Endpoint string
	// Cluster is the resource name:
	// projects/P/locations/R/modelDevelopmentClusters/ID.
	Cluster string
}

// Error is a call that failed, with a one-line message.
type Error struct {
	// Op is the Slurm REST call, such as "GET /slurm/v0.0.42/nodes".
	Op string
	// APIStatus is the Google API's HTTP status when the API refused the
	// call (401, 403, 404, ...), else 0.
	APIStatus int
	// SlurmStatus is slurmrestd's HTTP status when slurmrestd answered
	// with an error, else 0.
	SlurmStatus int
	// Msg says what happened, on one line.
	Msg string
	// Slurm is slurmrestd's own error message when SlurmStatus is set,
	// such as "Batch job submission failed: Requested node configuration
	// is not available".
	Slurm string
}

func (e *Error) Error() string { return e.Op + ": " + e.Msg }

// apiError is a Google API error body.
type apiError struct {
	Error struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Status  string `json:"status"`
	} `json:"error"`
}

// slurmErrors are the errors slurmrestd puts in every answer.
type slurmErrors struct {
	Errors []struct {
		Description string `json:"description"`
		Error       string `json:"error"`
	} `json:"errors"`
}

// message joins slurmrestd's errors into one line.
func (s slurmErrors) message() string {
	var parts []string
	for _, e := range s.Errors {
		m := e.Error
		if e.Description != "" && e.Description != e.Error {
			m = join(e.Description, e.Error)
		}
		if m != "" {
			parts = append(parts, m)
		}
	}
	return strings.Join(parts, "; ")
}

func join(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + ": " + b
}

// call sends one Slurm REST call and decodes slurmrestd's answer into out.
// body is sent for POST only. A slurmrestd status other than 200 is an
// *Error carrying slurmrestd's own errors.
func (c *Client) call(ctx context.Context, method, path string, body, out any) error {
	op := method + " " + path
	req := map[string]any{"method": "HTTP_METHOD_" + method, "path": path}
	if body != nil {
		req["body"] = body
	}
	data, err := json.Marshal(req)
	if err != nil {
		return &Error{Op: op, Msg: "encoding the request: " + err.Error()}
	}
	u := strings.TrimRight(c.Endpoint, "/") + "/v1beta1/" + c.Cluster + ":callSlurmRestApi"
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = CallTimeout
	}
	ctx, cancel := context.WithTimeoutCause(ctx, timeout, fmt.Errorf("no whole answer within %s", timeout))
	defer cancel()
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(data))
	if err != nil {
		return &Error{Op: op, Msg: err.Error()}
	}
	hreq.Header.Set("Content-Type", "application/json")
	resp, err := c.HTTP.Do(hreq)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // the URL is in the message already
		}
		if cause := context.Cause(ctx); cause != nil {
			err = cause
		}
		return &Error{Op: op, Msg: fmt.Sprintf("cannot reach the Slurm Job API at %s: %s", c.Endpoint, oneLine(err.Error()))}
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, MaxResponseBytes+1))
	if err != nil {
		if cause := context.Cause(ctx); cause != nil {
			err = cause
		}
		return &Error{Op: op, Msg: "reading the answer: " + oneLine(err.Error())}
	}
	if len(raw) > MaxResponseBytes {
		return &Error{Op: op, Msg: fmt.Sprintf("the answer is larger than %d MiB", MaxResponseBytes>>20)}
	}
	if resp.StatusCode != http.StatusOK {
		return c.refused(op, resp.StatusCode, raw)
	}
	var answer struct {
		Status         int             `json:"status"`
		StructuredBody json.RawMessage `json:"structuredBody"`
	}
	if err := json.Unmarshal(raw, &answer); err != nil || answer.Status == 0 {
		return &Error{Op: op, Msg: "the answer is not the Slurm Job API's (a JSON object with status and structuredBody)"}
	}
	if answer.Status != http.StatusOK {
		var se slurmErrors
		_ = json.Unmarshal(answer.StructuredBody, &se)
		msg := se.message()
		if msg == "" {
			msg = "no error message"
		}
		text := oneLine(msg)
		if answer.Status == http.StatusNotFound && strings.Contains(msg, "requested URL") {
			text = strings.TrimSuffix(text, ".") + "; the cluster's slurmrestd does not serve Slurm REST " + Version +
				", which Slurm 24.11 and later do (22.05 serves v0.0.36-v0.0.38)"
		}
		return &Error{Op: op, SlurmStatus: answer.Status, Slurm: oneLine(msg), Msg: fmt.Sprintf("slurmrestd answered %d: %s", answer.Status, text)}
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(answer.StructuredBody, out); err != nil {
		return &Error{Op: op, Msg: "decoding slurmrestd's answer: " + oneLine(err.Error())}
	}
	return nil
}

// refused explains an error of the Google API itself.
func (c *Client) refused(op string, status int, raw []byte) error {
	var ae apiError
	msg := ""
	if json.Unmarshal(raw, &ae) == nil && ae.Error.Message != "" {
		msg = ae.Error.Status + ": " + ae.Error.Message
	} else {
		msg = string(raw)
		if len(msg) > 200 || !utf8.ValidString(msg) {
			msg = "(no error message)"
		}
	}
	hint := ""
	switch status {
	case http.StatusUnauthorized:
		hint = "; the credentials were refused: run `gcloud auth application-default login`"
	case http.StatusForbidden:
		hint = "; the caller needs aiplatform.googleapis.com/modelDevelopmentClusters.run on the cluster (role roles/aiplatform.user)"
	case http.StatusNotFound:
		hint = "; is cluster " + c.Cluster + " deployed (slurmspec deploy up)?"
	}
	return &Error{Op: op, APIStatus: status, Msg: fmt.Sprintf("the Slurm Job API refused the call (%d %s)%s", status, oneLine(msg), hint)}
}

// oneLine keeps a message from a server on one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
