package cli

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/specgen"
	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/schema"
)

// BenchmarkAnalyse measures what `slurmspec lint` does for one file once
// the process is up and the schema compiled: load, schema check, compile
// and every lint rule.
func BenchmarkAnalyse(b *testing.B) {
	cases, err := specgen.Cases("../../..")
	if err != nil {
		b.Fatal(err)
	}
	sch, err := schema.New()
	if err != nil {
		b.Fatal(err)
	}
	p, err := pipeline.New(pipeline.Options{})
	if err != nil {
		b.Fatal(err)
	}
	s, err := p.SettingsIn(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range cases {
		b.Run(c.Name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r, err := p.Analyse(pipeline.Bytes(c.File, c.Data), pipeline.AnalyseOptions{Schema: sch, Settings: s})
				if err != nil || r.Diags.HasErrors() {
					b.Fatal(err, r.Diags)
				}
			}
		})
	}
}

// BenchmarkLintCommand runs `slurmspec lint FILE` in process, flag parsing,
// schema compilation and output included (process start-up excluded).
func BenchmarkLintCommand(b *testing.B) {
	cases, err := specgen.Cases("../../..")
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	for _, c := range cases {
		file := filepath.Join(dir, c.File)
		if err := os.WriteFile(file, c.Data, 0o644); err != nil {
			b.Fatal(err)
		}
		b.Run(c.Name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var out strings.Builder
				if code := Run([]string{"lint", file}, &out, io.Discard); code != 0 {
					b.Fatalf("exit %d: %s", code, out.String())
				}
			}
		})
	}
}
