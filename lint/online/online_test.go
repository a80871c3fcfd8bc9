package online_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/diag/ids"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/lint/online"
	"github.com/slurmspec/slurmspec/lint/rules"
)

func TestRulesValid(t *testing.T) {
	rs := online.Entries()
	// The catalog lists them with the offline rules: ids must not clash.
	if _, err := ids.New(lint.Entries(rules.All()), rs); err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if r.Stage != ids.Online || !strings.Contains(r.Doc, "slurmspec lint --online") || !strings.Contains(r.Doc, "Bad:") || !strings.Contains(r.Doc, "Good:") {
			t.Errorf("%s: stage %s, or its doc does not say it is an online rule or lacks a Bad: and a Good: example", r.ID, r.Stage)
		}
	}
}

func TestKinds(t *testing.T) {
	for k := online.KindOther; k <= online.KindInternal; k++ {
		if got := online.ParseKind(k.String()); got != k {
			t.Errorf("ParseKind(%q) = %v, want %v", k.String(), got, k)
		}
	}
	if online.ParseKind("nonsense") != online.KindOther || online.Kind(99).String() != "error" {
		t.Error("unknown kinds are not KindOther")
	}
	base := errors.New("base")
	err := fmt.Errorf("wrapped: %w", online.Errorf(online.KindQuota, base, "quota\n  exhausted\n"))
	if online.KindOf(err) != online.KindQuota || !errors.Is(err, base) || err.Error() != "wrapped: quota; exhausted" {
		t.Errorf("KindOf/Unwrap/OneLine: %v %v", online.KindOf(err), err)
	}
	if online.KindOf(base) != online.KindOther || online.KindOf(nil) != -1 {
		t.Error("KindOf of plain and nil errors")
	}
}

// TestMainBinaryHasNoGRPC checks that the offline binary, and the packages
// it imports for --online, do not link gRPC or the Filestore client, whose
// package initialisers would slow every offline run. The helper must.
func TestMainBinaryHasNoGRPC(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	heavy := []string{"google.golang.org/grpc", "cloud.google.com/go/filestore"}
	for _, pkg := range []string{"./cmd/slurmspec", "./lint/online", "./lint/online/dispatch"} {
		deps := goListDeps(t, pkg)
		for _, d := range deps {
			for _, h := range heavy {
				if d == h || strings.HasPrefix(d, h+"/") {
					t.Errorf("%s depends on %s", pkg, d)
				}
			}
		}
	}
	// cmd/slurmspec-online is a module of its own: list it from there.
	deps := strings.Join(goListDepsIn(t, "../../cmd/slurmspec-online", "."), "\n")
	for _, h := range heavy {
		if !strings.Contains(deps, h) {
			t.Errorf("./cmd/slurmspec-online does not depend on %s: is the test looking at the right thing?", h)
		}
	}
}

func goListDeps(t *testing.T, pkg string) []string {
	t.Helper()
	return goListDepsIn(t, "../..", pkg)
}

// goListDepsIn lists pkg's dependencies with the go command run in dir.
func goListDepsIn(t *testing.T, dir, pkg string) []string {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", pkg)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("go list -deps %s: %v\n%s", pkg, err, ee.Stderr)
		}
		t.Fatalf("go list -deps %s: %v", pkg, err)
	}
	return strings.Fields(string(out))
}

// TestDocsListEveryRule keeps docs/online.md in step with Entries.
func TestDocsListEveryRule(t *testing.T) {
	data, err := os.ReadFile("../../docs/online.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	for _, r := range online.Entries() {
		if !strings.Contains(doc, "\n### "+r.ID+"\n") || !strings.Contains(doc, fmt.Sprintf("| [%s](#%s) | %s |", r.ID, r.ID, r.Severity)) {
			t.Errorf("docs/online.md lacks a table row or a section for %s (%s)", r.ID, r.Severity)
		}
	}
	for _, flag := range []string{"--online-timeout", "--min-home-capacity-gib", online.EnvEndpoint} {
		if !strings.Contains(doc, flag) {
			t.Errorf("docs/online.md does not mention %s", flag)
		}
	}
}

// TestVerifyEntries checks the ids of `slurmspec verify`: catalogued
// beside the others without a clash, each saying where it comes from, and
// each listed in docs/verify.md.
func TestVerifyEntries(t *testing.T) {
	if _, err := ids.New(lint.Entries(rules.All()), online.Entries(), online.VerifyEntries()); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("../../docs/verify.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range online.VerifyEntries() {
		if r.Stage != ids.Online || !strings.HasPrefix(r.ID, "verify-") || !strings.Contains(r.Doc, "`slurmspec verify`") {
			t.Errorf("%s: stage %s, or its id or doc does not say it comes from slurmspec verify", r.ID, r.Stage)
		}
		if !strings.Contains(string(data), fmt.Sprintf("| `%s` | %s |", r.ID, r.Severity)) {
			t.Errorf("docs/verify.md lacks a table row for %s (%s)", r.ID, r.Severity)
		}
	}
}
