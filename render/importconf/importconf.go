// Package importconf turns an existing slurm.conf (and, optionally, its
// gres.conf) into a cluster spec in YAML: the inverse of the renderer, for
// teams that move a cluster they run today to a ModelDevelopmentCluster.
// It reads slurm.conf with render/slurmconf, the one home of the syntax;
// Include lines are followed only into Options.IncludeDir. Input is
// bounded: MaxInputBytes per file and all included files together, and
// Options.MaxHosts names for all host lists together.
//
// What maps: PartitionName lines become partitions, NodeName lines grouped
// by NodeSet (or, without one, by host list prefix) become node pools with
// a machine type inferred from the catalog and node counts from the static
// and State=CLOUD nodes, the other node keys become nodeSets config, and
// the global keys the service does not own become slurmSpec.config, in the
// catalog's canonical spelling. What does not map is reported as a Note.
//
// The import never guesses silently. Where the spec needs a value
// slurm.conf cannot give (the Filestore instance, the machine type of the
// login pool, how GPUs are bought, a machine type several catalog entries
// fit) the spec holds a placeholder that the schema rejects, the note names
// the candidates, and the spec's header comment lists every decision left
// to a person and every choice the import made. A slurm.conf that
// slurmspec rendered imports back, once those decisions are made, to a
// spec that renders the same slurm.conf.
//
// The machine type of a pool is the catalog entry with exactly the line's
// CPUs (or, as Slurm infers it, sockets × CoresPerSocket × ThreadsPerCore,
// where sockets is Sockets, Boards × SocketsPerBoard or Boards), the same
// GPU count and model (Gres=gpu:TYPE:N; a missing TYPE is taken from
// gres.conf, and a type the catalog does not know matches on the count
// alone), and a RealMemory between 90 % of what the renderer writes for the
// type (Machine.RealMemoryMiB) and the type's whole memory; the nearest
// memory wins. Types with identical facts (a3-highgpu-8g, a3-megagpu-8g)
// tie: unless slurmspec's own comment in the file names the type, the
// machine type is the placeholder "TODO-choose-A-or-B". When nothing fits
// it is "TODO-cpus-N-mem-M[-gpus-N-TYPE]".
package importconf

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/slurmspec/slurmspec/compiler/hostlist"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/compiler/machines"
	"github.com/slurmspec/slurmspec/render/slurmconf"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// Options adjust an import.
type Options struct {
	// ClusterID, Project and Region set the cluster's name. ClusterID
	// overrides slurm.conf's ClusterName; an empty Project or Region is
	// written as the placeholder PROJECT_ID or REGION.
	ClusterID, Project, Region string
	// ScriptsDir, when set, is the directory that holds prolog.d/*.sh and
	// epilog.d/*.sh (as render writes them next to slurm.conf): their text
	// becomes prologBashScripts and epilogBashScripts, in the order Slurm
	// runs them (reverse alphabetical, which render's names make list order),
	// when slurm.conf sets Prolog or Epilog. Without it Prolog and Epilog
	// are reported as notes, since a path is not a script.
	ScriptsDir string
	// IncludeDir, when set, is where Include directives are followed: the
	// file of the directive's base name in that directory (regular files
	// only, not through a link; all files together at most MaxInputBytes).
	// Without it, or when the file is not there, an Include is a note.
	IncludeDir string
	// MaxHosts bounds the number of node names all the host lists of the
	// input (slurm.conf and gres.conf) expand to together (0:
	// DefaultMaxHosts).
	MaxHosts int
}

// NoteKind says what a note is about.
type NoteKind int

// The kinds of notes.
const (
	// NoteInfo is a setting dropped, changed or kept with a caveat.
	NoteInfo NoteKind = iota
	// NoteChoice is a choice the import made from the evidence (a machine
	// type inferred, a node renamed); the header comment lists it.
	NoteChoice
	// NoteDecide is a decision left to a person: the spec holds a
	// placeholder that fails the schema until it is made.
	NoteDecide
)

// Note is something the import could not carry over, a choice it made or a
// decision it leaves to a person.
type Note struct {
	// File is the included file the line is in, as its Include names it;
	// "" for slurm.conf itself.
	File string
	// Line is the line it is about, or 0 for the file as a whole
	// (gres.conf notes name their line in the message).
	Line    int
	Kind    NoteKind
	Message string
}

// String formats a note as "slurm.conf:LINE: MESSAGE" (or FILE:LINE for an
// included file).
func (n Note) String() string {
	file := n.File
	if file == "" {
		file = "slurm.conf"
	}
	if n.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", file, n.Line, n.Message)
	}
	return file + ": " + n.Message
}

// DefaultMaxHosts is the default Options.MaxHosts: room for a 100,000-node
// cluster whose partitions list every node a few times over. A file at the
// bound imports in about 2 s of CPU and 250 MB (500,000 names measured).
const DefaultMaxHosts = 1 << 19

// Placeholders written where slurm.conf says nothing.
const (
	// LoginPoolID is the id of the login pool the import adds: slurm.conf
	// has no login nodes.
	LoginPoolID = "login"
	// LoginMachinePlaceholder is the login pool's machine type, and
	// LoginMachineExamples the types its note suggests.
	LoginMachinePlaceholder = "TODO-choose-login-machine-type"
	LoginMachineExamples    = "n2-standard-8, n4-standard-8, c4-standard-8"
	// HomeDirectoryPlaceholder is homeDirectoryStorage (PROJECT_ID is
	// replaced by Options.Project when given).
	HomeDirectoryPlaceholder = "projects/PROJECT_ID/locations/ZONE/instances/FILESTORE_INSTANCE_ID"
	// ChoosePrefix starts every placeholder that names its candidates.
	ChoosePrefix = "TODO-choose-"
	// StandInPoolID, StandInMachinePlaceholder and StandInPartitionID
	// describe the pool and partition that stand in when slurm.conf
	// defines no nodes or no usable partition.
	StandInPoolID             = "compute"
	StandInMachinePlaceholder = "TODO-choose-compute-machine-type"
	StandInPartitionID        = "batch"
)

var clusterIDRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z0-9]{0,9}$`) })

// kv is one slurm.conf pair as it goes into a config map.
type kv struct {
	Key, Value string
	line       int
}

// importer holds one import's state.
type importer struct {
	opt    Options
	cat    *machines.Catalog
	keys   *catalog.Catalog
	notes  []Note
	gres   *gresConf
	scan   scanInfo
	budget *hostlist.Budget
	file   *slurmconf.File

	clusterID string
	pools     []*pool
	poolOf    map[string]*pool  // node name to compute pool
	rename    map[string]string // node name to the name the service gives it
	partID    map[string]string // partition name to partition id (kept ones)
	sets      []*nodeSet
	parts     []*partition
	defPart   string
	config    []kv
	login     string
	prolog    []string
	epilog    []string
}

func (im *importer) note(line int, format string, args ...any) {
	im.notes = append(im.notes, Note{Line: line, Message: message(format, args...)})
}

// choice records a choice the import made from the evidence.
func (im *importer) choice(line int, format string, args ...any) {
	im.notes = append(im.notes, Note{Line: line, Kind: NoteChoice, Message: message(format, args...)})
}

// decide records a decision left to a person (a placeholder in the spec).
func (im *importer) decide(line int, format string, args ...any) {
	im.notes = append(im.notes, Note{Line: line, Kind: NoteDecide, Message: message(format, args...)})
}

// message formats a note as UTF-8 text: bytes of the input that are not
// UTF-8 (a Latin-1 value) become U+FFFD, since notes are also the spec's
// header comment.
func message(format string, args ...any) string {
	return strings.ToValidUTF8(fmt.Sprintf(format, args...), "\uFFFD")
}

// Result is an import's full outcome.
type Result struct {
	// Spec is the spec in YAML; Notes what it could not map, the choices
	// it made and the decisions it leaves (also listed in Spec's header).
	Spec  []byte
	Notes []Note
	// Nodes maps each node slurm.conf defines to the name the service
	// gives it; Partitions maps each partition kept to its id.
	Nodes, Partitions map[string]string
}

// Import reads slurm.conf (conf) and, when gres is not empty, gres.conf,
// and returns the spec as YAML with everything it could not map. It fails
// only on input it cannot read: input over MaxInputBytes, a syntax error, a
// host list it cannot expand (or host lists that expand to more than
// Options.MaxHosts names together), an invalid Options.ClusterID, or a
// scripts directory it cannot read.
func Import(conf []byte, gres []byte, opt Options) (spec []byte, report []Note, err error) {
	r, err := Convert(conf, gres, opt)
	if err != nil {
		return nil, nil, err
	}
	return r.Spec, r.Notes, nil
}

// Convert is Import with the node and partition renames.
func Convert(conf []byte, gres []byte, opt Options) (*Result, error) {
	spec, notes, im, err := run(conf, gres, opt)
	if err != nil {
		return nil, err
	}
	return &Result{Spec: spec, Notes: notes, Nodes: im.rename, Partitions: im.partID}, nil
}

func run(conf []byte, gres []byte, opt Options) (spec []byte, report []Note, _ *importer, err error) {
	if len(conf) > MaxInputBytes || len(gres) > MaxInputBytes {
		return nil, nil, nil, fmt.Errorf("input larger than %d bytes", MaxInputBytes)
	}
	if opt.MaxHosts <= 0 {
		opt.MaxHosts = DefaultMaxHosts
	}
	im := &importer{opt: opt, cat: machines.Default(), keys: catalog.Default(), budget: hostlist.NewBudget(opt.MaxHosts)}
	if opt.ClusterID != "" && !clusterIDRe().MatchString(opt.ClusterID) {
		return nil, nil, nil, fmt.Errorf("cluster id %q: a Slurm cluster id is 1-10 lowercase letters and digits starting with a letter", opt.ClusterID)
	}
	if rest, ok := bytes.CutPrefix(conf, []byte("\ufeff")); ok {
		conf = rest
		im.note(1, "the byte order mark at the start of the file is ignored (Slurm would read it as part of the first key)")
	}
	gres = bytes.TrimPrefix(gres, []byte("\ufeff"))
	f, err := slurmconf.ParseIncluding(conf, im.includeReader(len(conf), includeClusterName(conf)))
	if err != nil {
		return nil, nil, nil, fmt.Errorf("parsing slurm.conf: %w", err)
	}
	im.file = f
	for _, inc := range f.Includes {
		switch {
		case inc.Followed:
			im.note(inc.Num, "Include %s followed: its settings are imported with the rest (the service rejects Include)", inc.Path)
		case inc.Err != nil && im.opt.IncludeDir != "":
			im.note(inc.Num, "Include %s not followed (%v): import the included file's settings by hand (the service rejects Include)", inc.Path, inc.Err)
		default:
			im.note(inc.Num, "Include %s not followed: name the directory holding %s with --include-dir, or import its settings by hand (the service rejects Include)", inc.Path, filepath.Base(inc.Path))
		}
	}
	im.scan = scan(conf)
	if len(gres) > 0 {
		gc, notes, err := parseGresConf(gres, im.budget)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("parsing gres.conf: %w", err)
		}
		im.gres = gc
		im.notes = append(im.notes, notes...)
	}
	im.identity(f)
	if err := im.nodes(f); err != nil {
		return nil, nil, nil, err
	}
	if err := im.partitions(f); err != nil {
		return nil, nil, nil, err
	}
	im.loginPool()
	if err := im.globals(f); err != nil {
		return nil, nil, nil, err
	}
	if err := im.scripts(f); err != nil {
		return nil, nil, nil, err
	}
	for _, l := range f.Other {
		im.note(l.Num, "%s line dropped: %s", l.Pairs[0].Key, otherReason(l.Pairs[0].Key))
	}
	im.decide(0, "homeDirectoryStorage is not in slurm.conf: set the Filestore instance that holds /home in place of the placeholder %s", im.homeDir())
	sort.SliceStable(im.notes, func(i, j int) bool {
		a, b := im.notes[i].Line, im.notes[j].Line
		if (a == 0) != (b == 0) {
			return b == 0
		}
		return a < b
	})
	for i, n := range im.notes {
		if k := n.Line / slurmconf.LineStride; k > 0 && k <= len(f.Files) {
			im.notes[i].File, im.notes[i].Line = f.Files[k-1], n.Line%slurmconf.LineStride
		}
	}
	out, err := im.yaml()
	if err != nil {
		return nil, nil, nil, fmt.Errorf("writing the spec: %w", err)
	}
	return out, im.notes, im, nil
}

// where names a line for a message: "line 12", or "nodes.conf line 3".
func (im *importer) where(num int) string {
	if im.file == nil {
		return fmt.Sprintf("line %d", num)
	}
	return im.file.Where(num)
}

// includeReader reads included files from Options.IncludeDir, or is nil.
// used is the input read so far, which counts against MaxInputBytes;
// cluster is what %c in an Include path stands for ("" when unknown).
func (im *importer) includeReader(used int, cluster string) func(string) ([]byte, error) {
	if im.opt.IncludeDir == "" {
		return nil
	}
	return func(path string) ([]byte, error) {
		name := filepath.Base(path)
		if cluster != "" {
			name = filepath.Base(strings.ReplaceAll(name, "%c", cluster))
		}
		if strings.Contains(name, "%") || name == "." || name == ".." || name == "/" {
			return nil, fmt.Errorf("%s: not a file name the import can look up", path)
		}
		data, err := ReadInput(filepath.Join(im.opt.IncludeDir, name))
		if err != nil {
			return nil, err
		}
		if used += len(data); used > MaxInputBytes {
			return nil, fmt.Errorf("the included files take the input past %d bytes", MaxInputBytes)
		}
		return data, nil
	}
}

// includeClusterName is what Slurm puts for %c in an Include path: the
// ClusterName, lower-cased (_parse_for_format in src/common/parse_config.c;
// %c is its only modifier). It is read from slurm.conf itself, without its
// includes; "" when slurm.conf sets none or does not parse.
func includeClusterName(conf []byte) string {
	f, err := slurmconf.ParseIncluding(conf, nil)
	if err != nil {
		return ""
	}
	name, _ := f.GetGlobal("ClusterName")
	return strings.ToLower(name)
}

func otherReason(key string) string {
	switch strings.ToLower(key) {
	case "downnodes":
		return "the service manages node state"
	case "frontendname":
		return "front end nodes are not supported (and were removed in Slurm 25.05)"
	}
	return "the service provisions and powers nodes itself"
}

// scanInfo is what the parser drops that the import uses: the comments
// slurmspec writes.
type scanInfo struct {
	// userConfig marks the global lines that follow slurmspec's
	// "# orchestratorSpec.slurmSpec.config" comment: set by the user even
	// where they equal a service default.
	userConfig map[int]bool
	// machineHint maps a pool id to the machine type slurmspec's comment
	// "# nodePools[i] "id": TYPE, ..." names.
	machineHint map[string]string
}

var (
	hintRe        = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^# nodePools\[\d+\] "([^"]*)": ([^,;\s]+)[,;]`) })
	userConfigHdr = "# orchestratorSpec.slurmSpec.config"
)

func scan(conf []byte) scanInfo {
	si := scanInfo{userConfig: map[int]bool{}, machineHint: map[string]string{}}
	inUser := false
	for _, ll := range slurmconf.SplitLines(conf) {
		text := strings.TrimSpace(ll.Text)
		if text == "" {
			trimmed := strings.TrimSpace(ll.Raw)
			if strings.HasPrefix(trimmed, "#") {
				if m := hintRe().FindStringSubmatch(trimmed); m != nil {
					si.machineHint[m[1]] = m[2]
				}
				inUser = trimmed == userConfigHdr
			}
			continue
		}
		if inUser {
			si.userConfig[ll.Num] = true
		}
	}
	return si
}

// identity sets the cluster id: Options.ClusterID, else ClusterName made
// into a valid id.
func (im *importer) identity(f *slurmconf.File) {
	cn, has := f.GetGlobal("ClusterName")
	line := f.GlobalLine("ClusterName")
	switch {
	case im.opt.ClusterID != "":
		im.clusterID = im.opt.ClusterID
		if has && cn != im.opt.ClusterID {
			im.note(line, "ClusterName=%s replaced by the cluster id %s given", cn, im.opt.ClusterID)
		}
	case has:
		im.clusterID = sanitizeClusterID(cn)
		if im.clusterID != cn {
			im.choice(line, "ClusterName=%s is not a valid cluster id (1-10 lowercase letters and digits, starting with a letter); using %s", cn, im.clusterID)
		}
	default:
		im.clusterID = "cluster"
		im.choice(0, "slurm.conf sets no ClusterName; the cluster id is %q: change it in name", im.clusterID)
	}
}

func sanitizeClusterID(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' && b.Len() > 0 {
			b.WriteRune(r)
		}
		if b.Len() == 10 {
			break
		}
	}
	if b.Len() == 0 {
		return "cluster"
	}
	return b.String()
}

// loginPool adds the login pool slurm.conf cannot describe, with a
// placeholder machine type.
func (im *importer) loginPool() {
	taken := map[string]bool{}
	for _, p := range im.pools {
		taken[p.id] = true
	}
	id := LoginPoolID
	for n := 2; taken[id]; n++ {
		id = fmt.Sprintf("%s-%d", LoginPoolID, n)
	}
	im.login = id
	im.pools = append(im.pools, &pool{id: id, machineType: LoginMachinePlaceholder, todo: true, min: 1, max: 1, login: true})
	im.decide(0, "slurm.conf describes no login nodes: node pool %q (1 node) is the loginNodePoolId; choose its machineType in place of %s (for example %s)", id, LoginMachinePlaceholder, LoginMachineExamples)
}

func (im *importer) homeDir() string {
	if im.opt.Project != "" {
		return strings.Replace(HomeDirectoryPlaceholder, "PROJECT_ID", im.opt.Project, 1)
	}
	return HomeDirectoryPlaceholder
}

// cluster builds the IR the managed package needs to compute the baseline
// for the imported spec.
func (im *importer) cluster() *ir.Cluster {
	c := &ir.Cluster{ID: ir.Str{Value: im.clusterID, Set: true}}
	for _, p := range im.pools {
		c.NodePools = append(c.NodePools, &ir.NodePool{
			ID: ir.Str{Value: p.id, Set: true}, MachineType: ir.Str{Value: p.machineType, Set: true}, Machine: p.machine,
			MinNodeCount: ir.Int{Value: p.min, Set: true}, MaxNodeCount: ir.Int{Value: p.max, Set: true},
		})
	}
	c.Slurm.LoginNodePoolID = ir.Str{Value: im.login, Set: true}
	for range im.prolog {
		c.Slurm.Prolog = append(c.Slurm.Prolog, ir.Script{})
	}
	for range im.epilog {
		c.Slurm.Epilog = append(c.Slurm.Epilog, ir.Script{})
	}
	return c
}
