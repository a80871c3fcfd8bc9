package schema

import (
	"math"
	"sort"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/managed"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// The slurm.conf keys of the three config maps as the exported schemas
// state them, built from the catalog (schema/catalog) for one release:
// which keys exist, each key's value constraint, and the reserved keys.
// The constraint of a value is what catalog.CheckValue reports as an
// error, restated as regular expressions (slurmregex.go); lint's warnings
// (deprecated values, loose spellings Slurm accepts) pass.

// valueRule is the constraint of one key's value: the value must match
// every expression of Match and none of NotMatch. Examples are the
// canonical values an editor offers.
type valueRule struct {
	Match    []string
	NotMatch []string
	Examples []string
}

// configKey is one key offered in a config map.
type configKey struct {
	Param *catalog.Param
	// Status is the key's status in the release (deprecated, alias, ...).
	Status catalog.KeyStatus
	Rule   valueRule
}

// reservedKey is a managed key, refused with its reason.
type reservedKey struct {
	Name   string
	Reason string
}

// configScope is the key set of one config map for one release.
type configScope struct {
	Scope    catalog.Scope
	Version  catalog.Version
	Keys     []configKey
	Reserved []reservedKey
}

// configScopes are the catalog scopes of the three config maps, in the
// order slurmSpec.config, partitions[].config, nodeSets[].config.
var configScopes = [...]catalog.Scope{catalog.ScopeGlobal, catalog.ScopePartition, catalog.ScopeNode}

// buildConfigScope lists the keys of scope that release v accepts without
// an error: the option table's keys, less those Slurm rejects or fails on
// (defunct, accepted-but-fatal) and less the reserved ones.
func buildConfigScope(scope catalog.Scope, v catalog.Version) configScope {
	cs := configScope{Scope: scope, Version: v}
	for _, k := range managed.Reserved() {
		cs.Reserved = append(cs.Reserved, reservedKey{k.Name, string(k.Reason)})
	}
	if scope == catalog.ScopePartition {
		cs.Reserved = append(cs.Reserved, reservedKey{"Default", "which partition is the default is set by orchestratorSpec.slurmSpec.defaultPartitionId"})
	}
	sort.Slice(cs.Reserved, func(i, j int) bool { return cs.Reserved[i].Name < cs.Reserved[j].Name })
	for _, p := range catalog.Default().Params(scope) {
		if isReserved(cs.Reserved, p.Name) {
			continue
		}
		st := p.StatusIn(v)
		switch st.Status {
		case catalog.StatusRemovedFatal:
			if len(p.IgnoredValues) > 0 && p.Kind == catalog.KindUint16 {
				// Only the ignored values (FastSchedule=1) are not an
				// error; Param.FatalValue reads them as strtoul does.
				var alts []string
				for _, iv := range p.IgnoredValues {
					alts = append(alts, "0[xX]0*"+reLit(iv), "0*"+reLit(iv))
				}
				cs.Keys = append(cs.Keys, configKey{Param: p, Status: st, Rule: valueRule{Match: []string{"^\\+?" + reAlt(alts) + "$"}, Examples: p.IgnoredValues}})
			}
			continue
		case catalog.StatusRemoved, catalog.StatusNotAdded:
			continue // a defunct key is dropped with a warning (the severity policy): valid here
		}
		cs.Keys = append(cs.Keys, configKey{Param: p, Status: st, Rule: valueRuleFor(p, v)})
	}
	sort.Slice(cs.Keys, func(i, j int) bool { return cs.Keys[i].Param.Name < cs.Keys[j].Param.Name })
	return cs
}

func isReserved(rs []reservedKey, name string) bool {
	for _, r := range rs {
		if strings.EqualFold(r.Name, name) {
			return true
		}
	}
	return false
}

// valueRuleFor states CheckValue's errors for p in release v.
func valueRuleFor(p *catalog.Param, v catalog.Version) valueRule {
	switch p.Kind {
	case catalog.KindBool:
		t, f := catalog.BoolWords()
		var alts []string
		for _, w := range append(t, f...) {
			alts = append(alts, reCI(w))
		}
		return valueRule{Match: []string{"^" + reAlt(alts) + "$"}, Examples: []string{"YES", "NO"}}
	case catalog.KindUint16, catalog.KindUint32, catalog.KindUint64:
		return intRule(p, v)
	case catalog.KindTime:
		return timeRule(p)
	case catalog.KindEnum, catalog.KindPlugin, catalog.KindList:
		return tokenRule(p, v)
	}
	return valueRule{}
}

var unlimited = reAlt([]string{reCI("UNLIMITED"), reCI("INFINITE")})

func intRule(p *catalog.Param, v catalog.Version) valueRule {
	limit := uint64(math.MaxUint64)
	switch p.Kind {
	case catalog.KindUint16:
		limit = math.MaxUint16
	case catalog.KindUint32:
		limit = math.MaxUint32
	}
	k := p.Kind != catalog.KindUint16
	type span struct{ lo, hi uint64 }
	spans := []span{{0, limit}}
	var examples []string
	if len(p.Values) > 0 && p.Unknown == catalog.UnknownError {
		spans = nil
		for _, ev := range p.ValuesIn(v) {
			var n uint64
			ok := ev.Name != ""
			for i := 0; i < len(ev.Name) && ok; i++ {
				ok = ev.Name[i] >= '0' && ev.Name[i] <= '9'
				n = n*10 + uint64(ev.Name[i]-'0')
			}
			if ok {
				spans = append(spans, span{n, n})
				examples = append(examples, ev.Name)
			}
		}
	}
	alts := []string{unlimited}
	for _, s := range spans {
		if r := reStrtoul(s.lo, s.hi); r != "" {
			alts = append(alts, r)
		}
		if k {
			lo, hi := (s.lo+1023)/1024, s.hi/1024
			if lo <= hi {
				alts = append(alts, reStrtoul(lo, hi)+"[kK]")
			}
		}
	}
	return valueRule{Match: []string{"^" + reAlt(alts) + "$"}, Examples: examples}
}

// timeRule follows time_str2secs and the rule read_config.c applies to
// the result (catalog.TimeRule). A string whose total overflows Slurm's
// 32-bit arithmetic (more than about 68 years) is lint's to report.
func timeRule(p *catalog.Param) valueRule {
	const d = "[0-9]+"
	forms := []string{d, d + ":" + d, d + ":" + d + ":" + d, d + "-(" + d + ")?", d + "-" + d + ":" + d, d + "-" + d + ":" + d + ":" + d}
	infinite := reAlt([]string{"-1", reCI("UNLIMITED"), reCI("INFINITE")})
	switch p.TimeRule {
	case catalog.TimeSyntaxOnly:
		return valueRule{Match: []string{"^" + reAlt(append(forms, "-"+d, infinite)) + "$"}}
	case catalog.TimePositive:
		return valueRule{Match: []string{"^" + reAlt(forms) + "$", "[1-9]"}}
	}
	return valueRule{Match: []string{"^" + reAlt(append(forms, "-0+", infinite)) + "$"}}
}

// tokenRule states which tokens of an enum, plugin or list key CheckValue
// accepts without an error: a token whose best match (slurmconf's
// bestMatch) is a value of release v, or any token when the key's value
// set is open, minus tokens that differ from a case-sensitive plugin name
// in letter case only.
func tokenRule(p *catalog.Param, v catalog.Version) valueRule {
	var good, bad []string
	var examples []string
	open := p.Unknown != catalog.UnknownError
	// Names that some value Slurm accepts matches in any case: a case
	// variant of a plugin with the same name is that value, not an error.
	anyCase := map[string]bool{}
	rejected := func(ev *catalog.EnumValue) bool {
		return ev.Reject != "" && (ev.RejectIn.Empty() || ev.RejectIn.Has(v))
	}
	for i := range p.Values {
		ev := &p.Values[i]
		if (ev.PresentIn.Has(v) || open || !ev.Source.Certain()) && !rejected(ev) && (!ev.CaseSensitive || ev.Match == catalog.MatchContains) {
			anyCase[strings.ToLower(ev.Name)] = true
		}
	}
	for i := range p.Values {
		ev := &p.Values[i]
		present := ev.PresentIn.Has(v)
		// A token a newer series ignores (Ignored) is only warned about.
		ignored := ev.Ignored != "" && v > ev.PresentIn.Last()
		fine := present || open || !ev.Source.Certain() || ignored
		if rejected(ev) {
			fine = false
		}
		if fine && !open {
			good = append(good, tokenPatterns(p, ev, v)...)
		}
		if present && !rejected(ev) && !ev.NotStandalone && ev.Match != catalog.MatchTemplate {
			examples = append(examples, ev.Name)
		}
		if rejected(ev) {
			bad = append(bad, tokenPatterns(p, ev, v)...)
		}
		// An ignored plugin name loads nothing, so its letter case does not
		// matter either (RoutePlugin=ROUTE/default from 23.11).
		if ev.CaseSensitive && ev.Match != catalog.MatchContains && (present || (!open && ev.Source.Certain() && !ignored)) {
			bad = append(bad, caseVariants(p, ev, v, anyCase)...)
		}
	}
	if p.IntTokens {
		hi := uint64(math.MaxInt64)
		if p.IntMax >= 0 {
			hi = uint64(p.IntMax)
		}
		if r := reStrtol10(uint64(max(p.IntMin, 0)), hi); r != "" {
			good = append(good, r)
		}
	}
	tok := reAlt(good)
	if open {
		tok = "[^,]+"
	}
	var r valueRule
	r.Examples = examples
	if tok == "" {
		tok = "[^\\s\\S]" // nothing: no value is valid in this release
	}
	if p.Kind == catalog.KindList {
		// Empty items (a,,b) are only warned about.
		r.Match = []string{"^(" + tok + ")?(,(" + tok + ")?)*$"}
		if len(bad) > 0 {
			r.NotMatch = []string{"(^|,)" + reAlt(bad) + "(,|$)"}
		}
	} else {
		r.Match = []string{"^" + tok + "$"}
		if len(bad) > 0 {
			r.NotMatch = []string{"^" + reAlt(bad) + "$"}
		}
	}
	return r
}

// argTail is what may follow a token's name: its separator and argument.
// A token with ArgValues needs one of them; one with an argument range in
// series v, a number Slurm reads as in it.
func argTail(p *catalog.Param, ev *catalog.EnumValue, v catalog.Version) string {
	sep := ev.ArgSep
	if sep == 0 {
		sep = '='
	}
	if len(ev.ArgValues) > 0 {
		var alts []string
		for _, a := range ev.ArgValues {
			if n := ev.ArgPrefix; n > 0 && n <= len(a) {
				// Slurm compares only the first n characters.
				alts = append(alts, reCI(a[:n])+"[^,]*")
				continue
			}
			alts = append(alts, reCI(a))
		}
		return reLit(string(sep)) + reAlt(alts)
	}
	if p.ArgRefused(ev, v) && ev.PresentIn.Has(v) {
		return "" // the argument would be part of the plugin's name, or of the token Slurm compares
	}
	if r := ev.ArgRangeIn(v); r != nil && ev.PresentIn.Has(v) {
		// A token of another series is only warned about, argument and all.
		return "(" + reLit(string(sep)) + reArgRange(r) + ")?"
	}
	return "(" + reLit(string(sep)) + "[^,]*)?"
}

// reArgRange matches the arguments that Slurm reads (atoi, strtol,
// strtoull: a sign, digits, anything after them ignored, none read as 0)
// as a number in r.
func reArgRange(r *catalog.ArgRange) string {
	const junk = "([^0-9,][^,]*)?"
	var alts []string
	span := func(lo, hi int64) {
		if lo > hi {
			return
		}
		if lo <= 0 && hi >= 0 {
			// atoi("") and atoi("abc") are 0; without a sign, what
			// follows may not be a signed number.
			alts = append(alts, "0*([^0-9,+-][^,]*)?", "[+-]0*"+junk)
		}
		if hi >= 1 {
			alts = append(alts, `\+?0*`+reRange(uint64(max(lo, 1)), uint64(hi), 10)+junk)
		}
		if lo <= -1 && r.Parse != catalog.ParseStrtoull {
			alts = append(alts, "-0*"+reRange(uint64(max(-hi, 1)), uint64(-lo), 10)+junk)
		}
	}
	span(r.Min, r.Max)
	for _, a := range r.Also {
		span(a, a)
	}
	return reAlt(alts)
}

// tokenPatterns are the tokens that match ev well enough for Slurm to
// take them as ev (exactly, or by its prefix or substring compare).
func tokenPatterns(p *catalog.Param, ev *catalog.EnumValue, v catalog.Version) []string {
	sep := ev.ArgSep
	if sep == 0 {
		sep = '='
	}
	nameChar := "[^," + reClassLit(sep) + "]"
	tail := argTail(p, ev, v)
	lname := strings.ToLower(ev.Name)
	switch ev.Match {
	case catalog.MatchContains:
		sub := reCI(ev.Substr)
		return []string{reCI(ev.Name) + tail, "[^,]*" + sub + "[^,]*"}
	case catalog.MatchTemplate:
		prefix := lname[:strings.IndexByte(lname, '<')]
		return []string{reCI(prefix) + nameChar + "+" + tail}
	case catalog.MatchLeading:
		// The value starts with the name; the rest, commas and all, is
		// ignored.
		return []string{reCI(ev.Name) + ".*"}
	}
	// A plugin name is matched in its own case, unless release v ignores
	// it (nothing is loaded).
	exactCase := ev.CaseSensitive && !(ev.Ignored != "" && v > ev.PresentIn.Last())
	name := reCI(ev.Name)
	if exactCase {
		name = reLit(ev.Name)
	}
	out := []string{name + tail}
	if len(p.OptionalPrefixes) > 0 {
		stripped := stripPrefix(ev.Name, p.OptionalPrefixes)
		var pre []string
		for _, op := range p.OptionalPrefixes {
			pre = append(pre, reCI(op))
		}
		s := reCI(stripped)
		if exactCase {
			s = reLit(stripped)
		}
		out = append(out, reAlt(pre)+"?"+s+tail)
	}
	if ev.Match == catalog.MatchPrefix {
		// The name starts with the value, or is a prefix of it at least
		// two characters long.
		out = append(out, reCI(ev.Name)+nameChar+"*"+tail)
		if len(lname) >= 2 {
			chain := ""
			for i := len(lname) - 1; i >= 2; i-- {
				chain = "(" + reCI(lname[i:i+1]) + chain + ")?"
			}
			out = append(out, reCI(lname[:2])+chain+tail)
		}
	}
	return out
}

// caseVariants are the spellings of a case-sensitive value that differ
// from it in letter case only, which Slurm would turn into a missing
// plugin file.
func caseVariants(p *catalog.Param, ev *catalog.EnumValue, v catalog.Version, anyCase map[string]bool) []string {
	tail := argTail(p, ev, v)
	var out []string
	if r := reCINotExact(ev.Name); r != "" && !anyCase[strings.ToLower(ev.Name)] {
		out = append(out, r+tail)
	}
	if len(p.OptionalPrefixes) > 0 {
		stripped := stripPrefix(ev.Name, p.OptionalPrefixes)
		var pre []string
		for _, op := range p.OptionalPrefixes {
			pre = append(pre, reCI(op))
		}
		if r := reCINotExact(stripped); r != "" && !anyCase[strings.ToLower(stripped)] {
			out = append(out, reAlt(pre)+"?"+r+tail)
		}
	}
	return out
}

func stripPrefix(s string, prefixes []string) string {
	for _, p := range prefixes {
		if len(s) > len(p) && strings.EqualFold(s[:len(p)], p) {
			return s[len(p):]
		}
	}
	return s
}

func reClassLit(c byte) string {
	switch c {
	case ']', '\\', '^', '-':
		return "\\" + string(c)
	}
	return string(c)
}

// reStrtol10 matches what strconv.ParseInt(s, 10, 64) reads as a number
// in lo..hi: an optional sign, then decimal digits (leading zeros allowed).
func reStrtol10(lo, hi uint64) string {
	var alts []string
	if lo == 0 {
		alts = append(alts, "[+-]?0+")
	}
	from := max(lo, 1)
	if from <= hi {
		alts = append(alts, `\+?0*`+reRange(from, hi, 10))
	}
	return reAlt(alts)
}
