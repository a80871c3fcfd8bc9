package pulumimodel

// The input types of the resources, written against the pulumi-gcp
// provider's schema (10.x), whose Go SDK is not available here. The field
// names are the API's camelCase names, except where the bridge renamed
// them (PulumiNames); the provider adds the identity (project, region,
// modelDevelopmentClusterId) and deletionPolicy, keeps nested objects as
// objects and config maps as maps. A conformance test in
// deploy/pulumi/pulumitest/fakegcp compares them with a hand-written description
// of the real provider. The types are used to check
// a request body field by field before anything is registered (an unknown
// field is an error, never silently dropped) and to describe the inputs to
// the test double of the provider.

// ClusterArgs are the inputs of
// gcp:vertex/aiModelDevelopmentCluster:AiModelDevelopmentCluster.
type ClusterArgs struct {
	Project                   string                     `json:"project"`
	Region                    string                     `json:"region"`
	ModelDevelopmentClusterID string                     `json:"modelDevelopmentClusterId" schema:"required"`
	DisplayName               string                     `json:"displayName,omitempty"`
	DeletionPolicy            string                     `json:"deletionPolicy,omitempty"`
	Labels                    map[string]string          `json:"labels,omitempty"`
	Network                   *ClusterNetwork            `json:"network,omitempty"`
	RuntimeSpec               *ClusterRuntimeSpec        `json:"runtimeSpec,omitempty"`
	NodePools                 []ClusterNodePool          `json:"nodePools" schema:"required"`
	OrchestratorSpec          *ClusterOrchestratorSpec   `json:"orchestratorSpec" schema:"required"`
	LustreExportConfig        *ClusterLustreExportConfig `json:"lustreExportConfig,omitempty"`
}

// ClusterNetwork is network.
type ClusterNetwork struct {
	Network    string `json:"network" schema:"required"`
	Subnetwork string `json:"subnetwork,omitempty"`
}

// ClusterRuntimeSpec is runtimeSpec.
type ClusterRuntimeSpec struct {
	ServiceAccount string `json:"serviceAccount,omitempty"`
}

// ClusterNodePool is one entry of nodePools.
type ClusterNodePool struct {
	ID                         string                             `json:"id" schema:"required"`
	MachineSpec                *ClusterNodePoolMachineSpec        `json:"machineSpec" schema:"required"`
	ProvisioningModel          string                             `json:"provisioningModel,omitempty"`
	FlexStartMaxDuration       string                             `json:"flexStartMaxDuration,omitempty"`
	ScalingSpec                *ClusterNodePoolScalingSpec        `json:"scalingSpec,omitempty"`
	BootDisk                   *ClusterNodePoolBootDisk           `json:"bootDisk,omitempty"`
	EnablePublicIps            *bool                              `json:"enablePublicIps,omitempty"`
	Filestores                 []string                           `json:"filestores,omitempty"`
	Lustres                    []string                           `json:"lustres,omitempty"`
	Labels                     map[string]string                  `json:"labels,omitempty"`
	NodeImage                  string                             `json:"nodeImage,omitempty"`
	StartupScript              string                             `json:"startupScript,omitempty"`
	Zone                       string                             `json:"zone,omitempty"`
	ConfidentialInstanceConfig *ClusterNodePoolConfidentialConfig `json:"confidentialInstanceConfig,omitempty"`
}

// ClusterNodePoolMachineSpec is nodePools[].machineSpec.
type ClusterNodePoolMachineSpec struct {
	MachineType         string                              `json:"machineType" schema:"required"`
	ReservationAffinity *ClusterNodePoolReservationAffinity `json:"reservationAffinity,omitempty"`
}

// ClusterNodePoolReservationAffinity is machineSpec.reservationAffinity.
type ClusterNodePoolReservationAffinity struct {
	ReservationAffinityType string   `json:"reservationAffinityType" schema:"required"`
	Values                  []string `json:"values,omitempty"`
}

// ClusterNodePoolScalingSpec is nodePools[].scalingSpec.
type ClusterNodePoolScalingSpec struct {
	MinNodeCount *int64 `json:"minNodeCount,omitempty"`
	MaxNodeCount *int64 `json:"maxNodeCount,omitempty"`
}

// ClusterNodePoolBootDisk is nodePools[].bootDisk.
type ClusterNodePoolBootDisk struct {
	BootDiskType   string `json:"bootDiskType,omitempty"`
	BootDiskSizeGb *int64 `json:"bootDiskSizeGb,omitempty"`
}

// ClusterNodePoolConfidentialConfig is nodePools[].confidentialInstanceConfig.
type ClusterNodePoolConfidentialConfig struct {
	ConfidentialInstanceType string `json:"confidentialInstanceType" schema:"required"`
}

// ClusterOrchestratorSpec is orchestratorSpec.
type ClusterOrchestratorSpec struct {
	SlurmSpec *ClusterSlurmSpec `json:"slurmSpec" schema:"required"`
}

// ClusterSlurmSpec is orchestratorSpec.slurmSpec.
type ClusterSlurmSpec struct {
	HomeDirectoryStorage string                  `json:"homeDirectoryStorage" schema:"required"`
	LoginNodePoolID      string                  `json:"loginNodePoolId" schema:"required"`
	Partitions           []ClusterSlurmPartition `json:"partitions,omitempty"`
	DefaultPartitionID   string                  `json:"defaultPartitionId,omitempty"`
	Config               map[string]string       `json:"config,omitempty"`
	NodeSets             []ClusterSlurmNodeSet   `json:"nodeSets,omitempty"`
	PrologBashScripts    []string                `json:"prologBashScripts,omitempty"`
	EpilogBashScripts    []string                `json:"epilogBashScripts,omitempty"`
}

// ClusterSlurmPartition is slurmSpec.partitions[].
type ClusterSlurmPartition struct {
	ID          string            `json:"id" schema:"required"`
	NodePoolIDs []string          `json:"nodePoolIds" schema:"required"`
	Config      map[string]string `json:"config,omitempty"`
}

// ClusterSlurmNodeSet is slurmSpec.nodeSets[].
type ClusterSlurmNodeSet struct {
	NodePoolID string            `json:"nodePoolId" schema:"required"`
	Config     map[string]string `json:"config,omitempty"`
}

// ClusterLustreExportConfig is lustreExportConfig. The bridge pluralises
// list names: the API's daysOfWeek is the provider's daysOfWeeks.
type ClusterLustreExportConfig struct {
	DestinationBucket string                  `json:"destinationBucket" schema:"required"`
	Lustres           []string                `json:"lustres,omitempty"`
	DaysOfWeeks       []string                `json:"daysOfWeeks,omitempty"`
	StartTime         *ClusterLustreStartTime `json:"startTime,omitempty"`
}

// ClusterLustreStartTime is lustreExportConfig.startTime.
type ClusterLustreStartTime struct {
	Hours   *int64 `json:"hours,omitempty"`
	Minutes *int64 `json:"minutes,omitempty"`
}

// ClusterState is what the cluster resource outputs besides its inputs.
type ClusterState struct {
	// Name is the cluster's resource name,
	// projects/P/locations/R/modelDevelopmentClusters/ID.
	Name string `json:"name"`
}

// FilestoreArgs are the inputs of gcp:filestore/instance:Instance that
// slurmspec sets. Its id is projects/{project}/locations/{location}/instances/{name}.
type FilestoreArgs struct {
	Project    string               `json:"project,omitempty"`
	Location   string               `json:"location,omitempty"`
	Name       string               `json:"name,omitempty"`
	Tier       string               `json:"tier" schema:"required"`
	FileShares *FilestoreFileShares `json:"fileShares" schema:"required"`
	Networks   []FilestoreNetwork   `json:"networks" schema:"required"`
	Labels     map[string]string    `json:"labels,omitempty"`
}

// FilestoreFileShares is fileShares.
type FilestoreFileShares struct {
	Name       string `json:"name" schema:"required"`
	CapacityGb int64  `json:"capacityGb" schema:"required"`
}

// FilestoreNetwork is one entry of networks.
type FilestoreNetwork struct {
	Network string   `json:"network" schema:"required"`
	Modes   []string `json:"modes" schema:"required"`
}
