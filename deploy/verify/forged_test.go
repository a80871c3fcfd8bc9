package verify

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/slurmspec/slurmspec/deploy/slurmapi"
	"github.com/slurmspec/slurmspec/render/jobshapes"
)

// stateServer is a Slurm Job API that accepts every job as job 7 and then
// answers with the given job, as slurmrestd's v0.0.42 job list.
func stateServer(t *testing.T, job string) *slurmapi.Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Method, Path string }
		_ = json.NewDecoder(r.Body).Decode(&req)
		body := `{}`
		switch {
		case strings.HasSuffix(req.Path, "/job/submit"):
			body = `{"job_id":7}`
		case req.Method == "HTTP_METHOD_GET":
			body = `{"jobs":[` + job + `]}`
		}
		fmt.Fprintf(w, `{"status":200,"structuredBody":%s}`, body)
	}))
	t.Cleanup(srv.Close)
	return &slurmapi.Client{HTTP: srv.Client(), Endpoint: srv.URL, Cluster: "projects/p/locations/r/modelDevelopmentClusters/c"}
}

// TestJobStateFlagsDoNotHideFailure: slurmrestd gives a job's base state
// and its flags in one list; a job that failed while its nodes still clean
// up is ["NODE_FAIL","COMPLETING"], and a job whose nodes failed to boot
// may still carry CONFIGURING. Such a job did not run: its verdict is
// failed, never "runs". An answer about another job than the one
// submitted is an error, not a verdict.
func TestJobStateFlagsDoNotHideFailure(t *testing.T) {
	j := job{shape: jobshapes.Shape{Partition: "p"}}
	for _, tc := range []struct {
		job  string
		want Outcome
	}{
		{`{"job_id":7,"job_state":["NODE_FAIL","COMPLETING"]}`, Failed},
		{`{"job_id":7,"job_state":["BOOT_FAIL","CONFIGURING"]}`, Failed},
		{`{"job_id":7,"job_state":["CANCELLED","COMPLETING"]}`, Failed},
		{`{"job_id":7,"job_state":["TIMEOUT","COMPLETING"]}`, Failed},
		{`{"job_id":7,"job_state":["RUNNING","CONFIGURING"]}`, Runs},
		{`{"job_id":7,"job_state":["COMPLETED"]}`, Runs},
	} {
		v, err := runShape(context.Background(), stateServer(t, tc.job), j, time.Millisecond, time.Millisecond)
		if err != nil || v.Outcome != tc.want {
			t.Errorf("%s: %v, %v; want %v", tc.job, v.Outcome, err, tc.want)
		}
	}
	if v, err := runShape(context.Background(), stateServer(t, `{"job_id":8,"job_state":["RUNNING"]}`), j, time.Millisecond, time.Millisecond); err == nil {
		t.Errorf("an answer about job 8 for job 7: verdict %v, want an error", v.Outcome)
	}
}
