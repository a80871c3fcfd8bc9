package slurmapi_test

import (
	"bytes"
	"context"
	"errors"
	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/lint/pipeline/pipelinetest"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/slurmspec/slurmspec/deploy/artifacts"
	"github.com/slurmspec/slurmspec/deploy/slurmapi"
	"github.com/slurmspec/slurmspec/lab/fakeslurmapi/apitest"
	"github.com/slurmspec/slurmspec/lab/localslurm"
	"github.com/slurmspec/slurmspec/lab/localslurm/slurmtest"
	"github.com/slurmspec/slurmspec/render/sacctmgr"
	"github.com/slurmspec/slurmspec/schema/accounting"
)

// TestAccountingOnRealSlurm reads the accounting database of a real
// slurmdbd through the double of the Slurm Job API and the release's real
// slurmrestd, as root (SlurmUser, a Slurm administrator), and plans the A4
// example's accounting file against it: the plan equals the plan against
// a capture of sacctmgr show -P of the same database, on the fresh
// database, on one where sacctmgr set every field a plan compares to a
// value other than its default, and after the plan's script ran (both
// empty).
func TestAccountingOnRealSlurm(t *testing.T) {
	for _, series := range []string{"24.11", "26.05"} {
		t.Run(series, func(t *testing.T) {
			t.Parallel()
			o := localslurm.Options{Release: series, RestAPI: true, Accounting: true, Log: slurmtest.Log(t)}
			slurmtest.Require(t, func() error { return localslurm.PrereqsFor(o) })
			res, err := pipelinetest.Pipeline(t, series).Analyse(pipeline.File("../../examples/a4-training.yaml", nil), pipeline.AnalyseOptions{})
			if err != nil || res.Cluster == nil || res.Failed() {
				t.Fatalf("the example does not compile: %v %v", err, res.Diags)
			}
			file, l := accounting.Load("../../examples/accounting/a4-training.accounting.yaml")
			if file == nil {
				t.Fatal(l)
			}
			want := sacctmgr.Declared(file)
			changed, l := accounting.Load("../../render/sacctmgr/testdata/a4-changed.accounting.yaml")
			if changed == nil {
				t.Fatal(l)
			}
			set, err := artifacts.Rendered(res.Cluster, series)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			name := "projects/acme-ml-prod/locations/us-central1/modelDevelopmentClusters/train"
			cl := apitest.Start(ctx, t, o, set, name, map[string]string{"ya29.root": "root"})
			sh := func(args ...string) string {
				t.Helper()
				out, err := cl.Command(ctx, args[0], args[1:]...).CombinedOutput()
				if err != nil {
					t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
				}
				return string(out)
			}
			api := &slurmapi.Client{HTTP: apitest.Client("ya29.root"), Endpoint: cl.URL, Cluster: name}

			// plans returns the plan against the API's reading and the
			// plan against a capture of sacctmgr show -P, as text.
			plans := func(stage string, want *sacctmgr.State) (live, captured string, empty bool) {
				t.Helper()
				cur, err := api.Accounting(ctx)
				if err != nil {
					t.Fatalf("%s: reading the database through the API: %v", stage, err)
				}
				var b strings.Builder
				for _, line := range strings.Split(sacctmgr.CaptureCommand, "\n") {
					line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSuffix(line, "} > current.txt"), "{"))
					if line != "" {
						b.WriteString(sh(strings.Fields(line)...))
					}
				}
				capt, err := sacctmgr.ParseCapture("capture", []byte(b.String()))
				if err != nil {
					t.Fatalf("%s: %v", stage, err)
				}
				text := func(s *sacctmgr.State) (string, bool) {
					p, err := sacctmgr.Compare(s, want)
					if err != nil {
						t.Fatalf("%s: %v", stage, err)
					}
					var w bytes.Buffer
					_ = p.Text(&w)
					return w.String(), p.Empty()
				}
				live, empty = text(cur)
				captured, _ = text(capt)
				if live != captured {
					t.Errorf("%s: the plan against the API's reading differs from the plan against sacctmgr show -P:\n%s\nwant:\n%s\ncapture:\n%s", stage, live, captured, b.String())
				}
				return live, captured, empty
			}

			if live, _, empty := plans("fresh database", want); empty {
				t.Errorf("fresh database: the plan is empty:\n%s", live)
			}
			// Every field a plan compares, set away from its default.
			for _, args := range [][]string{
				{"-i", "add", "qos", "urgent", "Priority=10", "Preempt=normal", "PreemptMode=suspend,gang", "Flags=DenyOnLimit,NoDecay,PartitionTimeLimit", "UsageFactor=0.25", "GrpTRES=cpu=8", "GrpJobs=5", "MaxTRES=node=2", "MaxTRESPerUser=cpu=16,mem=1G", "MaxWall=1-00:00:00", "MaxJobsPerUser=2", "MaxSubmitJobsPerUser=7"},
				{"-i", "add", "qos", "scavenger", "PreemptMode=cancel"},
				{"-i", "add", "account", "research", "Description=research teams", "Fairshare=60", "QOS=normal,urgent", "DefaultQOS=normal", "GrpTRES=cpu=100", "GrpJobs=9", "MaxTRES=node=3", "MaxWall=60", "MaxJobs=4", "MaxSubmitJobs=8"},
				{"-i", "add", "account", "vision", "Parent=research", "Fairshare=30"},
				{"-i", "add", "user", "alice", "DefaultAccount=vision", "AdminLevel=Operator"},
				{"-i", "add", "user", "bob", "Account=research", "Partition=train", "Fairshare=3", "QOS=urgent", "DefaultQOS=urgent"},
			} {
				sh(append([]string{"sacctmgr"}, args...)...)
			}
			live, _, _ := plans("every field set", want)
			t.Logf("plan after sacctmgr set every field:\n%s", live)
			apply := func(f *accounting.File) {
				t.Helper()
				cur, err := api.Accounting(ctx)
				if err != nil {
					t.Fatal(err)
				}
				plan, err := sacctmgr.Compare(cur, sacctmgr.Declared(f))
				if err != nil {
					t.Fatal(err)
				}
				calls := len(cl.Double.Calls())
				err = api.ApplyAccounting(ctx, plan, "train")
				var rm *slurmapi.AssocRemovalError
				if errors.As(err, &rm) {
					// Refused before any call; removed as the error says.
					if n := len(cl.Double.Calls()); n != calls {
						t.Errorf("the refused plan made %d calls", n-calls)
					}
					t.Logf("refused: %v", err)
					for _, c := range rm.Commands {
						sh(append([]string{"sh", "-c"}, strings.Trim(c, "`"))...)
					}
					if cur, err = api.Accounting(ctx); err != nil {
						t.Fatal(err)
					}
					if plan, err = sacctmgr.Compare(cur, sacctmgr.Declared(f)); err != nil {
						t.Fatal(err)
					}
					err = api.ApplyAccounting(ctx, plan, "train")
				}
				if err != nil {
					t.Fatalf("applying %s through the API: %v", filepath.Base(f.Name), err)
				}
			}
			apply(file)
			if live, _, empty := plans("after applying through the API", want); !empty {
				t.Errorf("after applying the plan through the API, the plan is not empty:\n%s", live)
			}
			// The changed file: limits tighten, an account moves, a user's
			// association narrows to a partition, a user leaves, a QOS
			// and an account arrive.
			apply(changed)
			if live, _, empty := plans("after applying the changed file through the API", sacctmgr.Declared(changed)); !empty {
				t.Errorf("after applying the changed file through the API, the plan is not empty:\n%s", live)
			}
			for _, c := range cl.Double.Calls() {
				if c.User != "root" || c.Status != http.StatusOK {
					t.Errorf("call %s %s as %s: %d", c.Method, c.Path, c.User, c.Status)
				}
			}
		})
	}
}
