package main

import (
	"os"
	"path/filepath"
	"testing"

	"cloud.google.com/go/filestore/apiv1/filestorepb"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/slurmspec/slurmspec/cmd/slurmspec/cli"
	"github.com/slurmspec/slurmspec/lint/online"
	"github.com/slurmspec/slurmspec/lint/online/checker/fakefilestore"
	"github.com/slurmspec/slurmspec/lint/online/checker/onlinecmd"
)

// TestMain lets the scripts and the dispatch tests run slurmspec and
// slurmspec-online as commands on PATH ("exec slurmspec-online" runs this
// binary as the helper).
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"slurmspec":        func() { os.Exit(cli.Main()) },
		"slurmspec-online": func() { os.Exit(onlinecmd.Main()) },
	})
}

// fakeFilestore serves the Filestore API on loopback for the scripts: the
// a4-training example's /home instance exists but is wrong in every way
// lint --online can see; every other instance is not found.
func fakeFilestore(t *testing.T) string {
	srv := fakefilestore.New()
	inst := fakefilestore.Instance("projects/acme-ml-prod/locations/us-central1-b/instances/home", "default")
	inst.State = filestorepb.Instance_REPAIRING
	inst.Tier = filestorepb.Instance_BASIC_HDD
	inst.FileShares[0].CapacityGb = 512
	srv.Put(inst)
	addr, err := srv.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	return addr
}

// TestScripts runs testdata/script/*.txtar, the `lint --online` scripts
// (cmd/slurmspec runs the others the same way), against the fake
// Filestore. SLURMSPEC_UPDATE=1 rewrites the expected output in place.
func TestScripts(t *testing.T) {
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	endpoint := fakeFilestore(t)
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		UpdateScripts:       os.Getenv("SLURMSPEC_UPDATE") == "1",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("NO_COLOR", "1")
			env.Setenv(online.EnvEndpoint, endpoint)
			// The bundled examples, so that scripts test them as shipped.
			return os.CopyFS(filepath.Join(env.WorkDir, "examples"), os.DirFS(filepath.Join(repo, "examples")))
		},
	})
}
