package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/slurmspec/slurmspec/cmd/slurmspec/cli"
)

// TestMain lets the scripts run slurmspec in process, as "exec slurmspec",
// and removes the shared slurmspec binary when the tests end.
func TestMain(m *testing.M) {
	testscript.Main(afterRun{m: m, after: sharedCLI.remove}, map[string]func(){
		"slurmspec": func() { os.Exit(cli.Main()) },
	})
}

// afterRun runs after once the tests have run.
type afterRun struct {
	m     *testing.M
	after func()
}

// Run runs the tests, then after.
func (a afterRun) Run() int {
	defer a.after()
	return a.m.Run()
}

// TestScripts runs testdata/script/*.txtar: each script holds input specs,
// the commands to run and the expected output. SLURMSPEC_UPDATE=1 rewrites
// the expected output in place (read the diff before committing it).
// The scripts of `lint --online` are in cmd/slurmspec-online's module,
// which links the Filestore client and its fake.
func TestScripts(t *testing.T) {
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join(repo, "testdata", "script"),
		UpdateScripts:       os.Getenv("SLURMSPEC_UPDATE") == "1",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("NO_COLOR", "1")
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
