// The measured inputs: the exported schema, the seed and generated specs
// in camelCase JSON, as cue vet reads them.

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/compiler/specgen"
	"github.com/slurmspec/slurmspec/schema"
)

// data are the measured inputs, all camelCase JSON so that cue vet reads
// them as slurmspec does.
type data struct {
	schema, seed, gen100, gen1000, gen2000 string
	many                                   []string
	seedBytes                              int
	// findings1000 is how many findings lint reports on gen1000.
	findings1000 int
}

func prepare(cfg config) (data, error) {
	d := data{
		schema:  filepath.Join(cfg.work, "schema.cue"),
		seed:    filepath.Join(cfg.work, "seed.json"),
		gen100:  filepath.Join(cfg.work, "gen-100.json"),
		gen1000: filepath.Join(cfg.work, "gen-1000.json"),
		gen2000: filepath.Join(cfg.work, "gen-2000.json"),
	}
	src, err := exec.Command(cfg.slurmspec, "schema", "--format", "cue").Output()
	if err != nil {
		return d, fmt.Errorf("slurmspec schema --format cue: %w", err)
	}
	seedSrc, err := os.ReadFile(filepath.Join(cfg.root, "examples", "seed.jsonc"))
	if err != nil {
		return d, err
	}
	seed, err := camelJSON("seed.jsonc", seedSrc)
	if err != nil {
		return d, err
	}
	d.seedBytes = len(seed)
	files := map[string][]byte{
		d.schema: src, d.seed: seed,
		d.gen100: specgen.JSON(100), d.gen1000: specgen.JSON(1000), d.gen2000: specgen.JSON(2000),
	}
	manyDir := filepath.Join(cfg.work, "many")
	if err := os.MkdirAll(manyDir, 0o755); err != nil {
		return d, err
	}
	for i := range 1000 {
		f := filepath.Join(manyDir, fmt.Sprintf("seed-%04d.json", i))
		// Each file names its own cluster, so no two are identical.
		files[f] = bytes.Replace(seed, []byte("/modelDevelopmentClusters/seed"), fmt.Appendf(nil, "/modelDevelopmentClusters/s%04d", i), 1)
		d.many = append(d.many, f)
	}
	for name, b := range files {
		if err := os.WriteFile(name, b, 0o644); err != nil {
			return d, err
		}
	}
	// Both tools must accept every input, or the comparison is meaningless.
	for _, argv := range [][]string{
		{cfg.cue, "vet", "-d", "#Cluster", d.schema, d.seed, d.gen100, d.gen1000, d.gen2000},
		{cfg.slurmspec, "lint", d.seed, d.gen100, d.gen1000, d.gen2000},
	} {
		if out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput(); err != nil {
			return d, fmt.Errorf("%s: %v\n%s", strings.Join(argv, " "), err, out)
		}
	}
	// The many-findings rows need the findings: count them.
	out, err := exec.Command(cfg.slurmspec, "lint", "--format", "json", d.gen1000).Output()
	if err != nil {
		return d, fmt.Errorf("slurmspec lint --format json %s: %w", d.gen1000, err)
	}
	var rep struct {
		Summary struct{ Errors, Warnings, Notes int }
	}
	if err := json.Unmarshal(out, &rep); err != nil {
		return d, fmt.Errorf("slurmspec lint --format json: %w", err)
	}
	d.findings1000 = rep.Summary.Errors + rep.Summary.Warnings + rep.Summary.Notes
	if d.findings1000 < 1000 {
		return d, fmt.Errorf("the 1000-pool spec gives %d findings, the many-findings case needs 1000", d.findings1000)
	}
	return d, nil
}

// camelJSON loads a spec and writes it back as plain JSON with the
// camelCase field names that slurmspec normalises to.
func camelJSON(name string, src []byte) ([]byte, error) {
	sch, err := schema.New()
	if err != nil {
		return nil, err
	}
	doc, l := load.Bytes(name, src, load.Options{Verbatim: sch.Verbatim})
	if l.HasErrors() || doc == nil || doc.Root == nil {
		return nil, fmt.Errorf("loading %s: %v", name, l)
	}
	var b bytes.Buffer
	writeJSON(&b, doc.Root, "")
	b.WriteByte('\n')
	return b.Bytes(), nil
}

func writeJSON(b *bytes.Buffer, n *load.Node, indent string) {
	switch n.Kind {
	case load.Object:
		b.WriteString("{")
		for i, f := range n.Fields {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString("\n" + indent + "  " + strconv.Quote(f.Name) + ": ")
			writeJSON(b, f.Value, indent+"  ")
		}
		b.WriteString("\n" + indent + "}")
	case load.Array:
		b.WriteString("[")
		for i, it := range n.Items {
			if i > 0 {
				b.WriteString(", ")
			}
			writeJSON(b, it, indent+"  ")
		}
		b.WriteString("]")
	case load.String:
		b.WriteString(strconv.Quote(n.Text))
	case load.Number:
		b.WriteString(n.Text)
	case load.Bool:
		b.WriteString(strconv.FormatBool(n.True))
	default:
		b.WriteString("null")
	}
}
