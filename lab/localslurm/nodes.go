package localslurm

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/slurmspec/slurmspec/compiler/hostlist"
)

// NodeGroup is one group of rendered nodes: a NodeSet line (one per compute
// node pool in slurmspec's renders), or a NodeName line when the rendered
// file has no NodeSet lines.
type NodeGroup struct {
	// Name is the NodeSet name, or the NodeName line's host list.
	Name string
	// Nodes are the group's node names, expanded, in the rendered order.
	Nodes []string
	// Cloud lists the nodes of Nodes whose NodeName line has State=CLOUD.
	Cloud []string
	// Gres is each node's rendered Gres= value (NodeName=DEFAULT applied).
	Gres map[string]string
}

// NodeGroups reads dir/slurm.conf, a rendered slurm.conf, and returns its
// nodes grouped by NodeSet (NodeSets given by Feature= are left out), or by
// NodeName line when it has no NodeSet lines. Stand-ins (Options.StandIns)
// are chosen from these names.
func NodeGroups(dir string) ([]NodeGroup, error) {
	path := filepath.Join(dir, "slurm.conf")
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read rendered slurm.conf: %w", err)
	}
	cf, err := parseConf(string(data))
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	defs, err := cf.nodes()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	cloud := map[string]bool{}
	gres := map[string]string{}
	var lineGroups []NodeGroup
	for _, l := range cf.lines {
		if len(l.pairs) == 0 || !strings.EqualFold(l.firstKey(), "NodeName") || strings.EqualFold(l.pairs[0].value, "DEFAULT") {
			continue
		}
		names, err := hostlist.Expand(l.pairs[0].value, nil)
		if err != nil {
			return nil, fmt.Errorf("%s: NodeName=%s: %w", path, l.pairs[0].value, err)
		}
		isCloud := false
		for _, p := range l.pairs[1:] {
			if strings.EqualFold(p.key, "State") && strings.EqualFold(p.value, "CLOUD") {
				isCloud = true
			}
		}
		g := NodeGroup{Name: l.pairs[0].value, Nodes: names}
		if isCloud {
			g.Cloud = names
			for _, n := range names {
				cloud[n] = true
			}
		}
		lineGroups = append(lineGroups, g)
	}
	for _, d := range defs {
		for _, n := range d.names {
			gres[n] = d.gres
		}
	}
	var sets []NodeGroup
	for _, l := range cf.lines {
		if len(l.pairs) < 2 || !strings.EqualFold(l.firstKey(), "NodeSet") {
			continue
		}
		for _, p := range l.pairs[1:] {
			if !strings.EqualFold(p.key, "Nodes") {
				continue
			}
			names, err := hostlist.Expand(p.value, nil)
			if err != nil {
				return nil, fmt.Errorf("%s: NodeSet=%s Nodes=%s: %w", path, l.pairs[0].value, p.value, err)
			}
			g := NodeGroup{Name: l.pairs[0].value, Nodes: names}
			for _, n := range names {
				if cloud[n] {
					g.Cloud = append(g.Cloud, n)
				}
			}
			sets = append(sets, g)
		}
	}
	if len(sets) == 0 {
		sets = lineGroups
	}
	for i := range sets {
		sets[i].Gres = map[string]string{}
		for _, n := range sets[i].Nodes {
			sets[i].Gres[n] = gres[n]
		}
	}
	return sets, nil
}

// SlurmVersion returns the version of the installed slurmctld, such as
// "22.05.8", from `slurmctld -V`.
func SlurmVersion() (string, error) {
	path, err := lookTool("slurmctld")
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "-V").Output()
	if err != nil {
		return "", fmt.Errorf("%s -V: %w", path, err)
	}
	// "slurm-wlm 22.05.8" on Debian, "slurm 23.11.4" upstream.
	fields := strings.Fields(string(bytes.TrimSpace(out)))
	if len(fields) == 0 {
		return "", fmt.Errorf("%s -V printed nothing", path)
	}
	return fields[len(fields)-1], nil
}
