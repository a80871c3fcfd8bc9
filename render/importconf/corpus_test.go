package importconf_test

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler"
	"github.com/slurmspec/slurmspec/compiler/hostlist"
	"github.com/slurmspec/slurmspec/lint/pipeline/pipelinetest"
	"github.com/slurmspec/slurmspec/render"
	"github.com/slurmspec/slurmspec/render/importconf"
	"github.com/slurmspec/slurmspec/render/importconf/importtest"
	"github.com/slurmspec/slurmspec/render/slurmconf"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// corpusDir holds the slurm.conf corpus (testdata/slurmconf/README.md).
const corpusDir = "../../testdata/slurmconf"

// corpusFile is one slurm.conf of the corpus, with its gres.conf if any.
type corpusFile struct {
	name       string
	dir        string
	conf, gres []byte
}

// readCorpus reads DIR/*/slurm.conf (with DIR/*/gres.conf) and DIR/*.conf.
func readCorpus(t *testing.T) []corpusFile {
	t.Helper()
	var out []corpusFile
	confs, _ := filepath.Glob(filepath.Join(corpusDir, "*", "slurm.conf"))
	singles, _ := filepath.Glob(filepath.Join(corpusDir, "*.conf"))
	for _, p := range append(confs, singles...) {
		conf, err := importconf.ReadInput(p)
		if err != nil {
			t.Fatal(err)
		}
		cf := corpusFile{name: strings.TrimPrefix(filepath.ToSlash(p), corpusDir+"/"), dir: filepath.Dir(p), conf: conf}
		if filepath.Base(p) == "slurm.conf" {
			gres, err := importconf.ReadInput(filepath.Join(filepath.Dir(p), "gres.conf"))
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				t.Fatal(err)
			}
			cf.gres = gres
		}
		out = append(out, cf)
	}
	if len(out) < 20 {
		t.Fatalf("the corpus has %d files; it should have at least 20", len(out))
	}
	return out
}

// TestCorpusNoSilentChanges imports every corpus file, makes the decisions
// the import leaves (importtest.DecideFirst), compiles and renders the
// spec, and checks that every setting of the original slurm.conf is in
// the rendered one with the same meaning, or that a note reports it: no
// silent change.
func TestCorpusNoSilentChanges(t *testing.T) {
	for _, cf := range readCorpus(t) {
		t.Run(cf.name, func(t *testing.T) {
			r, err := importconf.Convert(cf.conf, cf.gres, importconf.Options{IncludeDir: cf.dir})
			if err != nil {
				t.Fatalf("import: %v", err)
			}
			decided, err := importtest.DecideFirst(r.Spec)
			if err != nil {
				t.Fatal(err)
			}
			c := pipelinetest.CompileAs(t, "imported.yaml", string(decided), compiler.Identity{})
			set, l := render.Render(c, render.Options{SlurmVersion: "22.05"})
			if l.HasErrors() {
				t.Fatalf("render: %v", l)
			}
			checkNoSilentChanges(t, cf, set.Get("slurm.conf").Data, r)
		})
	}
}

// setting is one key of a line after DEFAULT lines: its value and the line
// it comes from.
type setting struct {
	key, value string
	line       int
}

// effective maps canonical lower-case keys to settings.
type effective map[string]setting

// canon is the catalog's canonical key (aliases resolved), lower-cased.
func canon(scope catalog.Scope, key string) string {
	name, _ := slurmconf.CanonicalKey(scope, key)
	return strings.ToLower(name)
}

// named reads NodeName or PartitionName lines into name → settings, as
// Slurm does: NAME=DEFAULT lines set defaults for the lines after them,
// and a later line for the same name overrides keys.
func named(lines []slurmconf.Line, scope catalog.Scope, expand bool, budget *hostlist.Budget) (map[string]effective, map[string]int, error) {
	defaults := effective{}
	out := map[string]effective{}
	lineOf := map[string]int{}
	for _, l := range lines {
		attrs := effective{}
		for _, p := range l.Pairs[1:] {
			attrs[canon(scope, p.Key)] = setting{p.Key, p.Value, l.Num}
		}
		if strings.EqualFold(l.Name(), "DEFAULT") {
			for k, v := range attrs {
				defaults[k] = v
			}
			continue
		}
		names := []string{l.Name()}
		if expand {
			var err error
			if names, err = hostlist.Expand(l.Name(), budget); err != nil {
				return nil, nil, err
			}
		}
		for _, n := range names {
			e := out[n]
			if e == nil {
				e = effective{}
				for k, v := range defaults {
					e[k] = v
				}
				lineOf[n] = l.Num
			}
			for k, v := range attrs {
				e[k] = v
			}
			out[n] = e
		}
	}
	return out, lineOf, nil
}

// reported reports whether a note at one of lines (or at 0) mentions what.
func reported(notes []importconf.Note, what string, lines ...int) bool {
	what = strings.ToLower(what)
	for _, n := range notes {
		if !strings.Contains(strings.ToLower(n.Message), what) {
			continue
		}
		if n.Line == 0 {
			return true
		}
		for _, l := range lines {
			if n.Line == l {
				return true
			}
		}
	}
	return false
}

// poolNoted reports whether a note names the pool a rendered node belongs
// to together with what.
func poolNoted(notes []importconf.Note, clusterID, node, what string) bool {
	rest := strings.TrimPrefix(node, clusterID+"-")
	pool := strings.TrimRight(rest, "0123456789")
	pool = strings.TrimSuffix(pool, "-")
	for _, n := range notes {
		m := strings.ToLower(n.Message)
		if strings.Contains(n.Message, `pool "`+pool+`"`) && strings.Contains(m, strings.ToLower(what)) {
			return true
		}
	}
	return false
}

// sameNodeValue compares a node key's value with Slurm's meaning: Gres by
// its GPU count (the type may come from gres.conf), State CLOUD and FUTURE
// as "may scale up to", UNKNOWN as no state.
func sameNodeValue(key, old, new string) bool {
	switch key {
	case "gres":
		o, err1 := slurmconf.ParseGres(old)
		n, err2 := slurmconf.ParseGres(new)
		if err1 != nil || err2 != nil || len(o) != len(n) {
			return false
		}
		for i := range o {
			if !strings.EqualFold(o[i].Name, n[i].Name) || o[i].Count != n[i].Count || o[i].Type != "" && !strings.Contains(strings.ToLower(o[i].Type), strings.ToLower(n[i].Type)) {
				return false
			}
		}
		return true
	case "state":
		norm := func(s string) string {
			switch strings.ToUpper(s) {
			case "CLOUD", "FUTURE":
				return "CLOUD"
			case "UNKNOWN":
				return ""
			}
			return strings.ToUpper(s)
		}
		return norm(old) == norm(new)
	}
	return old == new
}

func checkNoSilentChanges(t *testing.T, cf corpusFile, renderedData []byte, r *importconf.Result) {
	t.Helper()
	// The original as Slurm reads it: with the files it includes.
	// Slurm reads %c in an Include path as the ClusterName, lower-cased.
	main, err := slurmconf.ParseIncluding(bytes.TrimPrefix(cf.conf, []byte("\ufeff")), nil)
	if err != nil {
		t.Fatal(err)
	}
	cluster, _ := main.GetGlobal("ClusterName")
	orig, err := slurmconf.ParseIncluding(bytes.TrimPrefix(cf.conf, []byte("\ufeff")), func(path string) ([]byte, error) {
		return importconf.ReadInput(filepath.Join(cf.dir, strings.ReplaceAll(filepath.Base(path), "%c", strings.ToLower(cluster))))
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := slurmconf.Parse(renderedData)
	if err != nil {
		t.Fatal(err)
	}
	// Notes name included files; number their lines as orig does.
	notes := append([]importconf.Note{}, r.Notes...)
	for i, n := range notes {
		for k, f := range orig.Files {
			if n.File == f {
				notes[i].Line = (k+1)*slurmconf.LineStride + n.Line
			}
		}
	}
	clusterID, _ := got.GetGlobal("ClusterName")
	silent := func(format string, args ...any) {
		t.Helper()
		t.Errorf("silent change: "+format, args...)
	}

	// Global settings: the last value of each key, as Slurm reads it.
	newGlobal := map[string]string{}
	for _, p := range got.Global {
		newGlobal[canon(catalog.ScopeGlobal, p.Key)] = p.Value
	}
	last := map[string]int{}
	for i, p := range orig.Global {
		last[canon(catalog.ScopeGlobal, p.Key)] = i
	}
	for i, p := range orig.Global {
		k := canon(catalog.ScopeGlobal, p.Key)
		line := orig.GlobalLines[i]
		if last[k] != i {
			if !reported(notes, p.Key, line, orig.GlobalLines[last[k]]) && newGlobal[k] != p.Value {
				silent("line %d: %s=%s (set again later)", line, p.Key, p.Value)
			}
			continue
		}
		if v, ok := newGlobal[k]; ok && v == p.Value {
			continue
		}
		if !reported(notes, p.Key, line) {
			silent("line %d: %s=%s became %q", line, p.Key, p.Value, newGlobal[k])
		}
	}
	for _, inc := range orig.Includes {
		if !reported(notes, "Include", inc.Num) {
			silent("line %d: Include %s", inc.Num, inc.Path)
		}
	}
	for _, l := range orig.Other {
		if !reported(notes, l.Pairs[0].Key, l.Num) {
			silent("line %d: %s line", l.Num, l.Pairs[0].Key)
		}
	}

	// Nodes: each one's keys, on the node the service names for it.
	budget := hostlist.NewBudget(hostlist.MaxHosts)
	oldNodes, nodeLine, err := named(orig.Nodes, catalog.ScopeNode, true, budget)
	if err != nil {
		t.Fatal(err)
	}
	newNodes, _, err := named(got.Nodes, catalog.ScopeNode, true, budget)
	if err != nil {
		t.Fatal(err)
	}
	gresTypes := gresConfTypes(t, cf.gres, budget)
	// One report per key and pool is enough: a 10,000-node file fails
	// with a readable list.
	seen := map[string]bool{}
	names := make([]string, 0, len(oldNodes))
	for n := range oldNodes {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return hostlist.Less(names[i], names[j]) })
	for _, n := range names {
		attrs := oldNodes[n]
		nn, ok := r.Nodes[n]
		if !ok {
			if !reported(notes, n, nodeLine[n]) && !reported(notes, "already defined", nodeLine[n]) {
				silent("node %s (line %d) is gone", n, nodeLine[n])
			}
			continue
		}
		na := newNodes[nn]
		for k, s := range attrs {
			if k == "gres" {
				// Slurm types a node's GPUs from gres.conf when Gres= does not.
				s.value = typedGres(s.value, gresTypes[n])
			}
			if v, ok := na[k]; ok && sameNodeValue(k, s.value, v.value) || !ok && sameNodeValue(k, s.value, "") {
				continue
			}
			key := strings.TrimRight(nn, "0123456789") + "|" + k
			if seen[key] {
				continue
			}
			seen[key] = true
			// The hardware keys follow the machine type: a placeholder
			// leaves them to a person, and a GPU type the catalog lacks
			// is said to be matched on the count.
			hardware := k == "cpus" || k == "procs" || k == "realmemory" || k == "gres"
			if !reported(notes, s.key, s.line, nodeLine[n]) && !reported(notes, "already defined", s.line) && !poolNoted(notes, clusterID, nn, s.key) &&
				!(hardware && poolNoted(notes, clusterID, nn, "machineType is the placeholder")) && !(k == "gres" && poolNoted(notes, clusterID, nn, "GPU type")) {
				silent("node %s (%s), line %d: %s=%s became %q", n, nn, s.line, s.key, s.value, na[k].value)
			}
		}
	}

	// A node given by its layout alone has the CPUs Slurm infers from it;
	// the rendered node must have as many, or the import must say why.
	for _, n := range names {
		attrs := oldNodes[n]
		nn, ok := r.Nodes[n]
		_, hasCPUs := attrs["cpus"]
		_, hasProcs := attrs["procs"]
		want := inferredCPUs(attrs)
		if !ok || hasCPUs || hasProcs || want == 0 {
			continue
		}
		got := newNodes[nn]["cpus"].value
		key := strings.TrimRight(nn, "0123456789") + "|inferred cpus"
		if got == strconv.Itoa(want) || seen[key] {
			continue
		}
		seen[key] = true
		if !poolNoted(notes, clusterID, nn, "machineType is the placeholder") && !reported(notes, "CPUs", nodeLine[n]) {
			silent("node %s (%s), line %d: Slurm infers CPUs=%d from its layout; the rendered node has CPUs=%s", n, nn, nodeLine[n], want, got)
		}
	}

	// Partitions: keys and nodes, on the partition the spec keeps.
	oldParts, partLine, err := named(orig.Partitions, catalog.ScopePartition, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	newParts, _, err := named(got.Partitions, catalog.ScopePartition, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	sets := map[string]string{}
	for _, l := range got.NodeSets {
		v, _ := l.Get("Nodes")
		sets[l.Name()] = v
	}
	// The original NodeSets, as the nodes they name.
	oldSets := map[string][]string{}
	for _, l := range orig.NodeSets {
		if v, ok := l.Get("Nodes"); ok && strings.EqualFold(v, "ALL") {
			for n := range oldNodes {
				oldSets[l.Name()] = append(oldSets[l.Name()], n)
			}
		} else if ok {
			names, err := hostlist.Expand(v, nil)
			if err != nil {
				t.Fatal(err)
			}
			oldSets[l.Name()] = names
		}
		if f, ok := l.Get("Feature"); ok {
			for n, attrs := range oldNodes {
				if slicesContains(strings.Split(attrs["features"].value, ","), f) {
					oldSets[l.Name()] = append(oldSets[l.Name()], n)
				}
			}
		}
	}
	for name, attrs := range oldParts {
		line := partLine[name]
		id, ok := r.Partitions[name]
		if !ok {
			if !reported(notes, "partition "+name, line) {
				silent("partition %s (line %d) is gone", name, line)
			}
			continue
		}
		na := newParts[id]
		for k, s := range attrs {
			switch k {
			case "nodes":
				if !samePartitionNodes(t, s.value, na["nodes"].value, oldNodes, oldSets, r.Nodes, sets) && !reported(notes, "partition "+name, line) {
					silent("partition %s (line %d): Nodes=%s became %s", name, line, s.value, na["nodes"].value)
				}
				continue
			case "default":
				def := ""
				if v, ok := na["default"]; ok {
					def = v.value
				}
				if strings.EqualFold(s.value, "YES") == strings.EqualFold(def, "YES") || reported(notes, "Default", line) {
					continue
				}
			}
			if v, ok := na[k]; ok && v.value == s.value {
				continue
			}
			if !reported(notes, s.key, s.line, line) {
				silent("partition %s (line %d): %s=%s became %q", name, s.line, s.key, s.value, na[k].value)
			}
		}
	}
}

// inferredCPUs is the CPU count slurmctld infers for a node without CPUs=
// from its layout (read_config.c, _build_single_nodeline_info): sockets
// are Sockets (the node's total), or Boards × SocketsPerBoard (which wins
// when both are given), or one per board; times CoresPerSocket and
// ThreadsPerCore. 0 when the node gives no layout.
func inferredCPUs(attrs effective) int {
	get := func(k string) (int, bool) {
		s, ok := attrs[k]
		if !ok {
			return 0, false
		}
		n, err := strconv.Atoi(s.value)
		return max(n, 1), err == nil
	}
	boards, hasBoards := get("boards")
	sockets, hasSockets := get("sockets")
	perBoard, hasPerBoard := get("socketsperboard")
	cores, hasCores := get("corespersocket")
	threads, hasThreads := get("threadspercore")
	if !hasBoards && !hasSockets && !hasPerBoard && !hasCores && !hasThreads {
		return 0
	}
	boards, cores, threads = max(boards, 1), max(cores, 1), max(threads, 1)
	total := boards
	if hasPerBoard {
		total = boards * perBoard
	} else if hasSockets {
		total = sockets
	}
	return total * cores * threads
}

// gresConfTypes maps each node to the one GPU type gres.conf gives it (a
// node given several types, or none, is left out).
func gresConfTypes(t *testing.T, gres []byte, budget *hostlist.Budget) map[string]string {
	t.Helper()
	lines, err := slurmconf.ParseGresConf(gres)
	if err != nil {
		t.Fatal(err)
	}
	types := map[string]map[string]bool{}
	all := map[string]bool{} // types of lines without NodeName
	for _, l := range lines {
		name, _ := l.Get("Name")
		typ, _ := l.Get("Type")
		if !strings.EqualFold(name, "gpu") || typ == "" {
			continue
		}
		hl, ok := l.Get("NodeName")
		if !ok {
			all[typ] = true
			continue
		}
		names, err := hostlist.Expand(hl, budget)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range names {
			if types[n] == nil {
				types[n] = map[string]bool{}
			}
			types[n][typ] = true
		}
	}
	out := map[string]string{}
	for n, ts := range types {
		for typ := range all {
			ts[typ] = true
		}
		if len(ts) == 1 {
			for typ := range ts {
				out[n] = typ
			}
		}
	}
	return out
}

// typedGres writes a Gres= value's untyped GPU entries with the type
// gres.conf gives the node (typ; "" leaves the value as it is).
func typedGres(v, typ string) string {
	entries, err := slurmconf.ParseGres(v)
	if typ == "" || err != nil {
		return v
	}
	var parts []string
	for _, e := range entries {
		if strings.EqualFold(e.Name, "gpu") && e.Type == "" {
			parts = append(parts, fmt.Sprintf("%s:%s:%d", e.Name, typ, e.Count))
			continue
		}
		parts = append(parts, e.Raw)
	}
	return strings.Join(parts, ",")
}

func slicesContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// samePartitionNodes compares a partition's nodes: the original list (host
// lists, NodeSet names, ALL) renamed,
// with the rendered list (NodeSet names expanded).
func samePartitionNodes(t *testing.T, old, new string, oldNodes map[string]effective, oldSets map[string][]string, rename map[string]string, sets map[string]string) bool {
	t.Helper()
	want := map[string]bool{}
	if strings.EqualFold(old, "ALL") {
		for n := range oldNodes {
			want[rename[n]] = true
		}
	} else {
		items, err := hostlist.Split(old)
		if err != nil {
			return false
		}
		for _, it := range items {
			names, isSet := oldSets[it]
			if !isSet {
				if names, err = hostlist.Expand(it, nil); err != nil {
					return false
				}
			}
			for _, n := range names {
				r, ok := rename[n]
				if !ok {
					return false // a NodeSet name, or an unknown node
				}
				want[r] = true
			}
		}
	}
	got := map[string]bool{}
	for _, set := range strings.Split(new, ",") {
		names, err := hostlist.Expand(sets[set], nil)
		if err != nil {
			return false
		}
		for _, n := range names {
			got[n] = true
		}
	}
	if len(got) != len(want) {
		return false
	}
	for n := range want {
		if !got[n] {
			return false
		}
	}
	return true
}
