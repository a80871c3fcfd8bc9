package cli

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/lint/format"
	"github.com/slurmspec/slurmspec/schema"
)

const lintHelp = `Check specs against the schema and every lint rule.

Arguments are spec files or directories; directories are searched
recursively for .json, .jsonc, .yaml, .yml and .cue files (hidden
directories are skipped). "-" reads standard input. Files are linted
concurrently and reported in a stable order.

Each finding is printed as "file:line:col: severity: message [rule-id]"
with the source line, the spec path and a hint. Exit status: 0 clean,
1 errors (or warnings with --strict), 2 usage or I/O errors.`

func newLintCmd(e env) *cobra.Command {
	var (
		f         specFlags
		outFormat string
		onl       onlineFlags
	)
	cmd := &cobra.Command{
		Use:   "lint FILE|DIR...",
		Short: "Check specs and report every problem",
		Long:  lintHelp,
		Example: `  slurmspec lint examples/seed.jsonc
  slurmspec lint --strict --disable placeholder clusters/
  cat cluster.json | slurmspec lint -
  slurmspec lint --format sarif clusters/ > slurmspec.sarif
  slurmspec lint --online cluster.yaml   # also check the Filestore instances with the API`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.validate(cmd); err != nil {
				return err
			}
			formatter, err := format.New(outFormat, format.Options{Color: outFormat == "text" && useColour(e.stdout), FileSummary: true})
			if err != nil {
				return usageError("--format: %v", err)
			}
			files, err := expandArgs(args)
			if err != nil {
				return &exitError{code: exitUsage, msg: err.Error()}
			}
			results, err := lintAll(files, &f, e)
			if err != nil {
				return &exitError{code: exitUsage, msg: err.Error()}
			}
			var onlineErr error
			if onl.enabled {
				onlineErr = onl.check(cmd.Context(), results, &f)
			}
			code := exitOK
			run := format.Run{Rules: format.RuleInfos(allRules()), ToolVersion: toolVersion()}
			for _, a := range results {
				file := format.File{Name: displayName(a.file), Diags: a.diags, Error: a.ioError}
				if a.doc != nil {
					file.Name, file.Source = a.doc.File, a.doc.Source
				}
				run.Files = append(run.Files, file)
				switch {
				case a.ioError:
					code = max(code, exitUsage)
				case failed(a.diags, f.strict):
					code = max(code, exitFindings)
				}
			}
			if err := formatter.Format(e.stdout, run); err != nil {
				return &exitError{code: exitUsage, msg: fmt.Sprintf("writing output: %v", err)}
			}
			if onlineErr != nil {
				return &exitError{code: exitUsage, msg: "--online: " + onlineErr.Error()}
			}
			if code != exitOK {
				return &exitError{code: code}
			}
			return nil
		},
	}
	f.register(cmd.Flags())
	cmd.Flags().StringVar(&outFormat, "format", "text", "output format: "+strings.Join(format.Names(), ", "))
	onl.register(cmd)
	return cmd
}

// expandArgs turns file and directory arguments into the list of files to
// lint: files as given, directories searched for spec files in lexical order.
func expandArgs(args []string) ([]string, error) {
	var files []string
	for _, arg := range args {
		st, err := os.Stat(arg)
		if arg == "-" || err != nil || !st.IsDir() {
			files = append(files, arg) // errors are reported per file
			continue
		}
		var found []string
		err = filepath.WalkDir(arg, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && p != arg && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			// Regular files only: a symbolic link, FIFO or device in a
			// checkout is skipped, never opened.
			if d.Type().IsRegular() && load.IsSpecFile(p) {
				found = append(found, p)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", arg, err)
		}
		sort.Strings(found)
		files = append(files, found...)
	}
	return files, nil
}

// lintAll analyses files concurrently, each worker with its own compiled
// schema (CUE values are not shared between goroutines), and returns the
// results in argument order.
func lintAll(files []string, f *specFlags, e env) ([]analysis, error) {
	if e.sizedRun != nil {
		e.sizedRun(totalSize(files))
	}
	results := make([]analysis, len(files))
	workers := min(runtime.GOMAXPROCS(0), len(files))
	jobs := make(chan int)
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sch, err := schema.New()
			if err != nil {
				errs <- err
				for range jobs {
				}
				return
			}
			for i := range jobs {
				results[i] = analyse(sch, files[i], f, e)
			}
		}()
	}
	for i := range files {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return nil, err
	}
	return results, nil
}

// totalSize is the sum of the sizes of the files that exist, counted
// until it passes smallRun (all that tuneGC needs to know).
func totalSize(files []string) int64 {
	var total int64
	for _, file := range files {
		if fi, err := os.Stat(file); err == nil && fi.Mode().IsRegular() {
			total += fi.Size()
		}
		if total > smallRun {
			break
		}
	}
	return total
}

func displayName(file string) string {
	if file == "-" {
		return "<stdin>"
	}
	return file
}
