// Command slurmspec-online runs slurmspec's online Filestore checks on one
// spec and prints their findings as JSON. `slurmspec lint --online` runs it;
// it is a separate binary so that the main slurmspec binary does not link
// gRPC and the Filestore client. See docs/online.md and package
// lint/online/checker/onlinecmd.
package main

import (
	"os"

	"github.com/slurmspec/slurmspec/lint/online/checker/onlinecmd"
)

func main() { os.Exit(onlinecmd.Main()) }
