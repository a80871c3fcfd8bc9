package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/load/gitrev"
	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/schema/accounting"
)

// sideAccounting returns the accounting file of one side of a diff: the
// one the pipeline read beside a spec file, or, for REV:PATH, the file at
// that revision that the working tree's .slurmspec.yaml names (accounting:)
// or, else, the one beside PATH by convention (PATH without its extension,
// then .accounting.yaml, .yml, .json, .jsonc or .cue). nil when the side
// has none; a file at a revision with errors is compared as none, and its
// findings are printed.
func sideAccounting(ctx context.Context, arg string, r *pipeline.Result, s *pipeline.Settings, e env) *accounting.File {
	ref, isRef := gitRef(arg)
	if !isRef {
		return r.Accounting
	}
	var candidates []string
	if name := s.Project.Accounting; name != "" {
		abs, err := filepath.Abs(name)
		wd, werr := os.Getwd()
		if err != nil || werr != nil {
			return nil
		}
		rel, err := filepath.Rel(wd, abs)
		if err != nil {
			return nil
		}
		rel = filepath.ToSlash(rel)
		if !strings.HasPrefix(rel, "../") {
			rel = "./" + rel
		}
		candidates = []string{rel}
	} else {
		stem := strings.TrimSuffix(ref.Path, filepath.Ext(ref.Path))
		for _, ext := range []string{".yaml", ".yml", ".json", ".jsonc", ".cue"} {
			candidates = append(candidates, stem+accounting.Suffix+ext)
		}
	}
	for _, c := range candidates {
		at := gitrev.Ref{Rev: ref.Rev, Path: c}
		data, err := gitrev.Read(ctx, "", at)
		if err != nil {
			continue // not in that revision
		}
		f, l := accounting.LoadBytes(at.String(), data)
		if len(l) > 0 {
			printResult(e.stderr, &pipeline.Result{File: at.String(), Diags: l})
		}
		return f
	}
	return nil
}
