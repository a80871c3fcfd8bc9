// Package compiler decodes a loaded, schema-checked spec into the IR,
// applying the API's defaults and looking up machine facts. A spec the
// schema refused in part is decoded for lint alone (CompilePartial), with
// the refused values Unknown.
package compiler

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/compiler/machines"
)

// Identity gives the cluster's identity when the spec has no name, or
// checks it when it has one. Empty fields are not set.
type Identity struct {
	Project, Region, ClusterID string
}

// The Google Cloud name formats, written once for Go: a project id (or
// number, or domain-scoped id), a region, a zone and a Slurm cluster id,
// as schema/cluster.cue's #ProjectRe, #RegionRe, #ZoneRe and cluster id
// state them for CUE, less the capitalised placeholders a spec may hold (a
// test keeps the two equal).
const (
	ProjectPattern   = `[a-z][a-z0-9-]{4,28}[a-z0-9]|[0-9]{1,19}|[a-z][a-z0-9.-]{0,62}:[a-z][a-z0-9-]{4,28}[a-z0-9]`
	RegionPattern    = `[a-z]+-[a-z]+[0-9]{1,2}`
	ZonePattern      = RegionPattern + `-[a-z]`
	ClusterIDPattern = `[a-z][a-z0-9]{0,9}`
)

var (
	projectRe   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(` + ProjectPattern + `)$`) })
	regionRe    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^` + RegionPattern + `$`) })
	zoneRe      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(` + RegionPattern + `)-[a-z]$`) })
	clusterIDRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^` + ClusterIDPattern + `$`) })
)

// RegionRegexp matches a whole region name (us-central1).
func RegionRegexp() *regexp.Regexp { return regionRe() }

// ZoneRegexp matches a whole zone name (us-central1-a); its first group is
// the zone's region.
func ZoneRegexp() *regexp.Regexp { return zoneRe() }

// ClusterIDRegexp matches a whole Slurm cluster id.
func ClusterIDRegexp() *regexp.Regexp { return clusterIDRe() }

// Check reports identity values that are not well-formed, naming each as
// its command-line flag (--project, --region, --cluster-id). Empty fields
// are not checked.
func (id Identity) Check() error {
	res := []*regexp.Regexp{projectRe(), regionRe(), clusterIDRe()}
	var problems []string
	for i, f := range []struct{ flag, value, want string }{
		{"--project", id.Project, "a project id: 6-30 lowercase letters, digits or hyphens starting with a letter (or a project number)"},
		{"--region", id.Region, "a region such as us-central1"},
		{"--cluster-id", id.ClusterID, "1-10 lowercase letters and digits starting with a letter"},
	} {
		if f.value != "" && !res[i].MatchString(f.value) {
			problems = append(problems, fmt.Sprintf("%s %q: want %s", f.flag, f.value, f.want))
		}
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "; "))
	}
	return nil
}

// Rule ids of the compiler's diagnostics.
const (
	RuleIdentity = "cluster-identity"
)

var nameRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^projects/([^/]+)/locations/([^/]+)/modelDevelopmentClusters/([^/]+)$`)
})

// Compile decodes doc into the IR. It expects a document that passed the
// schema; given anything else it still returns without panicking, decoding
// what has the expected shape.
func Compile(doc *load.Document, id Identity, cat *machines.Catalog) (*ir.Cluster, diag.List) {
	return CompilePartial(doc, id, cat, nil)
}

// CompilePartial decodes a document the schema refused in part, for lint
// alone: every value at a path of unsound (the paths of the schema's
// errors) is decoded as Unknown instead of as absent or defaulted, and so
// is every default derived from one (a pool's provisioning model and boot
// disk when its machine type is unsound); the derived paths are added to
// unsound, which becomes the cluster's Unsound. With an empty unsound it is
// Compile. Its IR must never be rendered: callers refuse the spec first.
func CompilePartial(doc *load.Document, id Identity, cat *machines.Catalog, unsound *ir.Unsound) (*ir.Cluster, diag.List) {
	var l diag.List
	root := doc.Root
	if unsound.Len() == 0 {
		unsound = nil
	}
	d := decoder{u: unsound}
	c := &ir.Cluster{File: doc.File, Doc: doc, Unsound: unsound}
	rootPos := root.Pos

	name := d.str(root, nil, "name", "")
	c.Project = ir.Str{Pos: rootPos, Unknown: name.Unknown}
	c.Region = ir.Str{Pos: rootPos, Unknown: name.Unknown}
	c.ID = ir.Str{Pos: rootPos, Unknown: name.Unknown}
	if m := nameRe().FindStringSubmatch(name.Value); m != nil {
		c.Project = ir.Str{Value: m[1], Set: true, Pos: name.Pos, Path: "name"}
		c.Region = ir.Str{Value: m[2], Set: true, Pos: name.Pos, Path: "name"}
		c.ID = ir.Str{Value: m[3], Set: true, Pos: name.Pos, Path: "name"}
	}
	for _, f := range []struct {
		field *ir.Str
		flag  string
		what  string
	}{{&c.Project, id.Project, "project"}, {&c.Region, id.Region, "region"}, {&c.ID, id.ClusterID, "cluster-id"}} {
		switch {
		case f.flag == "":
		case !f.field.Set:
			*f.field = ir.Str{Value: f.flag, Set: true, Pos: rootPos, Path: "--" + f.what}
		case f.field.Value != f.flag:
			l.Errorf(RuleIdentity, f.field.Pos, "name", "drop the flag or make it match the spec's name",
				"--%s %q contradicts the spec's name, which gives %q", f.what, f.flag, f.field.Value)
		}
	}
	c.Network = d.str(root.Get("network"), load.Path{{Name: "network"}}, "network", "")

	pools := root.Get("nodePools")
	c.PoolsUnknown = d.u.Covers("nodePools")
	for i, pn := range items(pools) {
		p := d.pool(pn, load.Path{{Name: "nodePools"}}.Index(i), i, cat)
		if d.omit(p.Path, p.ID) {
			c.PoolsUnknown = true
			continue
		}
		c.NodePools = append(c.NodePools, p)
	}

	slurmPath := load.Path{{Name: "orchestratorSpec"}, {Name: "slurmSpec"}}
	sn := root.Get("orchestratorSpec").Get("slurmSpec")
	s := &c.Slurm
	s.Path = slurmPath.String()
	if sn != nil {
		s.Pos = sn.Pos
	}
	s.HomeDirectoryStorage = d.str(sn, slurmPath, "homeDirectoryStorage", "")
	s.LoginNodePoolID = d.str(sn, slurmPath, "loginNodePoolId", "")
	s.PartitionsUnknown = d.u.Covers(slurmPath.Key("partitions").String())
	for i, pn := range items(sn.Get("partitions")) {
		pp := slurmPath.Key("partitions").Index(i)
		p := &ir.Partition{Index: i, Pos: pn.Pos, Path: pp.String(), ID: d.str(pn, pp, "id", "")}
		if d.omit(p.Path, p.ID) {
			s.PartitionsUnknown = true
			continue
		}
		for j, ref := range items(pn.Get("nodePoolIds")) {
			p.NodePoolIDs = append(p.NodePoolIDs, d.strNode(ref, pp.Key("nodePoolIds").Index(j)))
		}
		p.Config = d.config(pn.Get("config"), pp.Key("config"))
		s.Partitions = append(s.Partitions, p)
	}
	s.DefaultPartitionID = d.str(sn, slurmPath, "defaultPartitionId", "")
	switch {
	case s.DefaultPartitionID.Set || s.DefaultPartitionID.Unknown:
	case len(s.Partitions) > 0 && s.Partitions[0].Index == 0:
		s.DefaultPartitionID.Value = s.Partitions[0].ID.Value
	case s.PartitionsUnknown:
		d.derived(&s.DefaultPartitionID) // the first partition is unknown
	}
	s.Config = d.config(sn.Get("config"), slurmPath.Key("config"))
	s.NodeSetsUnknown = d.u.Covers(slurmPath.Key("nodeSets").String())
	for i, nn := range items(sn.Get("nodeSets")) {
		np := slurmPath.Key("nodeSets").Index(i)
		ns := &ir.NodeSet{Index: i, Pos: nn.Pos, Path: np.String(), NodePoolID: d.str(nn, np, "nodePoolId", "")}
		if d.omit(ns.Path, ns.NodePoolID) {
			s.NodeSetsUnknown = true
			continue
		}
		ns.Config = d.config(nn.Get("config"), np.Key("config"))
		s.NodeSets = append(s.NodeSets, ns)
	}
	s.Prolog = d.scripts(sn.Get("prologBashScripts"), slurmPath.Key("prologBashScripts"))
	s.Epilog = d.scripts(sn.Get("epilogBashScripts"), slurmPath.Key("epilogBashScripts"))
	return c, l
}

func items(n *load.Node) []*load.Node {
	if n == nil || n.Kind != load.Array {
		return nil
	}
	return n.Items
}

// decoder decodes values; u holds the unsound paths (nil: none).
type decoder struct {
	u *ir.Unsound
}

// unknown is the Str of an unsound value at path p: at the value when it
// was written, else at the enclosing object.
func unknown(obj, f *load.Node, p string) ir.Str {
	s := ir.Str{Unknown: true, Path: p}
	switch {
	case f != nil:
		s.Pos = f.Pos
	case obj != nil:
		s.Pos = obj.Pos
	}
	return s
}

// str decodes a string field of obj; def is the value when absent.
func (d decoder) str(obj *load.Node, path load.Path, name, def string) ir.Str {
	p := path.Key(name).String()
	f := obj.Get(name)
	if d.u.Covers(p) {
		return unknown(obj, f, p)
	}
	if s, ok := f.Str(); ok {
		return ir.Str{Value: s, Set: true, Pos: f.Pos, Path: p}
	}
	s := ir.Str{Value: def, Path: p}
	if obj != nil {
		s.Pos = obj.Pos
	}
	return s
}

func (d decoder) strNode(n *load.Node, path load.Path) ir.Str {
	p := path.String()
	if d.u.Covers(p) {
		return unknown(nil, n, p)
	}
	s, ok := n.Str()
	return ir.Str{Value: s, Set: ok, Pos: n.Pos, Path: p}
}

func (d decoder) int(obj *load.Node, path load.Path, name string, def int64) ir.Int {
	p := path.Key(name).String()
	f := obj.Get(name)
	if d.u.Covers(p) {
		s := unknown(obj, f, p)
		return ir.Int{Unknown: true, Pos: s.Pos, Path: p}
	}
	if v, ok := f.Int(); ok {
		return ir.Int{Value: v, Set: true, Pos: f.Pos, Path: p}
	}
	i := ir.Int{Value: def, Path: p}
	if obj != nil {
		i.Pos = obj.Pos
	}
	return i
}

// config decodes a slurm.conf map, sorted by key case-insensitively so that
// the order maps were written in never matters. A pair the schema refused
// (its key or its value: both have the pair's path) keeps its key and has
// an Unknown value.
func (d decoder) config(n *load.Node, path load.Path) []ir.KV {
	if n == nil || n.Kind != load.Object {
		return nil
	}
	var out []ir.KV
	for _, f := range n.Fields {
		v, _ := f.Value.Str()
		kp := path.Key(f.Name).String()
		val := ir.Str{Value: v, Set: true, Pos: f.Value.Pos, Path: kp}
		if d.u.Covers(kp) {
			val = unknown(nil, f.Value, kp)
		}
		out = append(out, ir.KV{Key: ir.Str{Value: f.Name, Set: true, Pos: f.KeyPos, Path: kp}, Value: val})
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := strings.ToLower(out[i].Key.Value), strings.ToLower(out[j].Key.Value)
		if a != b {
			return a < b
		}
		return out[i].Key.Value < out[j].Key.Value
	})
	return out
}

func (d decoder) scripts(n *load.Node, path load.Path) []ir.Script {
	var out []ir.Script
	for i, it := range items(n) {
		s, _ := it.Str()
		out = append(out, ir.Script{Index: i, Text: s, Pos: it.Pos, Path: path.Index(i).String()})
	}
	return out
}

func (d decoder) pool(pn *load.Node, path load.Path, i int, cat *machines.Catalog) *ir.NodePool {
	p := &ir.NodePool{Index: i, Pos: pn.Pos, Path: path.String(), ID: d.str(pn, path, "id", "")}
	ms := pn.Get("machineSpec")
	msPath := path.Key("machineSpec")
	p.MachineType = d.str(ms, msPath, "machineType", "")
	if cat != nil {
		p.Machine, _ = cat.Lookup(p.MachineType.Value)
	}
	ra := ms.Get("reservationAffinity")
	raPath := msPath.Key("reservationAffinity")
	p.ReservationAffinityType = d.str(ra, raPath, "reservationAffinityType", "")
	for j, v := range items(ra.Get("values")) {
		p.Reservations = append(p.Reservations, d.strNode(v, raPath.Key("values").Index(j)))
	}
	p.ProvisioningModel = d.str(pn, path, "provisioningModel", "")
	switch {
	case p.ProvisioningModel.Set || p.ProvisioningModel.Unknown:
	case ra == nil && d.u.Covers(raPath.String()):
		d.derived(&p.ProvisioningModel) // the affinity the default depends on is unsound
	case ra == nil && p.MachineType.Unknown:
		d.derived(&p.ProvisioningModel) // a CPU or a GPU pool? unknown
	default:
		p.ProvisioningModel.Value = defaultProvisioningModel(p, ra != nil)
	}
	sc := pn.Get("scalingSpec")
	scPath := path.Key("scalingSpec")
	p.MinNodeCount = d.int(sc, scPath, "minNodeCount", 0)
	p.MaxNodeCount = d.int(sc, scPath, "maxNodeCount", 0)
	bd := pn.Get("bootDisk")
	bdPath := path.Key("bootDisk")
	p.BootDiskType = d.str(bd, bdPath, "bootDiskType", defaultBootDisk(p))
	if !p.BootDiskType.Set && p.MachineType.Unknown {
		d.derived(&p.BootDiskType) // the default depends on the machine series
	}
	p.BootDiskSizeGb = d.int(bd, bdPath, "bootDiskSizeGb", 100)
	p.Zone = d.str(pn, path, "zone", "")
	for j, f := range items(pn.Get("filestores")) {
		p.Filestores = append(p.Filestores, d.strNode(f, path.Key("filestores").Index(j)))
	}
	p.ConfidentialInstanceType = d.str(pn.Get("confidentialInstanceConfig"), path.Key("confidentialInstanceConfig"), "confidentialInstanceType", "")
	p.FlexStartMaxDuration = d.str(pn, path, "flexStartMaxDuration", "")
	return p
}

// omit reports whether the object at path is left out of the IR: the
// schema refused it, or the id that names it (every finding about it
// names it by that id). Its path becomes unsound, so that no finding is
// made inside it.
func (d decoder) omit(path string, id ir.Str) bool {
	if !d.u.Covers(path) && !id.Unknown {
		return false
	}
	d.u.Add(path)
	return true
}

// derived marks a defaulted value Unknown because a value its default
// depends on is unsound, and adds its path to the unsound set.
func (d decoder) derived(s *ir.Str) {
	s.Value, s.Set, s.Unknown = "", false, true
	if d.u != nil {
		d.u.Add(s.Path)
	}
}

// defaultProvisioningModel applies the API's rule: CPU pools default to
// ON_DEMAND; GPU pools to RESERVATION when a reservation affinity is set,
// otherwise the API rejects the pool (empty result).
func defaultProvisioningModel(p *ir.NodePool, hasAffinity bool) string {
	gpu := p.Machine != nil && p.Machine.HasGPU()
	switch {
	case hasAffinity:
		return "RESERVATION"
	case gpu:
		return ""
	}
	return "ON_DEMAND"
}

// defaultBootDisk is the API's default: pd-ssd, or hyperdisk-balanced on
// A3 Ultra.
func defaultBootDisk(p *ir.NodePool) string {
	if p.Machine != nil && p.Machine.Series == "a3-ultra" {
		return "hyperdisk-balanced"
	}
	return "pd-ssd"
}
