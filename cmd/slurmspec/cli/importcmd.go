package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/slurmspec/slurmspec/compiler"
	"github.com/slurmspec/slurmspec/compiler/escape"
	"github.com/slurmspec/slurmspec/render/importconf"
)

const importHelp = `Turn an existing slurm.conf (and optionally its gres.conf) into a spec.

Partitions, node sets and node pools are read from the PartitionName,
NodeSet and NodeName lines; machine types are inferred from CPUs, RealMemory
and GRES where the catalog allows (else a TODO the schema rejects); keys the
service manages are dropped (those equal to the managed baseline in one
note). Prolog and Epilog programs are read from --scripts-dir (prolog.d/,
epilog.d/ as render writes them) or else from the files of the same names in
--include-dir. The spec (YAML) goes to standard output or -o; everything
that could not be carried over is listed on standard error.`

func newImportCmd(e env) *cobra.Command {
	var (
		gres, out, scripts string
		opt                importconf.Options
		links              linkFlag
	)
	cmd := &cobra.Command{
		Use:   "import SLURM.CONF",
		Short: "Convert an existing slurm.conf into a spec",
		Long:  importHelp,
		Example: `  slurmspec import /etc/slurm/slurm.conf --gres /etc/slurm/gres.conf > cluster.yaml
  slurmspec import out/slurm.conf --scripts-dir out -o cluster.yaml`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := (compiler.Identity{Project: opt.Project, Region: opt.Region, ClusterID: opt.ClusterID}).Check(); err != nil {
				return usageError("%v", err)
			}
			if err := importPaths(&links, args[0], gres, opt.IncludeDir, scripts); err != nil {
				return err
			}
			conf, err := importconf.ReadInput(args[0])
			if err != nil {
				return &exitError{code: exitUsage, msg: err.Error()}
			}
			var gresData []byte
			if gres != "" {
				if gresData, err = importconf.ReadInput(gres); err != nil {
					return &exitError{code: exitUsage, msg: err.Error()}
				}
			}
			opt.ScriptsDir = scripts
			spec, notes, err := importconf.Import(conf, gresData, opt)
			if err != nil {
				return &exitError{code: exitUsage, msg: fmt.Sprintf("%s: %v", args[0], err)}
			}
			for _, n := range notes {
				fmt.Fprintf(e.stderr, "%s: %s\n", escape.Text(filepath.ToSlash(args[0])), escape.Text(noteText(n)))
			}
			if out == "" {
				_, err = e.stdout.Write(spec)
				return err
			}
			if err := os.WriteFile(out, spec, 0o644); err != nil {
				return &exitError{code: exitUsage, msg: err.Error()}
			}
			fmt.Fprintf(e.stdout, "wrote %s (%d notes)\n", escape.Text(out), len(notes))
			return nil
		},
	}
	cmd.Flags().StringVar(&gres, "gres", "", "gres.conf, to learn GPU types and counts")
	cmd.Flags().StringVar(&scripts, "scripts-dir", "", "directory holding prolog.d/ and epilog.d/ (as render writes them)")
	cmd.Flags().StringVar(&opt.IncludeDir, "include-dir", "", "follow Include lines to the files of the same name in this directory")
	cmd.Flags().StringVarP(&out, "output", "o", "", "write the spec here instead of standard output")
	cmd.Flags().StringVar(&opt.ClusterID, "cluster-id", "", "cluster id (default: slurm.conf's ClusterName)")
	cmd.Flags().StringVar(&opt.Project, "project", "", "Google Cloud project for the spec's name")
	cmd.Flags().StringVar(&opt.Region, "region", "", "region for the spec's name")
	links.register(cmd.Flags())
	return cmd
}

// importPaths refuses input paths that pass through symbolic links
// (linkFlag): the slurm.conf and --gres files (whose own last element the
// reader refuses), and the --include-dir and --scripts-dir directories
// with the prolog.d and epilog.d directories the import reads in the
// latter.
func importPaths(links *linkFlag, conf, gres, includeDir, scripts string) error {
	if err := links.file("", conf); err != nil {
		return err
	}
	if gres != "" {
		if err := links.file("--gres", gres); err != nil {
			return err
		}
	}
	if includeDir != "" {
		if err := links.dir("--include-dir", includeDir); err != nil {
			return err
		}
	}
	if scripts != "" {
		for _, d := range []string{scripts, filepath.Join(scripts, "prolog.d"), filepath.Join(scripts, "epilog.d")} {
			if err := links.dir("--scripts-dir", d); err != nil {
				return err
			}
		}
	}
	return nil
}

func noteText(n importconf.Note) string {
	switch {
	case n.File != "":
		return fmt.Sprintf("%s line %d: %s", n.File, n.Line, n.Message)
	case n.Line > 0:
		return fmt.Sprintf("line %d: %s", n.Line, n.Message)
	}
	return n.Message
}
