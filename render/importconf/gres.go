package importconf

import (
	"bufio"
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/machines"
)

// gresSpec is what a node's Gres= value says about GPUs.
type gresSpec struct {
	// Type is the GPU type as written ("" when the value has none).
	Type string
	// Count is the number of GPUs (0 when the node has none).
	Count int
	// Other lists the entries that are not GPUs, or that could not be read.
	Other []string
}

// parseGres reads a node's Gres= value: a comma-separated list of
// name[:type][:count][(S:sockets)] entries.
func parseGres(v string) gresSpec {
	var g gresSpec
	if v == "" || strings.EqualFold(v, "(null)") {
		return g
	}
	items, err := splitTop(strings.NewReplacer("(", "[", ")", "]").Replace(v))
	if err != nil {
		return gresSpec{Other: []string{v}}
	}
	for _, it := range items {
		if i := strings.IndexByte(it, '['); i >= 0 { // a (S:0-1) socket binding
			it = it[:i]
		}
		parts := strings.Split(it, ":")
		if !strings.EqualFold(parts[0], "gpu") {
			g.Other = append(g.Other, it)
			continue
		}
		typ, count := "", 1
		switch len(parts) {
		case 1:
		case 2:
			if n, ok := gresCount(parts[1]); ok {
				count = n
			} else {
				typ = parts[1]
			}
		case 3:
			n, ok := gresCount(parts[2])
			if !ok {
				g.Other = append(g.Other, it)
				continue
			}
			typ, count = parts[1], n
		default:
			g.Other = append(g.Other, it)
			continue
		}
		if g.Count > 0 && !strings.EqualFold(g.Type, typ) {
			// Two GPU types on one node: no machine type has that.
			g.Other = append(g.Other, it)
			continue
		}
		g.Type, g.Count = typ, g.Count+count
	}
	return g
}

// gresCount reads a GRES count; the K, M and G suffixes multiply by 1024.
func gresCount(s string) (int, bool) {
	mult := 1
	switch {
	case strings.HasSuffix(s, "K"), strings.HasSuffix(s, "k"):
		mult = 1 << 10
	case strings.HasSuffix(s, "M"), strings.HasSuffix(s, "m"):
		mult = 1 << 20
	case strings.HasSuffix(s, "G"), strings.HasSuffix(s, "g"):
		mult = 1 << 30
	}
	if mult > 1 {
		s = s[:len(s)-1]
	}
	if !isDigits(s) {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	if err != nil || n > (1<<31)/mult {
		return 0, false
	}
	return n * mult, true
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
// are expanded. The count is Count=, else the number of files File= names,
// else 1.
func parseGresConf(data []byte) (*gresConf, []Note, error) {
	gc := &gresConf{}
	var notes []Note
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	num := 0
	for sc.Scan() {
		num++
		text := strings.TrimSpace(stripComment(sc.Text()))
		if text == "" {
			continue
		}
		kv := map[string]string{}
		for _, tok := range strings.Fields(text) {
			k, v, ok := strings.Cut(tok, "=")
			if !ok {
				return nil, nil, fmt.Errorf("gres.conf line %d: %q is not a Key=Value pair", num, tok)
			}
			kv[strings.ToLower(k)] = strings.Trim(v, `"`)
		}
		if !strings.EqualFold(kv["name"], "gpu") {
			continue
		}
		e := gresEntry{line: num, typ: kv["type"], count: 1}
		if hl, ok := kv["nodename"]; ok {
			names, err := ExpandHostlist(hl)
			if err != nil {
				return nil, nil, fmt.Errorf("gres.conf line %d: %w", num, err)
			}
			e.nodes = map[string]bool{}
			for _, n := range names {
				e.nodes[n] = true
			}
		}
		switch {
		case kv["count"] != "":
			n, ok := gresCount(kv["count"])
			if !ok {
				notes = append(notes, Note{Message: fmt.Sprintf("gres.conf:%d: Count=%s is not a number; the line is ignored", num, kv["count"])})
				continue
			}
			e.count = n
		case kv["file"] != "" || kv["multiplefiles"] != "":
			f := kv["file"]
			if f == "" {
				f = kv["multiplefiles"]
			}
			files, err := ExpandHostlist(f)
			if err != nil {
				notes = append(notes, Note{Message: fmt.Sprintf("gres.conf:%d: File=%s: %v; counting it as one GPU", num, f, err)})
			} else {
				e.count = len(files)
			}
		}
		gc.gpus = append(gc.gpus, e)
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("reading gres.conf: %w", err)
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

// stripComment drops a '#' comment unless the '#' is escaped as \#, as
// slurm.conf's reader does.
func stripComment(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '#' && (i == 0 || s[i-1] != '\\') {
			return s[:i]
		}
	}
	return s
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
