package verify

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/deploy/artifacts"
	"github.com/slurmspec/slurmspec/deploy/slurmapi"
	"github.com/slurmspec/slurmspec/lab/fakeslurmapi"
	"github.com/slurmspec/slurmspec/lab/fakeslurmapi/apitest"
	"github.com/slurmspec/slurmspec/lint/online"
)

// pendingSlurmrestd is a stand-in slurmrestd of the A4 example's cluster,
// as rendered (no drift), that takes every job and answers, for ever, that
// it pends with reason (for the jobs of partition train: trainReason).
func pendingSlurmrestd(t *testing.T, reason, trainReason string) http.Handler {
	t.Helper()
	part := func(name string, maxTime, tier int) map[string]any {
		return map[string]any{"name": name, "nodes": map[string]any{"configured": "train-a4-[0-3]", "total": 4},
			"maximums":  map[string]any{"time": map[string]any{"set": true, "number": maxTime}, "nodes": map[string]any{"infinite": true}},
			"defaults":  map[string]any{"time": map[string]any{"set": false}},
			"priority":  map[string]any{"tier": tier},
			"partition": map[string]any{"state": []string{"UP"}}}
	}
	var nodes []map[string]any
	for i := range 4 {
		nodes = append(nodes, map[string]any{"name": fmt.Sprintf("train-a4-%d", i), "cpus": 224, "real_memory": 3943792, "gres": "gpu:b200:8"})
	}
	var (
		mu          sync.Mutex
		next        int64
		partitionOf = map[string]string{}
	)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case r.URL.Path == "/slurm/v0.0.42/partitions":
			_ = json.NewEncoder(w).Encode(map[string]any{"partitions": []any{part("train", 10080, 10), part("preempt", 2880, 1)}})
		case r.URL.Path == "/slurm/v0.0.42/nodes":
			_ = json.NewEncoder(w).Encode(map[string]any{"nodes": nodes})
		case r.URL.Path == "/slurm/v0.0.42/job/submit":
			var req struct {
				Job struct{ Partition string } `json:"job"`
			}
			_ = json.NewDecoder(r.Body).Decode(&req)
			next++
			id := next
			partitionOf[fmt.Sprint(id)] = req.Job.Partition
			_ = json.NewEncoder(w).Encode(map[string]any{"job_id": id})
		case strings.HasPrefix(r.URL.Path, "/slurm/v0.0.42/job/") && r.Method == http.MethodGet:
			id := strings.TrimPrefix(r.URL.Path, "/slurm/v0.0.42/job/")
			why := reason
			if partitionOf[id] == "train" {
				why = trainReason
			}
			fmt.Fprintf(w, `{"jobs":[{"job_id":%s,"job_state":["PENDING"],"state_reason":%q}]}`, id, why)
		case strings.HasPrefix(r.URL.Path, "/slurm/v0.0.42/job/") && r.Method == http.MethodDelete:
			fmt.Fprint(w, `{}`)
		default:
			http.NotFound(w, r)
		}
	})
}

// TestNoVerdictIsNotAPass: a cluster (or an endpoint) on which every job
// pends for Resources until the wait ends shows no shape to run. Each
// partition gets a verify-job-no-verdict finding at its id naming its
// shapes, grouped by pending reason; it is an error (so verify exits 1),
// and a warning only with AllowPending. The report counts the shapes
// without a verdict.
func TestNoVerdictIsNotAPass(t *testing.T) {
	res, _ := a4(t)
	set, err := artifacts.Rendered(res.Cluster, "24.11")
	if err != nil {
		t.Fatal(err)
	}
	conf := set.Get("slurm.conf").Data
	const name = "projects/acme-ml-prod/locations/us-central1/modelDevelopmentClusters/train"
	for _, allow := range []bool{false, true} {
		t.Run(fmt.Sprintf("allow-pending=%v", allow), func(t *testing.T) {
			backend := httptest.NewServer(pendingSlurmrestd(t, "Resources", "Priority"))
			defer backend.Close()
			double := &fakeslurmapi.Server{Cluster: name, Users: map[string]string{"ya29.alice": "alice"},
				Backend: fakeslurmapi.Backend{URL: backend.URL, Token: func(string, time.Duration) (string, error) { return "jwt", nil }}}
			srv := httptest.NewServer(double)
			defer srv.Close()
			api := &slurmapi.Client{HTTP: apitest.Client("ya29.alice"), Endpoint: srv.URL, Cluster: name}
			r, err := Run(context.Background(), api, res.Cluster, conf, Options{Wait: time.Millisecond, Poll: time.Millisecond, AllowPending: allow})
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Verdicts) != 22 || r.NoVerdict() != 22 {
				t.Fatalf("%d verdicts, %d without a verdict; want 22 and 22", len(r.Verdicts), r.NoVerdict())
			}
			sev := diag.Error
			if allow {
				sev = diag.Warning
			}
			var got []string
			for _, d := range r.Diags {
				got = append(got, fmt.Sprintf("%s %s %s: %s [%s]", d.Pos, d.Path, d.Severity, d.Message, d.Rule))
				if d.Rule != online.RuleVerifyJobNoVerdict || d.Severity != sev || d.Hint == "" {
					t.Errorf("finding %s %s %q, want %s %s with a hint", d.Rule, d.Severity, d.Hint, online.RuleVerifyJobNoVerdict, sev)
				}
			}
			want := []string{
				"../../examples/a4-training.yaml:48:13 orchestratorSpec.slurmSpec.partitions[0].id " + sev.String() + ": in partition train 11 of 11 job shapes have no verdict: their jobs still pended when the wait of 1ms ended, with reason Priority: train/a4/one-task, train/a4/one-task+sized, train/a4/one-gpu, train/a4/one-gpu+sized, train/a4/all-gpus, train/a4/all-gpus+sized, train/a4/whole-node, train/a4/whole-node+sized, train/a4/two-nodes, train/a4/two-nodes+sized, train/a4/max-time [verify-job-no-verdict]",
				"../../examples/a4-training.yaml:57:13 orchestratorSpec.slurmSpec.partitions[1].id " + sev.String() + ": in partition preempt 11 of 11 job shapes have no verdict: their jobs still pended when the wait of 1ms ended, with reason Resources: preempt/a4/one-task, preempt/a4/one-task+sized, preempt/a4/one-gpu, preempt/a4/one-gpu+sized, preempt/a4/all-gpus, preempt/a4/all-gpus+sized, preempt/a4/whole-node, preempt/a4/whole-node+sized, preempt/a4/two-nodes, preempt/a4/two-nodes+sized, preempt/a4/max-time [verify-job-no-verdict]",
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}
