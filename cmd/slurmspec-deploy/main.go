// Command slurmspec-deploy deploys a cluster spec with Pulumi: preview, up
// and destroy of one stack through the Automation API. `slurmspec deploy`
// hands over to it; it is a binary of its own because it links the Pulumi
// SDK, which slurmspec must not (see deploy/dispatch).
package main

import (
	"os"

	"github.com/slurmspec/slurmspec/cmd/slurmspec-deploy/cli"
)

func main() { os.Exit(cli.Main()) }
