package cli_test

import (
	"bytes"
	"context"
	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/lint/pipeline/pipelinetest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/slurmspec/slurmspec/cmd/slurmspec-deploy/cli"
	"github.com/slurmspec/slurmspec/deploy/artifacts"
	"github.com/slurmspec/slurmspec/lab/fakeslurmapi/apitest"
	"github.com/slurmspec/slurmspec/lab/localslurm"
	"github.com/slurmspec/slurmspec/lab/localslurm/slurmtest"
	"github.com/slurmspec/slurmspec/render/sacctmgr"
	"github.com/slurmspec/slurmspec/schema/accounting"
)

// TestAccountingOnRealSlurm runs slurmspec-deploy accounting plan and
// apply on the A4 example with its accounting file beside it, against a
// real slurmdbd of each release that serves v0.0.42, through the double
// of the Slurm Job API and the release's slurmrestd, as root (a Slurm
// administrator): plan prints what slurmspec accounting plan --current
// prints for a capture of sacctmgr show -P (exit 1); apply applies it and
// prints an empty plan (exit 0); plan is then empty (exit 0), and so is
// the plan against sacctmgr's own capture. A caller whose token the API
// does not know gets one line and exit 2. Then the changed file: apply
// refuses its removals without --allow-removals, and with it refuses the
// association removal before any change, naming the sacctmgr command;
// once that ran, apply applies the rest and sacctmgr shows the file.
func TestAccountingOnRealSlurm(t *testing.T) {
	for _, series := range []string{"24.11", "26.05"} {
		t.Run(series, func(t *testing.T) {
			o := localslurm.Options{Release: series, RestAPI: true, Accounting: true, Log: slurmtest.Log(t)}
			slurmtest.Require(t, func() error { return localslurm.PrereqsFor(o) })
			dir := t.TempDir()
			spec := filepath.Join(dir, "a4-training.yaml")
			for src, dst := range map[string]string{
				"../../../examples/a4-training.yaml":                       spec,
				"../../../examples/accounting/a4-training.accounting.yaml": filepath.Join(dir, "a4-training.accounting.yaml"),
			} {
				data, err := os.ReadFile(src)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(dst, data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			res, err := pipelinetest.Pipeline(t, series).Analyse(pipeline.File(spec, nil), pipeline.AnalyseOptions{})
			if err != nil || res.Cluster == nil || res.Failed() || res.Accounting == nil {
				t.Fatalf("the example does not compile with its accounting file: %v %v", err, res.Diags)
			}
			set, err := artifacts.Rendered(res.Cluster, series)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			const name = "projects/acme-ml-prod/locations/us-central1/modelDevelopmentClusters/train"
			cl := apitest.Start(ctx, t, o, set, name, map[string]string{"ya29.root": "root"})
			t.Setenv("SLURMSPEC_SLURM_API_ENDPOINT", cl.URL)
			run := func(token string, args ...string) (int, string) {
				t.Setenv("GOOGLE_OAUTH_ACCESS_TOKEN", token)
				var out bytes.Buffer
				code := cli.Run(append(args, spec), strings.NewReader(""), &out, &out)
				return code, out.String()
			}
			// captured is the plan slurmspec accounting plan --current
			// prints for a capture of sacctmgr show -P.
			captured := func() string {
				t.Helper()
				var b strings.Builder
				for _, line := range strings.Split(sacctmgr.CaptureCommand, "\n") {
					line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSuffix(line, "} > current.txt"), "{"))
					if line == "" {
						continue
					}
					f := strings.Fields(line)
					out, err := cl.Command(ctx, f[0], f[1:]...).CombinedOutput()
					if err != nil {
						t.Fatalf("%s: %v\n%s", line, err, out)
					}
					b.Write(out)
				}
				cur, err := sacctmgr.ParseCapture("capture", []byte(b.String()))
				if err != nil {
					t.Fatal(err)
				}
				file, l := accounting.Load(filepath.Join(dir, "a4-training.accounting.yaml"))
				if file == nil {
					t.Fatal(l)
				}
				p, err := sacctmgr.Compare(cur, sacctmgr.Declared(file))
				if err != nil {
					t.Fatal(err)
				}
				var w bytes.Buffer
				_ = p.Text(&w)
				return w.String()
			}

			want := captured()
			if code, out := run("ya29.root", "accounting", "plan"); code != 1 || out != want {
				t.Errorf("plan on the fresh database: exit %d, want 1; output:\n%s\nwant:\n%s", code, out, want)
			}
			if code, out := run("ya29.nobody", "accounting", "plan"); code != 2 || strings.Count(out, "\n") != 1 || !strings.Contains(out, "401") {
				t.Errorf("an unknown token: exit %d, want 2 and one line:\n%s", code, out)
			}
			code, out := run("ya29.root", "accounting", "apply")
			if code != 0 || !strings.HasPrefix(out, want) || !strings.HasSuffix(out, "Applied to cluster "+name+"; the database read again:\naccounting plan: no changes\n") {
				t.Errorf("apply: exit %d, want 0; output:\n%s", code, out)
			}
			if code, out := run("ya29.root", "accounting", "plan"); code != 0 || out != captured() {
				t.Errorf("plan after apply: exit %d, want 0; output:\n%s\nwant:\n%s", code, out, captured())
			}
			if p := captured(); !strings.Contains(p, "accounting plan: no changes") {
				t.Errorf("after apply, sacctmgr show -P is not what the file declares:\n%s", p)
			}

			// The changed file removes user carol and alice's account-wide
			// association (narrowed to partition train).
			data, err := os.ReadFile("../../../render/sacctmgr/testdata/a4-changed.accounting.yaml")
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "a4-training.accounting.yaml"), data, 0o644); err != nil {
				t.Fatal(err)
			}
			before := captured()
			code, out = run("ya29.root", "accounting", "apply")
			if code != 1 || !strings.HasSuffix(out, "or pass --allow-removals once their jobs are done (nothing applied)\n") || captured() != before {
				t.Errorf("apply with removals, without --allow-removals: exit %d, want 1 and nothing applied:\n%s", code, out)
			}
			code, out = run("ya29.root", "accounting", "apply", "--allow-removals")
			const rmAlice = "sacctmgr -i delete user alice account=vision"
			if code != 1 || !strings.Contains(out, "nothing applied: remove them on the login node with `"+rmAlice+"`, then apply again\n") || captured() != before {
				t.Errorf("apply removing an association: exit %d, want 1 and nothing applied:\n%s", code, out)
			}
			f := strings.Fields(rmAlice)
			if out, err := cl.Command(ctx, f[0], f[1:]...).CombinedOutput(); err != nil {
				t.Fatalf("%s: %v\n%s", rmAlice, err, out)
			}
			code, out = run("ya29.root", "accounting", "apply", "--allow-removals")
			if code != 0 || !strings.HasSuffix(out, "the database read again:\naccounting plan: no changes\n") || !strings.Contains(out, "- remove user carol") {
				t.Errorf("apply --allow-removals: exit %d, want 0:\n%s", code, out)
			}
			if p := captured(); !strings.Contains(p, "accounting plan: no changes") {
				t.Errorf("after applying the changed file, sacctmgr show -P is not what it declares:\n%s", p)
			}
		})
	}
}
