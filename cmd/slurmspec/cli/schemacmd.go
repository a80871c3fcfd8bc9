package cli

import (
	"github.com/slurmspec/slurmspec/compiler/outformat"

	"github.com/spf13/cobra"

	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/schema"
	"github.com/slurmspec/slurmspec/schema/accounting"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

const schemaHelp = `Print the spec schema, exported from the same embedded CUE source and
Slurm parameter catalog that lint uses.

  --format jsonschema   JSON Schema (draft 2020-12) for editors: completion,
                        hover descriptions and inline errors
  --strict              without the editors' keywords (markdownDescription,
                        enumDescriptions, markdownEnumDescriptions,
                        patternErrorMessage), which validators in strict
                        mode refuse (ajv by default); validates the same
  --format cue          CUE, for cue vet -d '#Cluster'
  --slurm-version V     the Slurm release whose slurm.conf keys and values the
                        config maps accept (default: the slurmVersion of the
                        .slurmspec.yaml of the working directory or a parent,
                        else the newest; docs/target.md)
  --accounting          the schema of the accounting file instead
                        (docs/accounting.md; CUE: cue vet -d '#Accounting')

Both state the shape, types, enums, patterns and ranges, and for each config
map the keys of its scope in that release with their value constraints
(reserved keys refused with their reason). The CUE also checks the references
between partitions, pools and the default partition. Rules between the tokens
of one value or between fields, and warnings, are lint's.`

// schemaWriter exports a schema: the cluster spec's for release v, or the
// accounting file's.
type schemaWriter func(v catalog.Version, acct bool) ([]byte, error)

// schemaFormats are the formats of slurmspec schema --format, the default
// first.
func schemaFormats() *outformat.Registry[schemaWriter] {
	return outformat.MustNew(
		outformat.Format[schemaWriter]{Name: "jsonschema", Note: "editors, validators", Writer: func(v catalog.Version, acct bool) ([]byte, error) {
			if acct {
				return accounting.JSONSchema()
			}
			return schema.JSONSchemaFor(v)
		}},
		outformat.Format[schemaWriter]{Name: "cue", Note: "cue vet", Writer: func(v catalog.Version, acct bool) ([]byte, error) {
			if acct {
				return accounting.CUESource(), nil
			}
			return schema.CUESourceFor(v)
		}},
	)
}

func newSchemaCmd(e env) *cobra.Command {
	var (
		format, version string
		acct, strict    bool
	)
	cmd := &cobra.Command{
		Use:   "schema",
		Short: "Export the spec schema as JSON Schema or CUE",
		Long:  schemaHelp,
		Example: `  slurmspec schema --format jsonschema --slurm-version 24.11 > cluster.schema.json
  slurmspec schema --format jsonschema --strict > cluster.strict.schema.json   # for ajv
  slurmspec schema --format cue > cluster.cue && cue vet -d '#Cluster' cluster.cue spec.yaml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			write, err := lookupFormat(schemaFormats(), format)
			if err != nil {
				return err
			}
			// The target's release: --slurm-version, else the project
			// config's in the working directory, else the default's.
			p, err := pipeline.New(pipeline.Options{SlurmVersion: version})
			if err != nil {
				return usageError("%v", err)
			}
			settings, err := p.SettingsIn(".")
			if err != nil {
				return usageError("%v", err)
			}
			out, err := write(settings.Target().Release, acct)
			if err == nil && strict {
				if format != "jsonschema" {
					return usageError("--strict applies to --format jsonschema only")
				}
				out, err = schema.StrictJSON(out)
			}
			if err != nil {
				return &exitError{code: exitUsage, msg: err.Error()}
			}
			_, err = e.stdout.Write(out)
			return err
		},
	}
	formatFlag(cmd, &format, schemaFormats())
	cmd.Flags().BoolVar(&strict, "strict", false, "JSON Schema without the editors' keywords, for validators in strict mode (ajv's default)")
	cmd.Flags().BoolVar(&acct, "accounting", false, "export the schema of the accounting file (docs/accounting.md)")
	cmd.Flags().StringVar(&version, "slurm-version", "", "the Slurm release whose slurm.conf keys and values the schema states (default: the project config's slurmVersion, else "+catalog.DefaultTarget().Release.String()+")")
	return cmd
}
