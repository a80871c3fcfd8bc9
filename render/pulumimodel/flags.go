package pulumimodel

import (
	"strings"

	"github.com/spf13/pflag"
)

// Flag names of Options.
const (
	FlagCreateHomeFilestore = "create-home-filestore"
	FlagFilestoreTier       = "filestore-tier"
	FlagFilestoreCapacityGb = "filestore-capacity-gb"
	FlagFilestoreShare      = "filestore-share"
)

// RegisterFlags adds the deploy options as flags. slurmspec-deploy and
// `slurmspec render` (for the Pulumi YAML project) take the same flags.
func (o *Options) RegisterFlags(fs *pflag.FlagSet) {
	fs.BoolVar(&o.CreateHomeFilestore, FlagCreateHomeFilestore, false,
		"create the Filestore instance named by slurmSpec.homeDirectoryStorage (default: reference an existing instance)")
	fs.StringVar(&o.FilestoreTier, FlagFilestoreTier, "",
		"tier of the created Filestore instance: "+strings.Join(FilestoreTiers(), ", ")+" (default "+DefaultFilestoreTier+")")
	fs.Int64Var(&o.FilestoreCapacityGb, FlagFilestoreCapacityGb, 0,
		"capacity of the created instance's file share in GiB (default: the tier's minimum)")
	fs.StringVar(&o.FilestoreShare, FlagFilestoreShare, "",
		"name of the created instance's file share (default "+DefaultFilestoreShare+")")
}
