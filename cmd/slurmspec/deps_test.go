package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestStartupDeps keeps out of the slurmspec binary the packages whose
// initialisers cost start-up time on every lint (docs/performance.md):
// cuecontext and the encoders of its @embed injection (compiler/cuectx
// makes CUE contexts without them), CUE's tool/* builtins, and the
// Filestore client, which lives in slurmspec-online. (The Pulumi SDK and
// gRPC are kept out by deploy/dispatch's TestNoSDKInSlurmspec.)
func TestStartupDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	banned := []string{
		"cuelang.org/go/cue/cuecontext",
		"cuelang.org/go/cue/inject/",
		"cuelang.org/go/pkg/tool",
		"google.golang.org/protobuf/",
		"cloud.google.com/go/",
	}
	deps := strings.Fields(string(out))
	if len(deps) < 50 {
		t.Fatalf("go list -deps listed %d packages; want the whole dependency graph:\n%s", len(deps), out)
	}
	for _, dep := range deps {
		for _, b := range banned {
			if dep == b || strings.HasPrefix(dep, b) {
				t.Errorf("slurmspec links %s", dep)
			}
		}
	}
}

// TestHookBuildsNoSDK keeps the root module light: pre-commit's golang
// hook runs `go install ./...` in the repository root, which builds every
// package of the root module (not of the nested modules under
// cmd/slurmspec-deploy, cmd/slurmspec-online, deploy/pulumi and
// lint/online/checker). None of them may need the Pulumi SDK, gRPC or the
// Filestore client, and the root go.mod must not require them.
func TestHookBuildsNoSDK(t *testing.T) {
	// GOWORK=off: a contributor's go.work (docs/architecture.md) would add
	// the helpers' modules to the graph; pre-commit's clone has none.
	cmd := exec.Command("go", "list", "-deps", "./...")
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps ./...: %v\n%s", err, out)
	}
	cmd = exec.Command("go", "list", "-m", "all")
	cmd.Env = append(os.Environ(), "GOWORK=off")
	mods, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list -m all: %v\n%s", err, mods)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 100 {
		t.Fatalf("go list -deps ./... listed %d packages; want the root module's whole graph:\n%s", len(deps), out)
	}
	heavy := []string{"github.com/pulumi/", "google.golang.org/grpc", "cloud.google.com/go/filestore", "google.golang.org/api"}
	for _, dep := range append(deps, strings.Fields(string(mods))...) {
		for _, h := range heavy {
			if strings.HasPrefix(dep, h) {
				t.Errorf("the root module (go install ./...) needs %s", dep)
			}
		}
	}
}

// TestRootInstallableByVersion keeps `go install
// github.com/slurmspec/slurmspec/cmd/slurmspec@vX.Y.Z` possible: the go
// command refuses it when the module's go.mod has replace or exclude
// directives (the nested helper modules have replace directives, and so
// are installed from a clone).
func TestRootInstallableByVersion(t *testing.T) {
	cmd := exec.Command("go", "mod", "edit", "-json")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go mod edit -json: %v", err)
	}
	var mod struct {
		Module  struct{ Path string }
		Replace []any
		Exclude []any
	}
	if err := json.Unmarshal(out, &mod); err != nil {
		t.Fatal(err)
	}
	if mod.Module.Path != "github.com/slurmspec/slurmspec" {
		t.Fatalf("read the go.mod of %q", mod.Module.Path)
	}
	if len(mod.Replace) > 0 || len(mod.Exclude) > 0 {
		t.Errorf("the root go.mod has replace %v / exclude %v: go install …@version would refuse it", mod.Replace, mod.Exclude)
	}
}

// TestCmdInstallsSlurmspecOnly: `go install ./cmd/...` in a clone installs
// slurmspec and nothing else (no developer tool such as benchcmp, which
// lives in tools/; the helpers are nested modules, installed by make
// install).
func TestCmdInstallsSlurmspecOnly(t *testing.T) {
	cmd := exec.Command("go", "list", "-f", `{{if eq .Name "main"}}{{.ImportPath}}{{end}}`, "./cmd/...")
	cmd.Dir = "../.."
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list ./cmd/...: %v\n%s", err, out)
	}
	if got := strings.Fields(string(out)); len(got) != 1 || got[0] != "github.com/slurmspec/slurmspec/cmd/slurmspec" {
		t.Errorf("go install ./cmd/... would install %q; want slurmspec only", got)
	}
}
