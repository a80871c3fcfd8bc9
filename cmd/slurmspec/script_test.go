package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"cloud.google.com/go/filestore/apiv1/filestorepb"

	"github.com/slurmspec/slurmspec/cmd/slurmspec/cli"
	"github.com/slurmspec/slurmspec/lint/online"
	"github.com/slurmspec/slurmspec/lint/online/fakefilestore"
	"github.com/slurmspec/slurmspec/lint/online/onlinecmd"
)

// TestMain lets the scripts run slurmspec in process, as "exec slurmspec".
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

// TestScripts runs testdata/script/*.txtar: each script holds input specs,
// the commands to run and the expected output. SLURMSPEC_UPDATE=1 rewrites
// the expected output in place (read the diff before committing it).
func TestScripts(t *testing.T) {
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	endpoint := fakeFilestore(t)
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join(repo, "testdata", "script"),
		UpdateScripts:       os.Getenv("SLURMSPEC_UPDATE") == "1",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("NO_COLOR", "1")
			env.Setenv(online.EnvEndpoint, endpoint)
			env.Setenv("REPO", repo)          // for files of the repository a script checks as shipped
			env.Setenv("CI", os.Getenv("CI")) // in CI a script may not skip for a missing tool
			// The bundled examples, so that scripts test them as shipped.
			return copyDir(filepath.Join(repo, "examples"), filepath.Join(env.WorkDir, "examples"))
		},
	})
}

func copyDir(from, to string) error {
	return filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, p)
		if err != nil {
			return err
		}
		target := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}
