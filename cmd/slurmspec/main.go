// Command slurmspec lints and renders Slurm cluster specs for Google Cloud
// training clusters (ModelDevelopmentCluster).
package main

import (
	"os"

	"github.com/slurmspec/slurmspec/cmd/slurmspec/cli"
)

func main() { os.Exit(cli.Main()) }
