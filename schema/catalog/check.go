package catalog

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// CheckValue checks value as Slurm of series version would parse it for key
// p. An invalid version means the newest series. It returns nil when the
// value is clean.
//
// What is checked depends on p.Kind: integers follow the S_P_UINT16/32/64 and
// S_P_LONG handlers (strtoul with base 0, so hex and octal are accepted; a
// k/K suffix for 32/64-bit; UNLIMITED/INFINITE; no sign), booleans accept the
// eight S_P_BOOLEAN words in any case, time strings follow time_str2secs,
// and enum, list and plugin values are matched against p.Values of that
// series. Strings, repeatable strings and line keys are not checked.
//
// Severity policy. An error is reported when Slurm rejects or fails on the
// value, or when the catalog is certain the value is wrong for that series
// (an unknown token of a key whose values were read from Slurm's code, or a
// token that exists only in other series; the message names those series).
// A warning is reported when the catalog is unsure or Slurm would accept the
// value anyway: tokens known only from slurm.conf(5) ("man" rows, which
// may be parsed by code the scan missed), keys whose value list is open or
// incomplete (Param.Unknown == UnknownWarn), spellings Slurm accepts only
// because it compares a prefix or searches a substring, deprecated tokens,
// and plugins that not every build has (CheckTarget: for the service's
// build, a plugin some builds lack; for Debian's, one its packages do not
// ship or ship apart). A
// warning never means the daemons refuse to start; an error may not either
// (some lists silently ignore unknown tokens), but it is always a mistake.
//
// Unknown list tokens are errors even where Slurm silently ignores them,
// because an ignored setting is a configuration mistake.
func CheckValue(p *Param, version Version, value string) []Problem {
	return CheckTarget(p, Target{Release: version, Build: DefaultTarget().Build}, value)
}

// CheckTarget is CheckValue for a target: its release series and its
// build, which decides what is said of plugins that not every build has.
func CheckTarget(p *Param, t Target, value string) []Problem {
	if p == nil {
		return nil
	}
	version := t.Release
	if !version.Valid() {
		version = Newest()
	}
	c := checker{p: p, v: version, build: t.Build}
	switch p.Kind {
	case KindBool:
		c.checkBool(value)
	case KindUint16, KindUint32, KindUint64, KindLong:
		c.checkInt(value)
	case KindFloat:
		c.checkFloat(value)
	case KindTime:
		c.checkTime(value)
	case KindEnum, KindPlugin:
		if value == "" {
			c.add(SeverityError, fmt.Sprintf("%s has an empty value", p.Name), "")
			break
		}
		c.checkToken(value)
	case KindList:
		c.checkList(value)
	}
	// The rules between tokens need every token understood: an error
	// (an unknown token) makes them meaningless, a warning (a defunct or
	// build-dependent token) does not.
	if !c.hasError() && (p.Kind == KindList || p.Kind == KindEnum) {
		c.checkRules(value)
	}
	return c.probs
}

type checker struct {
	p     *Param
	v     Version
	build Build
	probs []Problem
}

func (c *checker) hasError() bool {
	for _, pr := range c.probs {
		if pr.Severity == SeverityError {
			return true
		}
	}
	return false
}

func (c *checker) add(sev Severity, msg, hint string) {
	c.probs = append(c.probs, Problem{Severity: sev, Message: msg, Hint: hint})
}

func (c *checker) checkBool(value string) {
	for _, t := range boolTrueTokens {
		if strings.EqualFold(value, t) {
			return
		}
	}
	for _, t := range boolFalseTokens {
		if strings.EqualFold(value, t) {
			return
		}
	}
	c.add(SeverityError, fmt.Sprintf("%s=%q is not a boolean", c.p.Name, value),
		"use YES or NO (Slurm also accepts TRUE/FALSE, UP/DOWN, 1/0, in any case)")
}

func isUnlimited(s string) bool {
	return strings.EqualFold(s, "UNLIMITED") || strings.EqualFold(s, "INFINITE")
}

// checkInt follows s_p_handle_uint16/uint32/uint64/long.
func (c *checker) checkInt(value string) {
	p := c.p
	if value == "" {
		// strtoul("") converts nothing and leaves *endptr == '\0', so Slurm
		// silently reads 0.
		c.add(SeverityWarning, fmt.Sprintf("%s has an empty value", p.Name), "Slurm reads an empty number as 0; set it explicitly or drop the key")
		return
	}
	var n uint64
	var neg, rangeErr, ok bool
	switch p.Kind {
	case KindLong:
		var sn int64
		sn, ok, rangeErr = cStrtol(value)
		neg = sn < 0
		n = uint64(sn)
		if neg {
			n = uint64(-sn)
		}
	default:
		n, ok, rangeErr = cStrtoul(value, p.Kind != KindUint16)
	}
	if !ok {
		if !isUnlimited(value) {
			c.add(SeverityError, fmt.Sprintf("%s=%q is not a valid number", p.Name, value), intHint(p.Kind))
			return
		}
		if p.Unknown != UnknownError || len(p.Values) == 0 {
			return
		}
		for _, ev := range p.Values {
			if strings.EqualFold(ev.Name, value) && ev.PresentIn.Has(c.v) {
				return
			}
		}
		// A closed set of numbers: UNLIMITED is the kind's INFINITE,
		// which is not one of them (PropagatePrioProcess=UNLIMITED is
		// "Bad PropagatePrioProcess: 65535").
		c.add(SeverityError, fmt.Sprintf("%s=%s is not one of the accepted values", p.Name, value), "valid: "+c.valueList())
		return
	}
	limit := uint64(math.MaxUint64)
	switch p.Kind {
	case KindUint16:
		limit = math.MaxUint16
	case KindUint32:
		limit = math.MaxUint32
	}
	switch {
	case rangeErr:
		c.add(SeverityError, fmt.Sprintf("%s=%q is out of range", p.Name, value), intHint(p.Kind))
		return
	case p.Kind != KindLong && strings.HasPrefix(value, "-"):
		c.add(SeverityError, fmt.Sprintf("%s=%q is less than zero", p.Name, value), intHint(p.Kind))
		return
	case p.Kind != KindLong && n > limit:
		c.add(SeverityError, fmt.Sprintf("%s=%q is greater than %d", p.Name, value, limit), intHint(p.Kind))
		return
	}
	if len(p.Values) == 0 {
		return
	}
	for _, ev := range p.Values {
		if m, err := strconv.ParseUint(ev.Name, 10, 64); err == nil && m == n && !neg && ev.PresentIn.Has(c.v) {
			return
		}
	}
	if p.Unknown == UnknownAllow {
		return
	}
	sev := SeverityWarning
	if p.Unknown == UnknownError {
		sev = SeverityError
	}
	c.add(sev, fmt.Sprintf("%s=%s is not one of the documented values", p.Name, value), "valid: "+c.valueList())
}

func intHint(k Kind) string {
	switch k {
	case KindUint16:
		return "want an integer 0..65535, or UNLIMITED/INFINITE"
	case KindUint32:
		return "want an integer 0..4294967295 (a k/K suffix multiplies by 1024), or UNLIMITED/INFINITE"
	case KindUint64:
		return "want a non-negative integer (a k/K suffix multiplies by 1024), or UNLIMITED/INFINITE"
	}
	return "want an integer, or UNLIMITED/INFINITE"
}

// checkFloat follows s_p_handle_float (strtof with a full-string test).
func (c *checker) checkFloat(value string) {
	s := strings.TrimLeft(value, " \t\n\v\f\r")
	if isUnlimited(value) {
		return
	}
	if s == "" || strings.ContainsRune(s, '_') {
		c.add(SeverityError, fmt.Sprintf("%s=%q is not a valid number", c.p.Name, value), "want a decimal number")
		return
	}
	if _, err := strconv.ParseFloat(s, 32); err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			c.add(SeverityError, fmt.Sprintf("%s=%q is out of range", c.p.Name, value), "")
			return
		}
		c.add(SeverityError, fmt.Sprintf("%s=%q is not a valid number", c.p.Name, value), "want a decimal number")
	}
}
