// Command descgen writes descriptions_gen.go (go generate ./schema/catalog).
package main

import (
	"fmt"
	"os"

	"github.com/slurmspec/slurmspec/schema/catalog/internal/descgen"
)

func main() {
	src, err := descgen.Generate("data")
	if err == nil {
		err = os.WriteFile(descgen.OutputFile, src, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "descgen:", err)
		os.Exit(1)
	}
}
