package gencore

// Corrections and facts the reference tables do not carry (overrides.tsv).

import (
	"fmt"
	"strconv"
	"strings"
)

func (g *generator) loadOverrides() error {
	rows, err := g.readTSV("overrides.tsv")
	if err != nil {
		return err
	}
	for _, r := range rows {
		if err := g.applyOverride(r); err != nil {
			return fmt.Errorf("%s: %w", r["#where"], err)
		}
	}
	return nil
}

func (g *generator) applyOverride(r row) error {
	p := g.lookup(r["scope"], r["parameter"])
	if p == nil {
		return fmt.Errorf("no key %s in scope %s", r["parameter"], r["scope"])
	}
	attr, set := r["attribute"], r["setting"]
	if r["value"] == "*" {
		switch attr {
		case "kind":
			p.kind = set
		case "time_rule":
			p.timeRule = set
		case "unknown":
			p.unknown = set
		case "int_tokens":
			lo, hi, ok := strings.Cut(set, "..")
			if !ok {
				return fmt.Errorf("int_tokens %q: want min..max", set)
			}
			p.intTokens, p.intMin, p.intMax = true, 0, -1
			if lo != "" {
				n, err := strconv.ParseInt(lo, 10, 64)
				if err != nil {
					return fmt.Errorf("int_tokens %q: %w", set, err)
				}
				p.intMin = n
			}
			if hi != "" {
				n, err := strconv.ParseInt(hi, 10, 64)
				if err != nil {
					return fmt.Errorf("int_tokens %q: %w", set, err)
				}
				p.intMax = n
			}
		case "optional_prefix":
			for _, s := range strings.Split(set, ",") {
				if !contains(p.optionalPrefixes, s) {
					p.optionalPrefixes = append(p.optionalPrefixes, s)
				}
			}
		case "ignored_values":
			p.ignoredValues = strings.Split(set, "|")
		case "values_present_in":
			if set != "key" {
				return fmt.Errorf("values_present_in %q: only \"key\" is supported", set)
			}
			for _, v := range p.values {
				v.presentIn = p.presentIn
			}
		default:
			return fmt.Errorf("unknown key attribute %q", attr)
		}
		return nil
	}
	var v *value
	for _, x := range p.values {
		if x.name == r["value"] {
			v = x
		}
	}
	if attr == "add" {
		// A token the man page documents that enums.tsv lacks: valid
		// whenever the key is; setting takes_arg or no_arg.
		if v != nil {
			return fmt.Errorf("%s already has the value %q", p.name, r["value"])
		}
		if set != "takes_arg" && set != "no_arg" {
			return fmt.Errorf("add %q: want takes_arg or no_arg", set)
		}
		p.values = append(p.values, &value{name: r["value"], note: r["reason"], source: []string{"man"}, presentIn: p.presentIn,
			takesArg: set == "takes_arg", argSep: '=', deprecatedFrom: -1})
		return nil
	}
	if v == nil {
		return fmt.Errorf("%s has no value %q", p.name, r["value"])
	}
	switch attr {
	case "present_in":
		s, err := g.rel.set(set)
		if err != nil {
			return err
		}
		v.presentIn = s
	case "match":
		kind, sub, _ := strings.Cut(set, ":")
		switch kind {
		case "exact", "prefix", "contains", "template", "leading":
		default:
			return fmt.Errorf("match %q: want exact, prefix, contains:SUBSTR, template or leading", set)
		}
		v.match, v.substr = kind, sub
		if kind == "exact" {
			v.match, v.substr = "", ""
		}
	case "deprecated":
		v.deprecated = set
	case "deprecated_from":
		i, err := g.rel.index(set)
		if err != nil {
			return fmt.Errorf("deprecated_from: %w", err)
		}
		v.deprecatedFrom = i
	case "ignored":
		v.ignored = set
	case "arg_values":
		v.argValues = strings.Split(set, "|")
		v.takesArg = true
	case "arg_prefix":
		n, err := strconv.Atoi(set)
		if err != nil || n < 1 {
			return fmt.Errorf("arg_prefix %q: want a positive length", set)
		}
		v.argPrefix = n
	case "arg_range":
		lit, err := g.argRangeLit(set)
		if err != nil {
			return fmt.Errorf("arg_range: %w", err)
		}
		v.argRanges = append(v.argRanges, lit)
		v.takesArg = true
	case "library":
		v.library = set
	case "needs":
		v.needs = set
	case "needs_key":
		v.needsKey = set
	case "needs_silent_in":
		rs, err := g.rel.set(set)
		if err != nil {
			return fmt.Errorf("needs_silent_in: %w", err)
		}
		v.needsSilentIn = rs
	case "reject_in":
		rs, err := g.rel.set(set)
		if err != nil {
			return fmt.Errorf("reject_in: %w", err)
		}
		v.rejectIn = rs
	case "reject":
		v.reject = set
	default:
		return fmt.Errorf("unknown value attribute %q", attr)
	}
	return nil
}

// argRangeLit turns an arg_range setting into a catalog.ArgRange literal.
// The setting is "min..max" followed by space-separated words: also=N
// (another accepted number, repeatable), parse=atoi|strtol|strtoull,
// fatal, unit=NAME, in=SERIES,... (the series the range holds in; several
// rows of one value give the ranges of different series, the first that
// holds wins), and last why=TEXT (what checks the range when it is not
// the parser; the rest of the setting).
func (g *generator) argRangeLit(set string) (string, error) {
	set, why, _ := strings.Cut(set, " why=")
	words := strings.Fields(set)
	if len(words) == 0 {
		return "", fmt.Errorf("empty setting")
	}
	lo, hi, ok := strings.Cut(words[0], "..")
	if !ok {
		return "", fmt.Errorf("%q: want min..max", words[0])
	}
	min, err := strconv.ParseInt(lo, 10, 64)
	if err != nil {
		return "", fmt.Errorf("%q: %w", set, err)
	}
	max, err := strconv.ParseInt(hi, 10, 64)
	if err != nil {
		return "", fmt.Errorf("%q: %w", set, err)
	}
	if min > max {
		return "", fmt.Errorf("%q: min above max", set)
	}
	f := []string{fmt.Sprintf("Min: %d", min), fmt.Sprintf("Max: %d", max)}
	var also []string
	for _, w := range words[1:] {
		k, val, _ := strings.Cut(w, "=")
		switch k {
		case "also":
			n, err := strconv.ParseInt(val, 10, 64)
			if err != nil {
				return "", fmt.Errorf("%q: %w", w, err)
			}
			also = append(also, strconv.FormatInt(n, 10))
		case "parse":
			switch val {
			case "atoi":
			case "strtol":
				f = append(f, "Parse: ParseStrtol")
			case "strtoull":
				f = append(f, "Parse: ParseStrtoull")
			default:
				return "", fmt.Errorf("%q: unknown parser", w)
			}
		case "fatal":
			f = append(f, "Fatal: true")
		case "unit":
			f = append(f, "Unit: "+strconv.Quote(val))
		case "in":
			rs, err := g.rel.set(val)
			if err != nil {
				return "", fmt.Errorf("%q: %w", w, err)
			}
			f = append(f, "In: "+setLit(rs))
		default:
			return "", fmt.Errorf("%q: unknown word", w)
		}
	}
	if len(also) > 0 {
		f = append(f, "Also: []int64{"+strings.Join(also, ", ")+"}")
	}
	if why != "" {
		f = append(f, "Why: "+strconv.Quote(why))
	}
	return "{" + strings.Join(f, ", ") + "}", nil
}
