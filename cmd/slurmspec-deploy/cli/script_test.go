package cli_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/slurmspec/slurmspec/cmd/slurmspec-deploy/cli"
)

// TestMain lets the scripts run slurmspec-deploy in process.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"slurmspec-deploy": func() { os.Exit(cli.Main()) },
	})
}

// TestScripts runs ../testdata/script/*.txtar (SLURMSPEC_UPDATE=1
// rewrites their expected output).
func TestScripts(t *testing.T) {
	repo, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("..", "testdata", "script"),
		UpdateScripts:       os.Getenv("SLURMSPEC_UPDATE") == "1",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("NO_COLOR", "1")
			env.Setenv("REPO", repo)
			return nil
		},
	})
}
