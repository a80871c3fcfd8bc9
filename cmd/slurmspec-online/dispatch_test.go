package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"cloud.google.com/go/filestore/apiv1/filestorepb"
	"google.golang.org/grpc/codes"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/lint/online"
	"github.com/slurmspec/slurmspec/lint/online/checker/fakefilestore"
	"github.com/slurmspec/slurmspec/lint/online/dispatch"
)

// helperDir is the directory of the slurmspec-online that TestMain put on
// PATH: this test binary, which runs as the helper (onlinecmd.Main, as
// main.go does) when invoked under that name, so that the tests go through
// a real process as `slurmspec lint --online` does.
func helperDir(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath(online.HelperName)
	if err != nil {
		t.Fatalf("TestMain put no %s on PATH: %v", online.HelperName, err)
	}
	return filepath.Dir(p)
}

const (
	example  = "../../examples/a4-training.yaml"
	homeName = "projects/acme-ml-prod/locations/us-central1-b/instances/home"
	homePath = "orchestratorSpec.slurmSpec.homeDirectoryStorage"
)

// setup puts the helper on PATH and points it at a fresh fake server.
func setup(t *testing.T) *fakefilestore.Server {
	t.Helper()
	t.Setenv("PATH", helperDir(t)+string(os.PathListSeparator)+os.Getenv("PATH"))
	srv := fakefilestore.New()
	addr, err := srv.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	t.Setenv(online.EnvEndpoint, addr)
	return srv
}

// valuePos returns the position of the value of the first line of file
// that holds key, as the loader reports it.
func valuePos(t *testing.T, file, key string) diag.Pos {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(data), "\n") {
		if j := strings.Index(line, key+": "); j >= 0 {
			// The value's range: the rest of the line (a plain scalar).
			start := diag.Pos{File: file, Line: i + 1, Col: j + len(key) + 3}
			return start.Through(diag.Pos{File: file, Line: i + 1, Col: len(strings.TrimRight(line, " ")) + 1})
		}
	}
	t.Fatalf("%s: no %s", file, key)
	return diag.Pos{}
}

// TestExampleReportsEveryMismatch is `slurmspec lint --online
// examples/a4-training.yaml` against a fake Filestore whose /home instance
// gets everything wrong that it can while still existing.
func TestExampleReportsEveryMismatch(t *testing.T) {
	srv := setup(t)
	inst := fakefilestore.Instance(homeName, "default")
	inst.State = filestorepb.Instance_REPAIRING
	inst.StatusMessage = "maintenance"
	inst.Tier = filestorepb.Instance_BASIC_HDD
	inst.Protocol = filestorepb.Instance_NFS_V4_1
	inst.FileShares[0].CapacityGb = 512
	srv.Put(inst)

	got, err := dispatch.Run(context.Background(), example, dispatch.Flags{Timeout: 5 * time.Second}.Args())
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	pos := valuePos(t, example, "home_directory_storage")
	want := map[string]diag.Severity{
		online.RuleCapacity:        diag.Warning,
		online.RuleNetworkMismatch: diag.Error,
		online.RuleNotReady:        diag.Warning,
		online.RuleProtocol:        diag.Warning,
		online.RuleTier:            diag.Warning,
	}
	for _, d := range got {
		t.Logf("%s: %s: %s [%s]", d.Pos, d.Severity, d.Message, d.Rule)
		sev, ok := want[d.Rule]
		if !ok {
			t.Errorf("unexpected finding %s", d)
			continue
		}
		delete(want, d.Rule)
		if d.Severity != sev || d.Pos != pos || d.Path != homePath || d.Hint == "" {
			t.Errorf("%s: got %s at %s (%s), want %s at %s (%s) with a hint", d.Rule, d.Severity, d.Pos, d.Path, sev, pos, homePath)
		}
	}
	for rule := range want {
		t.Errorf("no %s finding", rule)
	}
	if calls := srv.Calls(); len(calls) != 1 || calls[0] != homeName {
		t.Errorf("calls %v, want one for %s", calls, homeName)
	}
}

func TestExampleClean(t *testing.T) {
	srv := setup(t)
	srv.Put(fakefilestore.Instance(homeName, "ml-vpc"))
	got, err := dispatch.Run(context.Background(), example, nil)
	if err != nil || len(got) != 0 {
		t.Fatalf("Run = %v, %v; want nothing", got, err)
	}
}

func TestLocationAndNotFound(t *testing.T) {
	srv := setup(t)
	src, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	east := strings.Replace(homeName, "us-central1-b", "us-east1-b", 1)
	spec := strings.Replace(string(src), homeName, east, 1)
	spec = strings.Replace(spec, "    zone: us-central1-b\n", "    zone: us-central1-b\n    filestores: [projects/acme-ml-prod/locations/us-central1-b/instances/data]\n", 1)
	file := filepath.Join(t.TempDir(), "east.yaml")
	if err := os.WriteFile(file, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	srv.Put(fakefilestore.Instance(east, "ml-vpc"))

	got, err := dispatch.Run(context.Background(), file, []string{"--disable=placeholder,filestore-capacity"})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if len(got) != 2 {
		t.Fatalf("got %v, want a location mismatch and a missing instance", got)
	}
	home, data := got[1], got[0] // sorted by position: the pool comes first
	if home.Rule != online.RuleLocationMismatch || home.Pos != valuePos(t, file, "home_directory_storage") ||
		!strings.Contains(home.Message, "but the cluster is in region us-central1") || len(home.Related) != 1 {
		t.Errorf("home: %s %+v", home, home.Related)
	}
	if data.Rule != online.RuleNotFound || data.Path != "nodePools[0].filestores[0]" || data.Pos.Line != valuePos(t, file, "filestores").Line {
		t.Errorf("data: %s (%s)", data, data.Path)
	}
}

func TestStdin(t *testing.T) {
	srv := setup(t)
	inst := fakefilestore.Instance(homeName, "ml-vpc")
	inst.Tier = filestorepb.Instance_STANDARD
	srv.Put(inst)
	src, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	got, err := dispatch.RunStdin(context.Background(), src, []string{"--input-format=yaml"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Rule != online.RuleTier || got[0].Pos.File != "<stdin>" {
		t.Fatalf("got %v", got)
	}
}

// TestUnusableSpec checks that a spec the offline run rejects gives no
// online findings and no error: the offline findings say what is wrong.
func TestUnusableSpec(t *testing.T) {
	srv := setup(t)
	for name, src := range map[string]string{"syntax.yaml": "name: [", "schema.yaml": "nodePools: 3\n"} {
		file := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		if got, err := dispatch.Run(context.Background(), file, nil); err != nil || len(got) != 0 {
			t.Errorf("%s: Run = %v, %v; want nothing", name, got, err)
		}
	}
	if got, err := dispatch.Run(context.Background(), filepath.Join(t.TempDir(), "missing.yaml"), nil); err != nil || len(got) != 0 {
		t.Errorf("missing file: Run = %v, %v; want nothing", got, err)
	}
	if calls := srv.Calls(); len(calls) != 0 {
		t.Errorf("calls: %v", calls)
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name string
		fake func(*fakefilestore.Server)
		args []string
		kind online.Kind
		msg  string
	}{
		{name: "not found is a finding, not an error"},
		{name: "permission denied", fake: func(s *fakefilestore.Server) { s.Fail(homeName, codes.PermissionDenied, "denied") },
			kind: online.KindPermissionDenied, msg: "permission denied reading Filestore instance " + homeName + " (denied)"},
		{name: "quota", fake: func(s *fakefilestore.Server) { s.Fail(homeName, codes.ResourceExhausted, "Quota exceeded") },
			kind: online.KindQuota, msg: "Filestore API quota exhausted"},
		{name: "unauthenticated", fake: func(s *fakefilestore.Server) { s.Fail(homeName, codes.Unauthenticated, "invalid token") },
			kind: online.KindUnauthenticated, msg: "Google Cloud rejected the credentials"},
		{name: "timeout", fake: func(s *fakefilestore.Server) { s.Block() }, args: []string{"--online-timeout=300ms"},
			kind: online.KindTimeout, msg: "the Filestore API did not answer within 300ms"},
		{name: "bad flag", args: []string{"--bogus"}, kind: online.KindUsage, msg: "unknown flag: --bogus"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := setup(t)
			if tt.fake != nil {
				tt.fake(srv)
			}
			start := time.Now()
			got, err := dispatch.Run(context.Background(), example, tt.args)
			if elapsed := time.Since(start); elapsed > 5*time.Second {
				t.Errorf("Run took %s", elapsed)
			}
			if tt.msg == "" {
				if err != nil || len(got) != 1 || got[0].Rule != online.RuleNotFound {
					t.Fatalf("Run = %v, %v; want one %s", got, err, online.RuleNotFound)
				}
				return
			}
			if err == nil {
				t.Fatalf("Run = %v, nil; want an error", got)
			}
			t.Logf("%s: %v", online.KindOf(err), err)
			if k := online.KindOf(err); k != tt.kind {
				t.Errorf("kind %s, want %s", k, tt.kind)
			}
			if !strings.Contains(err.Error(), tt.msg) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q, want one line containing %q", err, tt.msg)
			}
		})
	}
}

func TestNoNetwork(t *testing.T) {
	setup(t)
	srv := fakefilestore.New()
	addr, err := srv.Start()
	if err != nil {
		t.Fatal(err)
	}
	srv.Stop()
	t.Setenv(online.EnvEndpoint, addr)
	_, err = dispatch.Run(context.Background(), example, nil)
	if online.KindOf(err) != online.KindNetwork || !strings.Contains(err.Error(), "cannot reach the Filestore API") {
		t.Fatalf("err = %v (kind %s), want network", err, online.KindOf(err))
	}
}

func TestNotInstalled(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := dispatch.Run(context.Background(), example, nil)
	if online.KindOf(err) != online.KindNotInstalled || !strings.Contains(err.Error(), "make install") {
		t.Fatalf("err = %v (kind %s), want not-installed", err, online.KindOf(err))
	}
}

// TestHelperCrash checks that a helper that dies prints one line, not its
// stack trace.
func TestHelperCrash(t *testing.T) {
	dir := t.TempDir()
	script := "#!/bin/sh\necho 'panic: boom' >&2\necho >&2\necho 'goroutine 1 [running]:' >&2\nexit 2\n"
	if err := os.WriteFile(filepath.Join(dir, online.HelperName), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	_, err := dispatch.Run(context.Background(), example, nil)
	if online.KindOf(err) != online.KindInternal || !strings.HasSuffix(err.Error(), "exit status 2: panic: boom") {
		t.Fatalf("err = %v (kind %s)", err, online.KindOf(err))
	}
}

func TestArgs(t *testing.T) {
	got := dispatch.Flags{Spec: []string{"--input-format=yaml", "--disable=a,b"}, Timeout: 3 * time.Second, MinHomeCapacityGiB: -1}.Args()
	want := []string{"--input-format=yaml", "--disable=a,b", "--online-timeout=3s", "--min-home-capacity-gib=-1"}
	if !slices.Equal(got, want) {
		t.Fatalf("Args = %q, want %q", got, want)
	}
	if got := (dispatch.Flags{}).Args(); len(got) != 0 {
		t.Fatalf("zero Flags give %q", got)
	}
}
