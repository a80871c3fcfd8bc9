package importconf

import (
	"fmt"
	"github.com/slurmspec/slurmspec/compiler/machines"
	"github.com/slurmspec/slurmspec/compiler/yamlwrite"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// yaml writes the spec. Fields come in the order of examples/a4-training.yaml
// (name, nodePools, orchestratorSpec; in a pool id, machineSpec,
// provisioningModel, scalingSpec), config maps sorted by key ignoring case,
// everything else in slurm.conf's order: the output depends on the input
// only.
func (im *importer) yaml() ([]byte, error) {
	project, region := im.opt.Project, im.opt.Region
	if project == "" {
		project = "PROJECT_ID"
	}
	if region == "" {
		region = "REGION"
	}
	root := mapping(
		"name", str(fmt.Sprintf("projects/%s/locations/%s/modelDevelopmentClusters/%s", project, region, im.clusterID)),
	)
	var pools []*yaml.Node
	for _, p := range im.pools {
		pools = append(pools, im.poolNode(p))
	}
	add(root, "nodePools", seq(pools...))

	slurm := mapping(
		"loginNodePoolId", str(im.login),
		"homeDirectoryStorage", str(im.homeDir()),
	)
	slurm.Content[3].LineComment = "placeholder: the Filestore instance that holds /home"
	if im.defPart != "" {
		add(slurm, "defaultPartitionId", str(im.defPart))
	}
	var parts []*yaml.Node
	for _, p := range im.parts {
		ids := seq()
		ids.Style = yaml.FlowStyle
		for _, id := range p.pools {
			ids.Content = append(ids.Content, str(id))
		}
		pn := mapping("id", str(p.id), "nodePoolIds", ids)
		if len(p.config) > 0 {
			add(pn, "config", configNode(p.config))
		}
		parts = append(parts, pn)
	}
	add(slurm, "partitions", seq(parts...))
	var sets []*yaml.Node
	for _, p := range im.pools {
		if len(p.config) > 0 {
			sets = append(sets, mapping("nodePoolId", str(p.id), "config", configNode(p.config)))
		}
	}
	if len(sets) > 0 {
		add(slurm, "nodeSets", seq(sets...))
	}
	if len(im.config) > 0 {
		add(slurm, "config", configNode(im.config))
	}
	for _, s := range []struct {
		key   string
		texts []string
	}{{"prologBashScripts", im.prolog}, {"epilogBashScripts", im.epilog}} {
		if len(s.texts) == 0 {
			continue
		}
		list := seq()
		for _, t := range s.texts {
			list.Content = append(list.Content, str(t)) // a literal block when that reads back exactly
		}
		add(slurm, s.key, list)
	}
	add(root, "orchestratorSpec", mapping("slurmSpec", slurm))

	doc := &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root},
		HeadComment: "Imported from slurm.conf by slurmspec import. Review every placeholder\n(TODO, PROJECT_ID, ZONE, ...) and the notes the import printed."}
	out, err := yamlwrite.Encode(doc)
	if err != nil {
		return nil, fmt.Errorf("encoding YAML: %w", err)
	}
	return out, nil
}

func (im *importer) poolNode(p *pool) *yaml.Node {
	mt := str(p.machineType)
	if p.todo {
		mt.LineComment = "TODO: choose the machine type (see the import notes)"
	}
	ms := mapping("machineType", mt)
	if p.reservation {
		add(ms, "reservationAffinity", mapping(
			"reservationAffinityType", str("SPECIFIC_RESERVATION"),
			"values", seq(str(ReservationPlaceholder))))
	}
	n := mapping("id", str(p.id), "machineSpec", ms)
	if p.provisioning != "" {
		add(n, "provisioningModel", str(p.provisioning))
	}
	add(n, "scalingSpec", mapping("minNodeCount", integer(p.min), "maxNodeCount", integer(p.max)))
	if disk := bootDiskFor(p.machine); disk != "" {
		add(n, "bootDisk", mapping("bootDiskType", str(disk)))
	}
	return n
}

// bootDiskFor returns the boot disk type to write for a machine whose
// series cannot boot from the API's default (pd-ssd): the first type the
// catalog confirms. It returns "" when the default is fine or unknown.
func bootDiskFor(m *machines.Machine) string {
	if m == nil || len(m.BootDisks) == 0 {
		return ""
	}
	if listed, _ := machines.Supports(m.BootDisks, "pd-ssd"); listed {
		return ""
	}
	for _, d := range m.BootDisks {
		if d.Confirmed {
			return d.Name
		}
	}
	return ""
}

func configNode(kvs []kv) *yaml.Node {
	m := mapping()
	for _, p := range kvs {
		add(m, p.Key, str(p.Value))
	}
	return m
}

// mapping builds a block mapping from alternating keys and values.
func mapping(kvs ...any) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for i := 0; i+1 < len(kvs); i += 2 {
		add(m, kvs[i].(string), kvs[i+1].(*yaml.Node))
	}
	return m
}

func add(m *yaml.Node, key string, v *yaml.Node) {
	m.Content = append(m.Content, str(key), v)
}

func seq(items ...*yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: items}
}

// str is a string scalar that reads back as exactly s (yamlwrite).
func str(s string) *yaml.Node { return yamlwrite.Str(s) }

func integer(i int64) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(i, 10)}
}
