package main

import (
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
