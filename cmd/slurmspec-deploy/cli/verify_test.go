package cli_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/slurmspec/slurmspec/cmd/slurmspec-deploy/cli"
	"github.com/slurmspec/slurmspec/lab/fakeslurmapi"
)

// slurmrestd answers like the A4 example's cluster (v0.0.42 fields).
func slurmrestd(maxTimeTrain int, stateTrain string) http.Handler {
	part := func(name string, maxTime, tier int, state string) map[string]any {
		return map[string]any{"name": name, "nodes": map[string]any{"configured": "train-a4-[0-3]", "total": 4},
			"maximums":  map[string]any{"time": map[string]any{"set": true, "number": maxTime}, "nodes": map[string]any{"infinite": true}},
			"minimums":  map[string]any{"nodes": 0},
			"defaults":  map[string]any{"time": map[string]any{"set": false}},
			"priority":  map[string]any{"tier": tier},
			"partition": map[string]any{"state": []string{state}}}
	}
	var nodes []map[string]any
	for i := range 4 {
		nodes = append(nodes, map[string]any{"name": fmt.Sprintf("train-a4-%d", i), "cpus": 224, "real_memory": 3943792, "gres": "gpu:b200:8", "state": []string{"IDLE"}})
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/slurm/v0.0.42/partitions":
			_ = json.NewEncoder(w).Encode(map[string]any{"partitions": []any{part("train", maxTimeTrain, 10, stateTrain), part("preempt", 2880, 1, "UP")}})
		case "/slurm/v0.0.42/nodes":
			_ = json.NewEncoder(w).Encode(map[string]any{"nodes": nodes})
		default:
			http.NotFound(w, r)
		}
	})
}

// TestVerifyThroughDouble runs slurmspec-deploy verify --no-jobs against
// the double of the Slurm Job API with a stand-in slurmrestd: the token of
// GOOGLE_OAUTH_ACCESS_TOKEN reaches the API, drift is reported at the
// spec's position (a warning: exit 0; a partition that is DOWN, an error:
// exit 1), a clean cluster exits 0, and a caller without the permission
// gets one line and exit 2.
func TestVerifyThroughDouble(t *testing.T) {
	spec, err := filepath.Abs("../../../examples/a4-training.yaml")
	if err != nil {
		t.Fatal(err)
	}
	const name = "projects/acme-ml-prod/locations/us-central1/modelDevelopmentClusters/train"
	for _, tc := range []struct {
		name, token, state string
		maxTime            int
		code               int
		want               []string
	}{
		{"clean", "ya29.alice", "UP", 10080, 0, []string{"Cluster " + name + ": 2 live partitions, 4 live nodes; 0 jobs, 0 findings"}},
		{"drift", "ya29.alice", "UP", 60, 0, []string{
			"a4-training.yaml:52:20: warning: partition train has MaxTime=60 minutes on the live cluster, the spec renders 7-00:00:00 [verify-partition-drift]",
			"Cluster " + name + ": 2 live partitions, 4 live nodes; 0 jobs, 1 finding\n"}},
		{"partition down", "ya29.alice", "DOWN", 10080, 1, []string{
			"a4-training.yaml:48:13: error: partition train is DOWN on the live cluster, the spec renders it UP: it takes or starts no jobs [verify-partition-drift]",
			"slurmspec-deploy: cluster " + name + ": 2 live partitions, 4 live nodes; 0 jobs, 1 finding (1 error)"}},
		{"no permission", "ya29.viewer", "UP", 10080, 2, []string{
			"slurmspec-deploy: verify: GET /slurm/v0.0.42/partitions: the Slurm Job API refused the call (403 PERMISSION_DENIED: Permission 'aiplatform.googleapis.com/modelDevelopmentClusters.run' denied on resource '//aiplatform.googleapis.com/" + name + "'.); the caller needs aiplatform.googleapis.com/modelDevelopmentClusters.run on the cluster (role roles/aiplatform.user)\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			backend := httptest.NewServer(slurmrestd(tc.maxTime, tc.state))
			defer backend.Close()
			double := &fakeslurmapi.Server{Cluster: name, Users: map[string]string{"ya29.alice": "alice", "ya29.viewer": ""},
				Backend: fakeslurmapi.Backend{URL: backend.URL, Token: func(string, time.Duration) (string, error) { return "jwt", nil }}}
			api := httptest.NewServer(double)
			defer api.Close()
			t.Setenv("GOOGLE_OAUTH_ACCESS_TOKEN", tc.token)
			t.Setenv("SLURMSPEC_SLURM_API_ENDPOINT", api.URL)
			var out bytes.Buffer
			code := cli.Run([]string{"verify", "--no-jobs", spec}, strings.NewReader(""), &out, &out)
			if code != tc.code {
				t.Errorf("exit %d, want %d:\n%s", code, tc.code, out.String())
			}
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out.String())
				}
			}
			for _, c := range double.Calls() {
				if c.User != "alice" || c.Method != "HTTP_METHOD_GET" {
					t.Errorf("call %+v, want GETs as alice", c)
				}
			}
		})
	}
}
