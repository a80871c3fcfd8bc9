package onlinecmd_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"cloud.google.com/go/filestore/apiv1/filestorepb"
	"google.golang.org/grpc/codes"

	"github.com/slurmspec/slurmspec/compiler/buildinfo"
	"github.com/slurmspec/slurmspec/lint/format"
	"github.com/slurmspec/slurmspec/lint/online"
	"github.com/slurmspec/slurmspec/lint/online/checker"
	"github.com/slurmspec/slurmspec/lint/online/checker/fakefilestore"
	"github.com/slurmspec/slurmspec/lint/online/checker/onlinecmd"
)

const (
	example  = "../../../../examples/a4-training.yaml"
	homeName = "projects/acme-ml-prod/locations/us-central1-b/instances/home"
)

func start(t *testing.T) (*fakefilestore.Server, checker.Options) {
	t.Helper()
	srv := fakefilestore.New()
	addr, err := srv.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	return srv, checker.Options{ClientOptions: fakefilestore.ClientOptions(addr)}
}

func run(t *testing.T, opt checker.Options, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = onlinecmd.Run(context.Background(), args, strings.NewReader(""), &out, &errOut, opt)
	return code, out.String(), errOut.String()
}

func TestFindingsAsJSON(t *testing.T) {
	srv, opt := start(t)
	inst := fakefilestore.Instance(homeName, "ml-vpc")
	inst.FileShares[0].CapacityGb = 2048
	srv.Put(inst)
	code, stdout, stderr := run(t, opt, "--min-home-capacity-gib=4096", "--online-timeout=2s", example)
	if code != onlinecmd.ExitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var rep format.JSONReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if len(rep.Files) != 1 || rep.Files[0].File != example || len(rep.Files[0].Diagnostics) != 1 ||
		rep.Files[0].Diagnostics[0].Rule != online.RuleCapacity || rep.Summary.Warnings != 1 {
		t.Fatalf("report:\n%s", stdout)
	}
}

func TestFailure(t *testing.T) {
	srv, opt := start(t)
	srv.Fail(homeName, codes.PermissionDenied, "denied")
	code, stdout, stderr := run(t, opt, example)
	if code != onlinecmd.ExitError {
		t.Fatalf("exit %d", code)
	}
	var rep onlinecmd.ErrorReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || rep.Error.Kind != "permission-denied" || rep.Version != format.JSONVersion {
		t.Fatalf("stdout %q (%v)", stdout, err)
	}
	if strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "slurmspec-online: permission denied reading Filestore instance") {
		t.Fatalf("stderr %q, want one line", stderr)
	}
}

func TestUsage(t *testing.T) {
	_, opt := start(t)
	for _, args := range [][]string{{}, {"a.yaml", "b.yaml"}, {"--online-timeout=0s", example}, {"--input-format=xml", example}, {"--nope", example}} {
		code, stdout, stderr := run(t, opt, args...)
		var rep onlinecmd.ErrorReport
		if code != onlinecmd.ExitError || json.Unmarshal([]byte(stdout), &rep) != nil || rep.Error.Kind != "usage" || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
	}
	code, stdout, _ := run(t, opt, "--help")
	if code != onlinecmd.ExitOK || !strings.Contains(stdout, "--online-timeout") {
		t.Errorf("--help: exit %d\n%s", code, stdout)
	}
	code, stdout, _ = run(t, opt, "--version")
	if code != onlinecmd.ExitOK || stdout != buildinfo.Line("slurmspec-online") {
		t.Errorf("--version: exit %d, %q", code, stdout)
	}
}

func TestStdinAndTimeout(t *testing.T) {
	srv, opt := start(t)
	srv.Put(&filestorepb.Instance{Name: homeName, State: filestorepb.Instance_READY})
	srv.Block()
	src, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	start := time.Now()
	code := onlinecmd.Run(context.Background(), []string{"--online-timeout=200ms", "--input-format=yaml", "-"},
		bytes.NewReader(src), &out, &errOut, opt)
	if code != onlinecmd.ExitError || !strings.Contains(out.String(), `"kind": "timeout"`) || time.Since(start) > 3*time.Second {
		t.Fatalf("exit %d after %s\n%s%s", code, time.Since(start), out.String(), errOut.String())
	}
}
