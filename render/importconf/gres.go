package importconf

import (
	"fmt"
	"sort"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/hostlist"
	"github.com/slurmspec/slurmspec/compiler/machines"
	"github.com/slurmspec/slurmspec/render/slurmconf"
)

// gresSpec is what a node's Gres= value says about GPUs.
type gresSpec struct {
	// Type is the GPU type as written ("" when the value has none).
	Type string
	// Count is the number of GPUs (0 when the node has none).
	Count int
	// Other lists the entries that are not GPUs, or that could not be read.
	Other []string
	// OtherTypes lists the GPU entries of a type other than the first's:
	// a machine type has one GPU model.
	OtherTypes []string
}

// parseGres reads a node's Gres= value for its GPUs, with
// slurmconf.ParseGres; a value it cannot read is noted and ignored.
func (im *importer) parseGres(line int, v string) gresSpec {
	entries, err := slurmconf.ParseGres(v)
	if err != nil {
		return gresSpec{Other: []string{v}}
	}
	var g gresSpec
	for _, e := range entries {
		switch {
		case !strings.EqualFold(e.Name, "gpu"), e.Count > 1<<20:
			g.Other = append(g.Other, e.Raw)
		case g.Count > 0 && !strings.EqualFold(g.Type, e.Type):
			// Two GPU types on one node: no machine type has that.
			g.OtherTypes = append(g.OtherTypes, e.Raw)
		default:
			g.Type, g.Count = e.Type, g.Count+int(e.Count)
		}
	}
	return g
}

// gresEntry is one Name=gpu line of gres.conf.
type gresEntry struct {
	line int
	// nodes is nil when the line has no NodeName (it applies to every node).
	nodes map[string]bool
	typ   string
	count int
}

// gresConf is a parsed gres.conf: its GPU lines.
type gresConf struct {
	gpus []gresEntry
}

// parseGresConf reads the Name=gpu lines of a gres.conf. Lines for other
// GRES and global lines (AutoDetect=...) are skipped; NodeName host lists
// are expanded within budget. The count is Count=, else the number of
// files File= names, else 1.
func parseGresConf(data []byte, budget *hostlist.Budget) (*gresConf, []Note, error) {
	lines, err := slurmconf.ParseGresConf(data)
	if err != nil {
		return nil, nil, err
	}
	gc := &gresConf{}
	var notes []Note
	for _, l := range lines {
		name, _ := l.Get("Name")
		if !strings.EqualFold(name, "gpu") {
			continue
		}
		typ, _ := l.Get("Type")
		e := gresEntry{line: l.Num, typ: typ, count: 1}
		if hl, ok := l.Get("NodeName"); ok {
			names, err := hostlist.Expand(hl, budget)
			if err != nil {
				return nil, nil, fmt.Errorf("line %d: %w", l.Num, err)
			}
			e.nodes = map[string]bool{}
			for _, n := range names {
				e.nodes[n] = true
			}
		}
		count, hasCount := l.Get("Count")
		file, hasFile := l.Get("File")
		if !hasFile {
			file, hasFile = l.Get("MultipleFiles")
		}
		switch {
		case hasCount:
			n, ok := slurmconf.GresCount(count)
			if !ok || n > 1<<20 {
				notes = append(notes, Note{Message: fmt.Sprintf("gres.conf:%d: Count=%s is not a number; the line is ignored", l.Num, count)})
				continue
			}
			e.count = int(n)
		case hasFile:
			files, err := hostlist.Expand(file, budget)
			if err != nil {
				notes = append(notes, Note{Message: fmt.Sprintf("gres.conf:%d: File=%s: %v; counting it as one GPU", l.Num, file, err)})
			} else {
				e.count = len(files)
			}
		}
		gc.gpus = append(gc.gpus, e)
	}
	return gc, notes, nil
}

// forNode sums the GPU lines that apply to a node: their types (sorted,
// distinct) and total count.
func (gc *gresConf) forNode(node string) (types []string, count int) {
	if gc == nil {
		return nil, 0
	}
	seen := map[string]bool{}
	for _, e := range gc.gpus {
		if e.nodes != nil && !e.nodes[node] {
			continue
		}
		count += e.count
		if e.typ != "" && !seen[e.typ] {
			seen[e.typ] = true
			types = append(types, e.typ)
		}
	}
	sort.Strings(types)
	return types, count
}

// gpuModel maps a GPU type as sites write it in Gres= or gres.conf
// ("h100", "nvidia_h100_80gb_hbm3", "tesla_a100", "NVIDIA_B200",
// "rtx_pro_6000") to the catalog's short model name, or "" when no catalog
// model matches. A word of the type must equal a model, or the whole type
// with separators removed must.
func gpuModel(cat *machines.Catalog, typ string) string {
	models := map[string]bool{}
	for _, t := range cat.Types() {
		if m, _ := cat.Lookup(t); m.GPUModel != "" {
			models[m.GPUModel] = true
		}
	}
	lower := strings.ToLower(typ)
	words := strings.FieldsFunc(lower, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') })
	for _, w := range words {
		if models[w] {
			return w
		}
	}
	if joined := strings.Join(words, ""); models[joined] {
		return joined
	}
	return ""
}
