// Command pulumi-resource-gcp is the test double of the pulumi-gcp
// provider plugin (package fakegcp), for the deploy end-to-end tests:
//
//	go -C deploy/pulumi build -o /tmp/pulumi-resource-gcp ./pulumitest/fakegcp/pulumi-resource-gcp
//	pulumi plugin install resource gcp v10.5.0 --file /tmp/pulumi-resource-gcp
package main

import (
	"fmt"
	"os"

	"github.com/slurmspec/slurmspec/deploy/pulumi/pulumitest/fakegcp"
)

func main() {
	if err := fakegcp.Main(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
