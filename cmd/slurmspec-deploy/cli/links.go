package cli

import (
	"os"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/load/linkflag"
	"github.com/slurmspec/slurmspec/lint/pipeline"
)

// checkPaths applies slurmspec's rule for the paths a command is given
// (compiler/load/linkflag, --follow-symlinks) to the spec and --config:
// without the flag, neither may pass through a symbolic link the
// checkout controls. What the pipeline finds from the spec (its
// .slurmspec.yaml, its accounting file) is read without following links
// by the loader itself.
func checkPaths(links *linkflag.Flag, file string, spec pipeline.Options) error {
	if err := links.File("", file); err != nil {
		return failed("%s", err.Error())
	}
	if err := links.File("--config", spec.ConfigFile); err != nil {
		return failed("%s", err.Error())
	}
	return nil
}

// checkBackend applies the rule to a self-managed state directory,
// file://DIR from --backend or PULUMI_BACKEND_URL, which Pulumi reads and
// writes: a link there could put the stack's state, and its secrets,
// outside the checkout.
func checkBackend(links *linkflag.Flag, backend string) error {
	what := "--backend"
	if backend == "" {
		what, backend = "PULUMI_BACKEND_URL", os.Getenv("PULUMI_BACKEND_URL")
	}
	dir, ok := strings.CutPrefix(backend, "file://")
	if !ok {
		return nil
	}
	dir, _, _ = strings.Cut(dir, "?") // the backend's options
	if err := links.Dir(what, dir); err != nil {
		return failed("%s", err.Error())
	}
	return nil
}
