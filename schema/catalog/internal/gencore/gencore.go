// Package gencore turns the reference data in schema/catalog/data into the
// Go source of schema/catalog/catalog_gen.go. It is shared by the
// generator command (internal/gen) and by the test that checks the generated
// file is current.
//
// Generate runs one step per data file, each in its own source file:
// releases.go (releases.tsv, the list of Slurm series), keys.go (the key
// tables and status_history.tsv), enums.go, overrides.go, kinds.go,
// plugins.go (debian_plugins.tsv) and crosscheck.go; emit.go writes the Go
// source and model.go holds the types they share.
package gencore

import (
	"encoding/csv"
	"errors"
	"fmt"
	"go/format"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// OutputFile is the name of the generated file, relative to the package.
const OutputFile = "catalog_gen.go"

// Generate reads dataDir and returns the gofmt'ed source of catalog_gen.go.
func Generate(dataDir string) ([]byte, error) {
	g := &generator{dir: dataDir, params: map[string]*param{}}
	steps := []func() error{
		g.loadReleases,
		g.loadKeys,
		g.loadHistory,
		g.loadEnums,
		g.loadOverrides,
		g.decideKinds,
		g.loadDebianPlugins,
		g.crossCheck,
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, err
		}
	}
	src := g.emit()
	out, err := format.Source(src)
	if err != nil {
		return nil, fmt.Errorf("gofmt generated catalog: %w", err)
	}
	return out, nil
}

type generator struct {
	dir       string
	rel       releases
	params    map[string]*param
	boolTrue  []string
	boolFalse []string
}

func (g *generator) readTSV(name string) ([]row, error) {
	path := filepath.Join(g.dir, name)
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open reference data: %w", err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comma = '\t'
	r.LazyQuotes = true
	r.FieldsPerRecord = 0
	header, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("read header of %s: %w", path, err)
	}
	var rows []row
	for line := 2; ; line++ {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
		m := row{}
		for i, h := range header {
			m[h] = strings.TrimSpace(rec[i])
		}
		m["#where"] = fmt.Sprintf("%s:%d", name, line)
		rows = append(rows, m)
	}
	return rows, nil
}
