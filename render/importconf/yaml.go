package importconf

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/slurmspec/slurmspec/compiler/machines"
	"github.com/slurmspec/slurmspec/compiler/yamlwrite"
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

	doc := &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}, HeadComment: im.header()}
	out, err := yamlwrite.Encode(doc)
	if err != nil {
		return nil, fmt.Errorf("encoding YAML: %w", err)
	}
	return out, nil
}

// header is the spec's head comment: every decision left to a person and
// every choice the import made, with the slurm.conf line each is about.
func (im *importer) header() string {
	var decide, chose []string
	for _, n := range im.notes {
		line := "  - " + n.String()
		switch n.Kind {
		case NoteDecide:
			decide = append(decide, line)
		case NoteChoice:
			chose = append(chose, line)
		}
	}
	h := []string{"Imported from slurm.conf by slurmspec import."}
	if len(decide) > 0 {
		h = append(h, "", "Decide (each placeholder fails the schema until you do):")
		h = append(h, decide...)
	}
	if len(chose) > 0 {
		h = append(h, "", "Chosen by the import from slurm.conf (check them):")
		h = append(h, chose...)
	}
	h = append(h, "", "The import also printed what it dropped or changed, line by line.")
	// A comment is one line per line: no line breaks from the input.
	for i := range h {
		h[i] = strings.Map(func(r rune) rune {
			if r < ' ' || r == 0x7f || r == 0x85 || r == 0x2028 || r == 0x2029 {
				return ' '
			}
			return r
		}, h[i])
	}
	return strings.Join(h, "\n")
}

func (im *importer) poolNode(p *pool) *yaml.Node {
	mt := str(p.machineType)
	if p.todo {
		mt.LineComment = "TODO: choose the machine type (see the header)"
	}
	ms := mapping("machineType", mt)
	n := mapping("id", str(p.id), "machineSpec", ms)
	if p.provisioning != "" {
		pm := str(p.provisioning)
		pm.LineComment = "TODO: choose how the GPUs are bought (see the header)"
		add(n, "provisioningModel", pm)
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

// yaml11Typed matches the plain scalars a YAML 1.1 reader resolves to
// something other than a string (the YAML 1.1 type repository): booleans,
// null, integers in every base and with "_" or sexagesimal ":"
// ("24:00:00" is 86400), floats (".inf", "1e3", "1:30.5"), timestamps,
// and the merge and value keys. The encoder quotes only what YAML 1.2
// would re-type; these are quoted too, so that every reader sees a string.
var yaml11Typed = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:` +
		`(?i:y|n|yes|no|on|off|true|false|null|~)` +
		`|[-+]?0b[01_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+` +
		`|[-+]?(?:[0-9][0-9_]*)?\.[0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?:\.[0-9_]*)?[eE][-+]?[0-9]+|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?i:inf)|\.(?i:nan)` +
		`|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)?` +
		`|<<|=)$`)
})

// str is a string scalar that reads back as exactly s (yamlwrite.Str),
// double-quoted also where a YAML 1.1 reader would re-type it ("OFF",
// "24:00:00", "0755").
func str(s string) *yaml.Node {
	n := yamlwrite.Str(s)
	if yaml11Typed().MatchString(s) {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

func integer(i int64) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(i, 10)}
}
