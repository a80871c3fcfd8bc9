// Package importconf turns an existing slurm.conf (and, optionally, its
// gres.conf) into a cluster spec in YAML: the reverse of the renderer, for
// teams that move a cluster they run today to a ModelDevelopmentCluster.
//
// What maps: PartitionName lines become partitions, NodeName lines grouped
// by NodeSet (or, without one, by host list prefix) become node pools with
// a machine type inferred from the catalog and node counts from the static
// and State=CLOUD nodes, the other node keys become nodeSets config, and
// the global keys the service does not own become slurmSpec.config, in the
// catalog's spelling. What does not map is reported as a Note, and where the
// spec needs a value slurm.conf cannot give (the Filestore instance, a
// machine type no catalog entry fits) the spec holds a placeholder that
// lint or the schema reports. A slurm.conf that slurmspec rendered imports
// back to a spec that renders the same slurm.conf.
//
// The machine type of a pool is the catalog entry with exactly the line's
// CPUs (or Sockets × CoresPerSocket × ThreadsPerCore), the same GPU count
// and model (Gres=gpu:TYPE:N; a missing TYPE is taken from gres.conf, and a
// type the catalog does not know matches on the count alone), and a
// RealMemory between 90 % of what the renderer writes for the type
// (Machine.RealMemoryMiB) and the type's whole memory; the nearest memory
// wins. Types with identical facts (a3-highgpu-8g, a3-megagpu-8g) tie: the
// first by name is chosen, with a note, unless slurmspec's own comment in
// the file names the type. When nothing fits, or several types fit and the
// line has no RealMemory, machineType is "TODO-cpus-N-mem-M[-gpus-N-TYPE]",
// which the schema rejects.
package importconf

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/compiler/machines"
	"github.com/slurmspec/slurmspec/compiler/managed"
	"github.com/slurmspec/slurmspec/render/slurmconf"
	catalog "github.com/slurmspec/slurmspec/schema/slurmconf"
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
}

// Note is something the import could not carry over, or a guess it made.
type Note struct {
	// Line is the slurm.conf line it is about, or 0 for the file as a whole
	// (gres.conf notes name their line in the message).
	Line    int
	Message string
}

// String formats a note as "slurm.conf:LINE: MESSAGE".
func (n Note) String() string {
	if n.Line > 0 {
		return fmt.Sprintf("slurm.conf:%d: %s", n.Line, n.Message)
	}
	return "slurm.conf: " + n.Message
}

// Placeholders written where slurm.conf says nothing.
const (
	// LoginPoolID and LoginMachineType describe the login pool the import
	// adds: slurm.conf has no login nodes.
	LoginPoolID      = "login"
	LoginMachineType = "n2-standard-8"
	// HomeDirectoryPlaceholder is homeDirectoryStorage (PROJECT_ID is
	// replaced by Options.Project when given).
	HomeDirectoryPlaceholder = "projects/PROJECT_ID/locations/ZONE/instances/FILESTORE_INSTANCE_ID"
	// ReservationPlaceholder is the reservation named for a pool whose
	// machine type is sold only through reservations.
	ReservationPlaceholder = "projects/PROJECT_ID/zones/ZONE/reservations/RESERVATION_NAME"
)

var (
	clusterIDRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z0-9]{0,9}$`) })
	configKeyRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z][A-Za-z0-9]{0,63}$`) })
)

// kv is one slurm.conf pair as it goes into a config map.
type kv struct {
	Key, Value string
	line       int
}

// importer holds one import's state.
type importer struct {
	opt   Options
	cat   *machines.Catalog
	keys  *catalog.Catalog
	notes []Note
	gres  *gresConf
	scan  scanInfo

	clusterID string
	pools     []*pool
	poolOf    map[string]*pool // node name to compute pool
	sets      []*nodeSet
	parts     []*partition
	defPart   string
	config    []kv
	login     string
	prolog    []string
	epilog    []string
}

func (im *importer) note(line int, format string, args ...any) {
	im.notes = append(im.notes, Note{Line: line, Message: fmt.Sprintf(format, args...)})
}

// Import reads slurm.conf (conf) and, when gres is not empty, gres.conf,
// and returns the spec as YAML with everything it could not map. It fails
// only on input it cannot read: a syntax error, a host list it cannot
// expand, an invalid Options.ClusterID, or a scripts directory it cannot
// read.
func Import(conf []byte, gres []byte, opt Options) (spec []byte, report []Note, err error) {
	im := &importer{opt: opt, cat: machines.Default(), keys: catalog.Default()}
	if opt.ClusterID != "" && !clusterIDRe().MatchString(opt.ClusterID) {
		return nil, nil, fmt.Errorf("cluster id %q: a Slurm cluster id is 1-10 lowercase letters and digits starting with a letter", opt.ClusterID)
	}
	conf = im.dropIncludes(conf)
	f, err := slurmconf.Parse(conf)
	if err != nil {
		return nil, nil, fmt.Errorf("parsing slurm.conf: %w", err)
	}
	im.scan = scan(conf)
	if len(im.scan.globalLines) != len(f.Global) {
		return nil, nil, fmt.Errorf("internal error: %d global lines found, the parser read %d", len(im.scan.globalLines), len(f.Global))
	}
	if len(gres) > 0 {
		gc, notes, err := parseGresConf(gres)
		if err != nil {
			return nil, nil, fmt.Errorf("parsing gres.conf: %w", err)
		}
		im.gres = gc
		im.notes = append(im.notes, notes...)
	}
	im.identity(f)
	if err := im.nodes(f); err != nil {
		return nil, nil, err
	}
	if err := im.partitions(f); err != nil {
		return nil, nil, err
	}
	im.loginPool()
	im.globals(f)
	if err := im.scripts(f); err != nil {
		return nil, nil, err
	}
	for _, l := range f.Other {
		im.note(l.Num, "%s line dropped: %s", l.Pairs[0].Key, otherReason(l.Pairs[0].Key))
	}
	im.note(0, "homeDirectoryStorage is not in slurm.conf: set the Filestore instance that holds /home in place of the placeholder %s", im.homeDir())
	out, err := im.yaml()
	if err != nil {
		return nil, nil, fmt.Errorf("writing the spec: %w", err)
	}
	sort.SliceStable(im.notes, func(i, j int) bool {
		a, b := im.notes[i].Line, im.notes[j].Line
		if (a == 0) != (b == 0) {
			return b == 0
		}
		return a < b
	})
	return out, im.notes, nil
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

// dropIncludes blanks out Include lines (keeping line numbers), which the
// parser rejects, with a note for each.
func (im *importer) dropIncludes(conf []byte) []byte {
	lines := strings.Split(string(conf), "\n")
	changed := false
	for i, raw := range lines {
		text := strings.TrimSpace(stripComment(raw))
		first, _, _ := strings.Cut(text, " ")
		first, _, _ = strings.Cut(first, "\t")
		if strings.HasPrefix(strings.ToLower(first), "include") && !strings.Contains(first, "=") {
			im.note(i+1, "%s not followed: import the included file's settings by hand (the service rejects Include)", strings.TrimSpace(text))
			lines[i] = ""
			changed = true
		}
	}
	if !changed {
		return conf
	}
	return []byte(strings.Join(lines, "\n"))
}

// scanInfo is what the parser drops that the import uses: line numbers of
// global keys, and the comments slurmspec writes.
type scanInfo struct {
	// globalLines holds the line number of each of File.Global, in order.
	globalLines []int
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
	for i, raw := range strings.Split(string(conf), "\n") {
		raw = strings.TrimRight(raw, "\r")
		trimmed := strings.TrimSpace(raw)
		if strings.HasPrefix(trimmed, "#") {
			if m := hintRe().FindStringSubmatch(trimmed); m != nil {
				si.machineHint[m[1]] = m[2]
			}
			inUser = trimmed == userConfigHdr
			continue
		}
		text := strings.TrimSpace(stripComment(raw))
		if text == "" {
			continue
		}
		first := strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == '\t' })[0]
		key, _, _ := strings.Cut(first, "=")
		switch strings.ToLower(key) {
		case "nodename", "nodeset", "partitionname", "downnodes", "frontendname", "poweraction":
			continue
		}
		si.globalLines = append(si.globalLines, i+1)
		if inUser {
			si.userConfig[i+1] = true
		}
	}
	return si
}

// identity sets the cluster id: Options.ClusterID, else ClusterName made
// into a valid id.
func (im *importer) identity(f *slurmconf.File) {
	cn, has := f.GetGlobal("ClusterName")
	line := im.globalLine(f, "ClusterName")
	switch {
	case im.opt.ClusterID != "":
		im.clusterID = im.opt.ClusterID
		if has && cn != im.opt.ClusterID {
			im.note(line, "ClusterName=%s replaced by the cluster id %s given", cn, im.opt.ClusterID)
		}
	case has:
		im.clusterID = sanitizeClusterID(cn)
		if im.clusterID != cn {
			im.note(line, "ClusterName=%s is not a valid cluster id (1-10 lowercase letters and digits, starting with a letter); using %s", cn, im.clusterID)
		}
	default:
		im.clusterID = "cluster"
		im.note(0, "slurm.conf sets no ClusterName; the cluster id is %q: change it in name", im.clusterID)
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

// globalLine returns the line of the last global setting of key, or 0.
func (im *importer) globalLine(f *slurmconf.File, key string) int {
	line := 0
	for i, p := range f.Global {
		if strings.EqualFold(p.Key, key) {
			line = im.scan.globalLines[i]
		}
	}
	return line
}

// loginPool adds the login pool slurm.conf cannot describe.
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
	m, _ := im.cat.Lookup(LoginMachineType)
	im.pools = append(im.pools, &pool{id: id, machineType: LoginMachineType, machine: m, min: 1, max: 1, login: true})
	im.note(0, "slurm.conf describes no login nodes: added node pool %q (%s, 1 node) as loginNodePoolId; adjust it", id, LoginMachineType)
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

// validValue reports whether v can be written as one slurm.conf value: the
// renderer's own rule.
func validValue(v string) bool {
	if v == "" || len([]rune(v)) > 1024 {
		return false
	}
	for _, r := range v {
		if r <= ' ' || r == 0x7f || r == '#' || r == '"' || r == '\'' || r == '\\' || r == 0x85 || r == 0x2028 || r == 0x2029 || r == 0xa0 {
			return false
		}
	}
	return true
}

// configPair checks a key and value for a config map of scope and returns
// the pair in the catalog's spelling; ok is false (with a note) when it
// cannot be written.
func (im *importer) configPair(scope catalog.Scope, where string, line int, key, value string) (kv, bool) {
	if !configKeyRe().MatchString(key) {
		im.note(line, "%s key %q dropped: not a slurm.conf key name", where, key)
		return kv{}, false
	}
	if !validValue(value) {
		im.note(line, "%s %s=%q dropped: a spec value must be 1-1024 characters without white space, #, quotes or backslashes", where, key, value)
		return kv{}, false
	}
	if p, ok := im.keys.Lookup(scope, key); ok {
		return kv{Key: p.Name, Value: value, line: line}, true
	}
	im.note(line, "%s key %s is not in the Slurm parameter catalog; kept as written (lint will report it)", where, key)
	return kv{Key: key, Value: value, line: line}, true
}

// globals fills slurmSpec.config: every global key but the reserved ones
// (noted when their value differs from what the service writes), Prolog
// and Epilog (see scripts), and the service defaults given with the
// default value (the renderer writes those itself).
func (im *importer) globals(f *slurmconf.File) {
	c := im.cluster()
	baseline := map[string]string{}
	for _, s := range managed.ReservedSettings(c) {
		baseline[strings.ToLower(s.Key)] = s.Value
	}
	index := map[string]int{}
	for i, p := range f.Global {
		line := im.scan.globalLines[i]
		lower := strings.ToLower(p.Key)
		switch lower {
		case "clustername", "prolog", "epilog":
			continue
		}
		if k, ok := managed.Lookup(p.Key); ok {
			if v, inBase := baseline[lower]; !inBase || v != p.Value {
				im.note(line, "%s=%s dropped: %s", p.Key, p.Value, k.Reason)
			}
			continue
		}
		pair, ok := im.configPair(catalog.ScopeGlobal, "slurm.conf", line, p.Key, p.Value)
		if !ok {
			continue
		}
		lk := strings.ToLower(pair.Key)
		if j, dup := index[lk]; dup {
			prev := im.config[j]
			if prev.Value != pair.Value {
				im.note(line, "%s is set again (line %d set %s); Slurm uses the last value, and so does the spec", pair.Key, prev.line, prev.Value)
			}
			im.config[j] = pair
			continue
		}
		index[lk] = len(im.config)
		im.config = append(im.config, pair)
	}
	var added []string
	drop := map[int]bool{}
	for _, s := range managed.DefaultSettings(c) {
		j, ok := index[strings.ToLower(s.Key)]
		switch {
		case !ok:
			added = append(added, s.Key+"="+s.Value)
		case im.config[j].Value == s.Value && !im.scan.userConfig[im.config[j].line]:
			drop[j] = true
		}
	}
	var kept []kv
	for j, p := range im.config {
		if !drop[j] {
			kept = append(kept, p)
		}
	}
	im.config = kept
	sortKVs(im.config)
	if len(added) > 0 {
		im.note(0, "the service adds defaults slurm.conf does not set: %s; set them in slurmSpec.config to keep other values", strings.Join(added, " "))
	}
}

// sortKVs sorts a config map as the compiler does: by key, ignoring case.
func sortKVs(kvs []kv) {
	sort.SliceStable(kvs, func(i, j int) bool {
		a, b := strings.ToLower(kvs[i].Key), strings.ToLower(kvs[j].Key)
		if a != b {
			return a < b
		}
		return kvs[i].Key < kvs[j].Key
	})
}

// scripts imports Prolog and Epilog: from Options.ScriptsDir when given,
// else as notes.
func (im *importer) scripts(f *slurmconf.File) error {
	for _, k := range []struct {
		key, dir string
		field    string
		out      *[]string
	}{{"Prolog", "prolog.d", "prologBashScripts", &im.prolog}, {"Epilog", "epilog.d", "epilogBashScripts", &im.epilog}} {
		v, ok := f.GetGlobal(k.key)
		line := im.globalLine(f, k.key)
		if !ok {
			continue
		}
		if im.opt.ScriptsDir == "" {
			im.note(line, "%s=%s is a path, not a script: put the text of the scripts it runs into %s", k.key, v, k.field)
			continue
		}
		dir := filepath.Join(im.opt.ScriptsDir, k.dir)
		texts, err := readScripts(dir)
		if err != nil {
			return err
		}
		if len(texts) == 0 {
			im.note(line, "%s=%s not imported: %s holds no *.sh scripts; put their text into %s", k.key, v, dir, k.field)
			continue
		}
		if v != managedGlob(k.key) {
			im.note(line, "%s=%s replaced by the scripts in %s, which the service installs as %s", k.key, v, dir, managedGlob(k.key))
		}
		*k.out = texts
	}
	return nil
}

func managedGlob(key string) string {
	if key == "Prolog" {
		return managed.PrologDir + "/*"
	}
	return managed.EpilogDir + "/*"
}

// readScripts reads dir/*.sh in the order Slurm runs a glob's matches:
// reverse alphabetical. A missing directory has none.
func readScripts(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading scripts: %w", err)
	}
	var out []string
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".sh") {
			continue
		}
		b, err := load.ReadFile(filepath.Join(dir, e.Name()), load.MaxFileSize) // regular files only, bounded
		if err != nil {
			return nil, fmt.Errorf("reading scripts: %w", err)
		}
		if strings.IndexByte(string(b), 0) >= 0 {
			return nil, fmt.Errorf("script %s contains a NUL byte", filepath.Join(dir, e.Name()))
		}
		out = append(out, string(b))
	}
	slices.Reverse(out) // os.ReadDir sorts by name
	return out, nil
}
