package cli_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
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

// pendingJobs answers the job calls of the Slurm REST API as a cluster
// whose jobs pend for Resources for ever (nodes that never come up, or a
// hostile endpoint), and the others with h.
func pendingJobs(h http.Handler) http.Handler {
	var (
		mu   sync.Mutex
		next int
	)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case r.URL.Path == "/slurm/v0.0.42/job/submit":
			next++
			fmt.Fprintf(w, `{"job_id":%d}`, next)
		case strings.HasPrefix(r.URL.Path, "/slurm/v0.0.42/job/") && r.Method == http.MethodGet:
			fmt.Fprintf(w, `{"jobs":[{"job_id":%s,"job_state":["PENDING"],"state_reason":"Resources"}]}`, strings.TrimPrefix(r.URL.Path, "/slurm/v0.0.42/job/"))
		case strings.HasPrefix(r.URL.Path, "/slurm/v0.0.42/job/"):
			fmt.Fprint(w, `{}`)
		default:
			h.ServeHTTP(w, r)
		}
	})
}

// TestVerifyNoVerdictFails: when every job still pends for Resources as
// the wait ends, no shape was shown to run, and verify does not pass the
// cluster: exit 1, a verify-job-no-verdict error per partition, and the
// summary counts the shapes without a verdict. --allow-pending accepts
// them: warnings, exit 0, the summary still says so.
func TestVerifyNoVerdictFails(t *testing.T) {
	spec, err := filepath.Abs("../../../examples/a4-training.yaml")
	if err != nil {
		t.Fatal(err)
	}
	const name = "projects/acme-ml-prod/locations/us-central1/modelDevelopmentClusters/train"
	for _, tc := range []struct {
		args []string
		code int
		want []string
	}{
		{nil, 1, []string{
			"a4-training.yaml:48:13: error: in partition train 11 of 11 job shapes have no verdict: their jobs still pended when the wait of 1ns ended, with reason Resources: train/a4/one-task, ",
			"hint: nothing shows that these shapes run",
			"  train/a4/one-task            still waiting (job 1, [PENDING] (reason Resources) after 1ns)\n",
			"slurmspec-deploy: cluster " + name + ": 2 live partitions, 4 live nodes; 22 jobs, 2 findings (2 errors); 22 of 22 shapes without a verdict\n"}},
		{[]string{"--allow-pending"}, 0, []string{
			"a4-training.yaml:57:13: warning: in partition preempt 11 of 11 job shapes have no verdict",
			"hint: accepted by --allow-pending",
			"Cluster " + name + ": 2 live partitions, 4 live nodes; 22 jobs, 2 findings; 22 of 22 shapes without a verdict (accepted by --allow-pending)\n"}},
	} {
		t.Run(fmt.Sprint(tc.args), func(t *testing.T) {
			backend := httptest.NewServer(pendingJobs(slurmrestd(10080, "UP")))
			defer backend.Close()
			double := &fakeslurmapi.Server{Cluster: name, Users: map[string]string{"ya29.alice": "alice"},
				Backend: fakeslurmapi.Backend{URL: backend.URL, Token: func(string, time.Duration) (string, error) { return "jwt", nil }}}
			api := httptest.NewServer(double)
			defer api.Close()
			t.Setenv("GOOGLE_OAUTH_ACCESS_TOKEN", "ya29.alice")
			t.Setenv("SLURMSPEC_SLURM_API_ENDPOINT", api.URL)
			var out bytes.Buffer
			args := append([]string{"verify", "--wait=1ns"}, tc.args...)
			code := cli.Run(append(args, spec), strings.NewReader(""), &out, &out)
			if code != tc.code {
				t.Errorf("exit %d, want %d:\n%s", code, tc.code, out.String())
			}
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out.String())
				}
			}
		})
	}
}
