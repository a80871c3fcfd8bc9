package gencore

// The values of enum, list and plugin keys (enums.tsv).

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

var enumScope = map[string]string{"global": "global", "partition": "partition", "node": "node", "downnodes": "downnodes"}

var (
	substrRe   = regexp.MustCompile(`code (?:tests|checks) (?:for )?(?:the )?substring (\w+)`)
	prefixOpRe = regexp.MustCompile(`^(\w+/) prefix optional`)
)

func (g *generator) loadEnums() error {
	rows, err := g.readTSV("enums.tsv")
	if err != nil {
		return err
	}
	for _, r := range rows {
		if r["scope"] == "any" {
			switch r["notes"] {
			case "true-ish":
				g.boolTrue = append(g.boolTrue, r["value"])
			case "false-ish":
				g.boolFalse = append(g.boolFalse, r["value"])
			default:
				return fmt.Errorf("%s: boolean row without true-ish/false-ish note", r["#where"])
			}
			continue
		}
		scope, ok := enumScope[r["scope"]]
		if !ok {
			return fmt.Errorf("%s: unknown scope %q", r["#where"], r["scope"])
		}
		p := g.lookup(scope, r["parameter"])
		if p == nil {
			return fmt.Errorf("%s: no key %s in scope %s", r["#where"], r["parameter"], scope)
		}
		if err := g.addValue(p, r); err != nil {
			return fmt.Errorf("%s: %w", r["#where"], err)
		}
	}
	sort.Strings(g.boolTrue)
	sort.Strings(g.boolFalse)
	if len(g.boolTrue)+len(g.boolFalse) != 8 {
		return fmt.Errorf("enums.tsv: want 8 boolean tokens, got %d", len(g.boolTrue)+len(g.boolFalse))
	}
	return nil
}

func (g *generator) addValue(p *param, r row) error {
	name, note := r["value"], r["notes"]
	switch {
	case name == "<boolean>":
		if p.parserType != "S_P_BOOLEAN" {
			return fmt.Errorf("%s: <boolean> row for a %s key", p.name, p.parserType)
		}
		return nil
	case name == "<time-string>":
		p.timeString = true
		return nil
	case name == "<minutes>":
		p.intTokens, p.intMin, p.intMax = true, 0, -1
		return nil
	case name == "<0-9>":
		p.intTokens, p.intMin, p.intMax = true, 0, 9
		return nil
	case strings.HasPrefix(name, "<"):
		return fmt.Errorf("%s: unknown placeholder %q", p.name, name)
	}
	v := &value{name: name, note: note, listSemantics: r["list_semantics"], argSep: '=', deprecatedFrom: -1}
	v.source = strings.Split(r["source"], "+")
	for _, s := range v.source {
		if s != "code" && s != "plugin" && s != "man" {
			return fmt.Errorf("%s=%s: unknown source %q", p.name, name, s)
		}
	}
	var err error
	if v.presentIn, err = g.rel.set(r["present_in"]); err != nil {
		return fmt.Errorf("%s=%s present_in: %w", p.name, name, err)
	}
	v.takesArg = r["takes_arg"] == "yes"
	hasPlugin := strings.Contains(r["source"], "plugin")
	v.caseSensitive = hasPlugin
	lnote := strings.ToLower(note)
	switch {
	case strings.Contains(lnote, "any value containing none"):
		v.match, v.substr = "contains", "none"
	case substrRe.MatchString(note):
		v.match, v.substr = "contains", strings.ToLower(substrRe.FindStringSubmatch(note)[1])
	case strings.Contains(lnote, "matched by prefix"), strings.Contains(lnote, "prefix compare"), strings.Contains(lnote, "prefix match"):
		v.match = "prefix"
	case strings.Contains(name, "<"):
		v.match = "template"
	}
	if strings.Contains(note, ":<count> suffix") {
		v.argSep, v.argOptional, v.takesArg = ':', true, true
	}
	if strings.Contains(lnote, "not a standalone option") {
		v.notStandalone = true
	}
	if m := prefixOpRe.FindStringSubmatch(note); m != nil && !contains(p.optionalPrefixes, m[1]) {
		p.optionalPrefixes = append(p.optionalPrefixes, m[1])
	}
	for _, old := range p.values {
		if strings.EqualFold(old.name, name) {
			return fmt.Errorf("%s: duplicate value %q", p.name, name)
		}
	}
	p.values = append(p.values, v)
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
