package gencore

// The keys: the four key tables (global, partition, node, other lines) and
// the per-series status history.

import (
	"fmt"
	"regexp"
	"strings"
)

var scopeOfLine = map[string]string{
	"global": "global", "PartitionName": "partition", "NodeName": "node", "NodeSet": "nodeset",
	"DownNodes": "downnodes", "FrontendName": "frontend", "PowerAction": "poweraction",
}

var spanRe = regexp.MustCompile(`^(\d\d\.\d\d)(?:\.\.(\d\d\.\d\d))?:(S_P_[A-Z0-9]+)`)

func (g *generator) loadKeys() error {
	for _, file := range []string{"global.tsv", "partition.tsv", "node.tsv", "other_lines.tsv"} {
		rows, err := g.readTSV(file)
		if err != nil {
			return err
		}
		for _, r := range rows {
			if err := g.addKey(r); err != nil {
				return fmt.Errorf("%s: %w", r["#where"], err)
			}
		}
	}
	return nil
}

func (g *generator) addKey(r row) error {
	scope, ok := scopeOfLine[r["line"]]
	if !ok {
		return fmt.Errorf("unknown line %q", r["line"])
	}
	p := &param{name: r["name"], scope: scope, parserType: r["parser_type"], status: r["status"], note: r["notes"], removedIn: -1}
	var err error
	if p.firstSeen, err = g.rel.index(r["first_seen_in"]); err != nil {
		return fmt.Errorf("key %s: %w", p.name, err)
	}
	if r["removed_in"] != "" {
		if p.removedIn, err = g.rel.index(r["removed_in"]); err != nil {
			return fmt.Errorf("key %s: %w", p.name, err)
		}
	}
	if p.presentIn, err = g.rel.set(r["present_in"]); err != nil {
		return fmt.Errorf("key %s present_in: %w", p.name, err)
	}
	switch d := r["deprecated_or_alias"]; d {
	case "", "no", "yes":
	default:
		p.replacement = d
	}
	p.documented = r["documented_in_man_newest"] == "yes"
	p.notInherited = r["inherits_from_DEFAULT_line"] == "no"
	for _, part := range strings.Split(r["parser_type_history"], ";") {
		m := spanRe.FindStringSubmatch(strings.TrimSpace(part))
		if m == nil {
			return fmt.Errorf("key %s: bad parser_type_history %q", p.name, part)
		}
		from, err := g.rel.index(m[1])
		if err != nil {
			return fmt.Errorf("key %s: %w", p.name, err)
		}
		to := from
		if m[2] != "" {
			if to, err = g.rel.index(m[2]); err != nil {
				return fmt.Errorf("key %s: %w", p.name, err)
			}
		}
		if m[3] == "S_P_ARRAY" {
			for i := from; i <= to; i++ {
				p.repeatable |= 1 << i
			}
		}
	}
	if _, dup := g.params[p.key()]; dup {
		return fmt.Errorf("duplicate key %s in scope %s", p.name, p.scope)
	}
	g.params[p.key()] = p
	return nil
}

func (g *generator) lookup(scope, name string) *param {
	return g.params[scope+"\x00"+strings.ToLower(name)]
}

var knownStatus = map[string]bool{
	"active": true, "deprecated": true, "alias": true, "defunct": true,
	"removed_fatal": true, "unused": true, "removed": true, "line": true,
}

func (g *generator) loadHistory() error {
	rows, err := g.readTSV("status_history.tsv")
	if err != nil {
		return err
	}
	for _, r := range rows {
		p := g.lookup(r["scope"], r["name"])
		if p == nil {
			return fmt.Errorf("%s: no key %s in scope %s", r["#where"], r["name"], r["scope"])
		}
		from, err := g.rel.index(r["from"])
		if err != nil {
			return fmt.Errorf("%s: %w", r["#where"], err)
		}
		if !knownStatus[r["status"]] {
			return fmt.Errorf("%s: unknown status %q", r["#where"], r["status"])
		}
		if n := len(p.history); n > 0 && p.history[n-1].from >= from {
			return fmt.Errorf("%s: history of %s is not in series order", r["#where"], p.name)
		}
		p.history = append(p.history, span{from: from, status: r["status"], replacement: r["replacement"]})
	}
	for _, p := range g.params {
		if len(p.history) == 0 {
			continue
		}
		first := p.history[0]
		if first.from != lowestBit(p.presentIn) {
			return fmt.Errorf("status_history: %s starts in %s but the key is present from %s", p.name, g.rel.label(first.from), g.rel.label(lowestBit(p.presentIn)))
		}
		last := p.history[len(p.history)-1]
		want := p.status
		if p.status == "removed" {
			continue // the history describes the series before the removal
		}
		if last.status != want {
			return fmt.Errorf("status_history: %s ends as %s but its table says %s", p.name, last.status, want)
		}
		if last.replacement != p.replacement {
			return fmt.Errorf("status_history: %s ends with replacement %q but its table says %q", p.name, last.replacement, p.replacement)
		}
	}
	return nil
}
