package cli

// stageIDs documents the diagnostic ids that come from the stages before
// lint (loading, the schema, compiling, rendering): they appear in output
// like rule ids, so explain knows them too. TestExplainKnowsEveryID keeps
// the table complete against the ids declared in the code and the schema.
var stageIDs = map[string]struct{ severity, summary, doc string }{
	"load-io":        {"error", "The spec file cannot be read", "The file does not exist, is not readable, is not a regular file (slurmspec never follows symlinks, FIFOs or devices in a checkout), or has an extension slurmspec does not know: name it .json, .jsonc, .yaml, .yml or .cue, or pass --input-format for standard input.\n"},
	"load-syntax":    {"error", "The spec is not valid JSON, YAML or CUE", "The message gives the parser's complaint at the position shown. YAML anchors with merge keys (<<), tags and non-string keys are not supported.\n"},
	"load-encoding":  {"error", "The spec is not UTF-8 text", "Specs must be UTF-8 without NUL bytes.\n"},
	"load-limit":     {"error", "The spec is too large or too deeply nested", "Files are limited to 16 MiB and 64 levels of nesting, so that a hostile file cannot exhaust memory or time.\n"},
	"duplicate-key":  {"error", "An object gives the same key twice", "JSON and YAML parsers disagree on which of two equal keys wins; slurmspec refuses both.\n"},
	"both-spellings": {"error", "A field is given in both camelCase and snake_case", "The API accepts nodePoolIds and node_pool_ids alike; giving both in one object is ambiguous. Keep one.\n"},

	"schema-unknown-field":  {"error", "A field the API does not have", "The spec has a field the ModelDevelopmentCluster API does not know, usually a misspelling; the hint names the closest field. Fields may be camelCase or snake_case; a top-level \"$schema\" is accepted for editors.\n"},
	"schema-required":       {"error", "A required field is missing", "The API requires the field (for example nodePools, orchestratorSpec.slurmSpec.partitions, a partition's nodePoolIds, a pool's scalingSpec.maxNodeCount), or a list that needs at least one entry is empty.\n"},
	"schema-type":           {"error", "A value has the wrong type", "A string where a number is expected or the other way round, an object where a list is expected, and so on. Numbers the API takes as strings (slurm.conf values) must be quoted.\n"},
	"schema-enum":           {"error", "A value is not one of the allowed values", "Fields such as provisioningModel, bootDiskType or reservationAffinityType take one of a fixed set of values; the message lists them.\n"},
	"schema-range":          {"error", "A number or a length is out of range", "For example minNodeCount must be 0-10000 and at most maxNodeCount, bootDiskSizeGb 10-65536, displayName at most 128 characters.\n"},
	"schema-pattern":        {"error", "A value does not have the required format", "Names of machine types, zones, buckets, images, reservations and Lustre instances follow the formats the API documents; the message says which.\n"},
	"schema-constraint":     {"error", "A value breaks a constraint of the schema", "A constraint that none of the more specific ids describes; the message quotes it.\n"},
	"schema-key":            {"error", "A map key has a form the map does not allow", "slurm.conf keys are 1-64 ASCII letters and digits starting with a letter; label keys are at most 63 lowercase letters, digits, _ and -, starting with a letter.\n"},
	"schema-reference":      {"error", "An id refers to a node pool or partition that is not declared", "Partitions' nodePoolIds, nodeSets' nodePoolId and loginNodePoolId must name a declared node pool; defaultPartitionId must name a declared partition.\n"},
	"schema-duplicate-id":   {"error", "Two node pools, two partitions, or two nodeSets entries share an id", "Pool and partition ids become Slurm node and partition names and must be unique; each pool takes at most one nodeSets entry.\n"},
	"schema-provisioning":   {"error", "The provisioning model does not fit the reservation settings", "RESERVATION needs machineSpec.reservationAffinity; ON_DEMAND, SPOT and FLEX_START must not have one; flexStartMaxDuration is allowed only with FLEX_START.\n"},
	"schema-slurm-value":    {"error", "A slurm.conf value could break the Key=Value token", "Config values are written into slurm.conf as single Key=Value tokens: 1-1024 characters without white space, #, quotes, backslashes or control characters.\n"},
	"schema-filestore-name": {"error", "A Filestore instance name has the wrong format", "Write projects/{project}/locations/{zone or region}/instances/{name}.\n"},
	"schema-cluster-name":   {"error", "The cluster's resource name has the wrong format", "Write projects/{project}/locations/{region}/modelDevelopmentClusters/{id}; a Slurm cluster id is 1-10 lowercase letters and digits starting with a letter.\n"},
	"schema-id":             {"error", "A node pool or partition id has the wrong format", "Pool ids are 1-32 lowercase letters, digits or hyphens; partition ids may also hold _. Both start with a letter and end with a letter or digit, because they become Slurm names.\n"},
	"schema-script":         {"error", "A prolog or epilog script contains NUL bytes", "Scripts are text files; remove the NUL bytes.\n"},

	"cluster-identity": {"error", "The cluster's project, region or id is unknown or malformed", "The identity comes from the spec's name, or from --project, --region and --cluster-id when the spec has none.\n"},
	"render-identity":  {"error", "The rendered files need the cluster's identity", "render needs the cluster id (from name or --cluster-id) to name nodes and the controller.\n"},
	"render-unsafe":    {"error", "A value cannot be written into slurm.conf safely", "The renderer refuses characters that would split a line or token, and keys the service manages.\n"},
	"render-deploy":    {"error", "The Pulumi project cannot be written for this spec", "The request body does not match the provider's inputs, or the deploy flags are incomplete.\n"},
	"internal-error":   {"error", "slurmspec failed internally", "A bug in slurmspec or the CUE evaluator; please report it with the spec that causes it.\n"},
	"usage":            {"error", "The command line is wrong", "An unknown flag value or a missing argument; see the command's --help.\n"},

	"render-machine-type": {"error", "A node pool's machine type has no vCPUs and memory in slurmspec's catalog", "Every NodeName line needs CPUs and RealMemory, which the renderer takes from its machine catalog; for a machine type the catalog lacks it would write neither, and Slurm would schedule one CPU and 1 MiB per node. Fix the machine type (the hint names the closest one), or give CPUs and RealMemory (and Gres for GPUs) in the pool's nodeSets entry.\n"},
}
