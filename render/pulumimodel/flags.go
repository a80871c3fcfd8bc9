package pulumimodel

import (
	"strings"

	"github.com/spf13/pflag"
)

// Flag names of Options.
const (
	FlagCreateHomeFilestore  = "create-home-filestore"
	FlagFilestoreTier        = "filestore-tier"
	FlagFilestoreCapacityGb  = "filestore-capacity-gb"
	FlagFilestoreShare       = "filestore-share"
	FlagCreateNetwork        = "create-network"
	FlagSubnetCIDR           = "subnet-cidr"
	FlagEnableAPIs           = "enable-apis"
	FlagCreateServiceAccount = "create-service-account"
	FlagWithFoundation       = "with-foundation"
	FlagProtect              = "protect"
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
	fs.BoolVar(&o.CreateNetwork, FlagCreateNetwork, false,
		"create network.network and network.subnetwork (Private Google Access), firewall rules for the subnetwork and IAP SSH, and Cloud Router + NAT when a pool has no public IPs")
	fs.StringVar(&o.SubnetCIDR, FlagSubnetCIDR, "",
		"IPv4 range of the created subnetwork (default "+DefaultSubnetCIDR+")")
	fs.BoolVar(&o.EnableAPIs, FlagEnableAPIs, false,
		"enable the Google Cloud APIs a cluster needs (Compute, Filestore, Cloud Storage, Vertex AI, Hypercomputer Configuration, Managed Lustre if used)")
	fs.BoolVar(&o.CreateServiceAccount, FlagCreateServiceAccount, false,
		"create runtimeSpec.serviceAccount and grant it its roles")
	fs.BoolVar(&o.WithFoundation, FlagWithFoundation, false,
		"everything beneath the cluster: --"+FlagCreateNetwork+", --"+FlagEnableAPIs+", --"+FlagCreateHomeFilestore+" and, when the spec names runtimeSpec.serviceAccount, --"+FlagCreateServiceAccount)
	fs.BoolVar(&o.Protect, FlagProtect, false,
		"protect the cluster from deletion: Pulumi's protect option and deletionPolicy PREVENT (remove the flag and run up before destroy)")
}
