package gencore

// The cross-check of the key tables against bookworm_vs_newest_keys.tsv.

import "fmt"

// crossCheck compares the catalog with bookworm_vs_newest_keys.tsv, an
// independent summary of the 22.05.8 and 26.05 option tables.
func (g *generator) crossCheck() error {
	rows, err := g.readTSV("bookworm_vs_newest_keys.tsv")
	if err != nil {
		return err
	}
	for _, r := range rows {
		scope, ok := scopeOfLine[r["line"]]
		if !ok {
			return fmt.Errorf("%s: unknown line %q", r["#where"], r["line"])
		}
		p := g.lookup(scope, r["name"])
		if p == nil {
			return fmt.Errorf("%s: no key %s in scope %s", r["#where"], r["name"], scope)
		}
		in22 := p.presentIn&1 != 0
		in26 := p.presentIn&(1<<7) != 0
		if (r["in_22.05.8"] == "yes") != in22 || (r["in_26.05"] == "yes") != in26 {
			return fmt.Errorf("%s: %s presence disagrees with the key tables", r["#where"], p.name)
		}
		if in22 {
			if got := statusAt(p, 0); got != r["status_22.05"] {
				return fmt.Errorf("%s: %s is %s in 22.05 per status_history, %s per the diff", r["#where"], p.name, got, r["status_22.05"])
			}
		}
		if in26 && p.status != r["status_26.05"] {
			return fmt.Errorf("%s: %s is %s in 26.05 per the key table, %s per the diff", r["#where"], p.name, p.status, r["status_26.05"])
		}
	}
	return nil
}

// statusAt returns the status of p in series i, as StatusIn would.
func statusAt(p *param, i int) string {
	if len(p.history) == 0 {
		if p.status == "removed" {
			return "active"
		}
		return p.status
	}
	st := ""
	for _, s := range p.history {
		if s.from <= i {
			st = s.status
		}
	}
	return st
}
