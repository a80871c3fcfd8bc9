// Command gen regenerates schema/catalog/catalog_gen.go from the
// reference data in schema/catalog/data. Run it from the package
// directory, normally through "go generate ./schema/catalog".
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/slurmspec/slurmspec/schema/catalog/internal/gencore"
)

func main() {
	dir := flag.String("dir", ".", "the schema/catalog package directory")
	flag.Parse()
	if err := run(*dir); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(dir string) error {
	src, err := gencore.Generate(filepath.Join(dir, "data"))
	if err != nil {
		return fmt.Errorf("generate catalog: %w", err)
	}
	out := filepath.Join(dir, gencore.OutputFile)
	if err := os.WriteFile(out, src, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", out, err)
	}
	return nil
}
