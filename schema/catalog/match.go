package catalog

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Match qualities, best last.
const (
	qualNone  = iota
	qualLoose // accepted by Slurm's prefix or substring compare only
	qualCase  // a case-sensitive name that differs only in case
	qualExact
)

// tokenMatch is the best EnumValue for a token.
type tokenMatch struct {
	ev      *EnumValue
	quality int
	name    string // the token's name part (before ArgSep)
	hasArg  bool
	arg     string
}

func (c *checker) checkList(value string) {
	p := c.p
	if value == "" {
		c.add(SeverityError, fmt.Sprintf("%s has an empty value", p.Name), "")
		return
	}
	for _, tok := range strings.Split(value, ",") {
		trimmed := strings.TrimSpace(tok)
		switch {
		case trimmed == "":
			c.add(SeverityWarning, fmt.Sprintf("%s=%q has an empty list item", p.Name, value), "remove the extra comma")
			continue
		case trimmed != tok:
			c.add(SeverityWarning, fmt.Sprintf("%s list item %q has surrounding spaces", p.Name, tok), "write "+trimmed)
		}
		c.checkToken(trimmed)
	}
}

// bestMatch finds the EnumValue that tok matches best in c.v.
func (c *checker) bestMatch(tok string) tokenMatch {
	p := c.p
	best := tokenMatch{}
	ltok := strings.ToLower(tok)
	for i := range p.Values {
		ev := &p.Values[i]
		sep := ev.ArgSep
		if sep == 0 {
			sep = '='
		}
		m := tokenMatch{ev: ev, name: tok}
		if j := strings.IndexByte(tok, sep); j >= 0 && ev.Match != MatchLeading {
			m.name, m.arg, m.hasArg = tok[:j], tok[j+1:], true
		}
		m.quality = c.quality(ev, m.name, ltok)
		if m.quality == qualNone {
			continue
		}
		if better(m, best, c.v) {
			best = m
		}
	}
	return best
}

func better(a, b tokenMatch, v Version) bool {
	if b.ev == nil || a.quality != b.quality {
		return b.ev == nil || a.quality > b.quality
	}
	if a.ev.Match == MatchLeading && b.ev.Match == MatchLeading && len(a.ev.Name) != len(b.ev.Name) {
		return len(a.ev.Name) > len(b.ev.Name) // Slurm tries the longer names first
	}
	ap, bp := a.ev.PresentIn.Has(v), b.ev.PresentIn.Has(v)
	if ap != bp {
		return ap
	}
	return a.ev.Source.Certain() && !b.ev.Source.Certain()
}

// quality compares a token name with ev; ltok is the whole token, lower case.
func (c *checker) quality(ev *EnumValue, name, ltok string) int {
	p := c.p
	lname, lval := strings.ToLower(name), strings.ToLower(ev.Name)
	switch ev.Match {
	case MatchContains:
		if lname == lval {
			return qualExact
		}
		if strings.Contains(ltok, ev.Substr) {
			return qualLoose
		}
		return qualNone
	case MatchLeading:
		switch {
		case ltok == lval:
			return qualExact
		case strings.HasPrefix(ltok, lval):
			return qualLoose
		}
		return qualNone
	case MatchTemplate:
		prefix := lval[:strings.IndexByte(lval, '<')]
		if len(lname) > len(prefix) && strings.HasPrefix(lname, prefix) {
			return qualExact
		}
		return qualNone
	}
	if q := caseQuality(ev, name, ev.Name); q != qualNone {
		return q
	}
	if len(p.OptionalPrefixes) > 0 {
		if q := caseQuality(ev, stripPrefixes(name, p.OptionalPrefixes), stripPrefixes(ev.Name, p.OptionalPrefixes)); q != qualNone {
			return q
		}
	}
	if ev.Match == MatchPrefix {
		if strings.HasPrefix(lname, lval) || (len(lname) >= 2 && strings.HasPrefix(lval, lname)) {
			return qualLoose
		}
	}
	return qualNone
}

func caseQuality(ev *EnumValue, name, want string) int {
	switch {
	case name == want:
		return qualExact
	case !strings.EqualFold(name, want):
		return qualNone
	case ev.CaseSensitive:
		return qualCase
	}
	return qualExact
}

func stripPrefixes(s string, prefixes []string) string {
	for _, p := range prefixes {
		if len(s) > len(p) && strings.EqualFold(s[:len(p)], p) {
			return s[len(p):]
		}
	}
	return s
}

// Token returns the value of p that Slurm of series v matches tok against,
// as CheckValue matches it (case, optional plugin prefixes, prefix and
// substring compares). An invalid v means the newest series.
func (p *Param) Token(v Version, tok string) (EnumValue, bool) {
	if !v.Valid() {
		v = Newest()
	}
	c := checker{p: p, v: v}
	if m := c.bestMatch(strings.TrimSpace(tok)); m.ev != nil {
		return *m.ev, true
	}
	return EnumValue{}, false
}

// checkToken checks one enum, plugin or list token.
func (c *checker) checkToken(tok string) {
	p := c.p
	m := c.bestMatch(tok)
	if p.Kind != KindList && strings.Contains(tok, ",") && (m.ev == nil || m.ev.Match != MatchLeading) {
		c.add(SeverityError, fmt.Sprintf("%s takes a single value, not the list %q", p.Name, tok), "")
		return
	}
	if m.ev == nil {
		c.unknownToken(tok)
		return
	}
	ev := m.ev
	if ev.Reject != "" && (ev.RejectIn.Empty() || ev.RejectIn.Has(c.v)) {
		// Slurm fails on the token in every series that reads the key.
		c.add(SeverityError, fmt.Sprintf("%s=%s: %s", p.Name, tok, ev.Reject), "")
		return
	}
	if !ev.PresentIn.Has(c.v) {
		if ev.Ignored != "" && c.v > ev.PresentIn.Last() {
			c.add(SeverityWarning, fmt.Sprintf("%s value %q has no effect in %s: %s", p.Name, ev.Name, c.v, ev.Ignored), "remove it")
			return
		}
		sev := SeverityError
		if !ev.Source.Certain() || p.Unknown != UnknownError {
			sev = SeverityWarning
		}
		c.add(sev, fmt.Sprintf("%s value %q is not valid in %s (exists in %s)", p.Name, ev.Name, c.v, ev.PresentIn),
			c.versionHint(ev))
		return
	}
	switch m.quality {
	case qualCase:
		c.add(SeverityError, fmt.Sprintf("%s value %q: plugin names are case-sensitive", p.Name, m.name), "write "+ev.Name)
	case qualLoose:
		if ev.Match == MatchLeading {
			c.add(SeverityWarning, fmt.Sprintf("%s value %q is read as %s: Slurm compares only its first %d characters and ignores the rest, %q",
				p.Name, tok, ev.Name, len(ev.Name), tok[len(ev.Name):]), "write "+ev.Name)
			break
		}
		how := "compares only a prefix"
		if ev.Match == MatchContains {
			how = fmt.Sprintf("searches for the substring %q", ev.Substr)
		}
		c.add(SeverityWarning, fmt.Sprintf("%s value %q is accepted only because Slurm %s", p.Name, tok, how), "write "+ev.Name)
	}
	if ev.Deprecated != "" && (!ev.DeprecatedFrom.Valid() || c.v >= ev.DeprecatedFrom) {
		c.add(SeverityWarning, fmt.Sprintf("%s value %q: %s", p.Name, ev.Name, ev.Deprecated), "")
	}
	if ev.NotStandalone && !m.hasArg {
		c.add(SeverityWarning, fmt.Sprintf("%s value %q is not an option of its own", p.Name, ev.Name), ev.Note)
	}
	sep := string(rune(ev.ArgSep))
	if r := ev.ArgRangeIn(c.v); r != nil && m.hasArg {
		c.checkArgRange(ev, r, m.arg)
	}
	switch {
	case len(ev.ArgValues) > 0 && m.hasArg && ev.ArgPrefix > 0 && !slices.ContainsFunc(ev.ArgValues, func(a string) bool { return strings.EqualFold(a, m.arg) }) &&
		slices.ContainsFunc(ev.ArgValues, func(a string) bool { return argPrefixMatch(a, m.arg, ev.ArgPrefix) }):
		c.add(SeverityWarning, fmt.Sprintf("%s option %q: argument %q is accepted only because Slurm compares its first %d characters", p.Name, ev.Name, m.arg, ev.ArgPrefix),
			"write one of "+strings.Join(ev.ArgValues, ", "))
	case len(ev.ArgValues) > 0:
		if !m.hasArg || !slices.ContainsFunc(ev.ArgValues, func(a string) bool { return strings.EqualFold(a, m.arg) }) {
			got := "nothing"
			if m.hasArg {
				got = strconv.Quote(m.arg)
			}
			c.add(SeverityError, fmt.Sprintf("%s option %q needs one of %s, got %s: Slurm refuses the value", p.Name, ev.Name, strings.Join(ev.ArgValues, ", "), got),
				"write "+ev.Name+sep+ev.ArgValues[0])
		}
	case ev.TakesArg && !m.hasArg && !ev.ArgOptional && ev.Match != MatchTemplate:
		c.add(SeverityWarning, fmt.Sprintf("%s option %q expects a value", p.Name, ev.Name), "write "+ev.Name+sep+"...")
	case ev.TakesArg && m.hasArg && m.arg == "" && len(ev.ArgRanges) == 0:
		c.add(SeverityWarning, fmt.Sprintf("%s option %q has an empty value", p.Name, ev.Name), "")
	case m.hasArg && ev.ArgIsName(c.v):
		// fidelity seed 20261211: ProctrackType=proctrack/pgid=-1 is fatal.
		c.add(SeverityError, fmt.Sprintf("%s value %q: %s takes no argument, and Slurm looks for a plugin named %q, which does not exist", p.Name, tok, ev.Name, tok), "write "+ev.Name)
	case m.hasArg && p.ArgRefused(ev, c.v):
		c.add(SeverityError, fmt.Sprintf("%s value %q: %s takes no argument, and Slurm compares the whole token: it refuses %q", p.Name, tok, ev.Name, tok), "write "+ev.Name)
	case !ev.TakesArg && m.hasArg && ev.Match != MatchContains:
		c.add(SeverityWarning, fmt.Sprintf("%s option %q does not take a value", p.Name, ev.Name), "write "+ev.Name)
	}
	switch {
	case c.build != BuildDebian:
		// The service's build: its plugin set is not published, and
		// Debian's package split says nothing about it.
		if ev.NotShipped.Has(c.v) {
			c.add(SeverityWarning, fmt.Sprintf("%s=%s: only Slurm builds with what this plugin depends on have it (%s), and which plugins the target build (the service's) has is not published", p.Name, ev.Name, ev.Library),
				"check that the service's Slurm "+c.v.String()+" build has "+ev.Library+", or remove the setting")
		}
	case ev.Package != "" && !ev.NotShipped.Has(c.v):
		c.add(SeverityWarning, fmt.Sprintf("%s=%s: Debian ships this plugin in its own package, %s, not in slurm-wlm-basic-plugins", p.Name, ev.Name, ev.Package),
			"check that the cluster's Slurm image has "+ev.Library)
	case ev.NotShipped.Has(c.v):
		c.add(SeverityWarning, fmt.Sprintf("%s=%s: Debian's Slurm %s packages do not ship this plugin (%s); it exists only where Slurm was built with what it depends on", p.Name, ev.Name, c.v, ev.Library),
			"check that the cluster's Slurm build has "+ev.Library)
	}
}

func (c *checker) unknownToken(tok string) {
	p := c.p
	if p.IntTokens {
		if n, err := strconv.ParseInt(tok, 10, 64); err == nil && n >= p.IntMin && (p.IntMax < 0 || n <= p.IntMax) {
			return
		}
	}
	if p.Unknown == UnknownAllow {
		return
	}
	sev := SeverityError
	if p.Unknown == UnknownWarn {
		sev = SeverityWarning
	}
	what := "value"
	if p.Kind == KindList {
		what = "list item"
	}
	c.add(sev, fmt.Sprintf("unknown %s %s %q in %s", p.Name, what, tok, c.v), c.unknownHint(tok))
}

// unknownHint suggests the closest value and lists the valid ones.
func (c *checker) unknownHint(tok string) string {
	p := c.p
	name := tok
	if j := strings.IndexAny(name, "=:"); j >= 0 && !strings.Contains(name, "/") {
		name = name[:j]
	}
	lname := strings.ToLower(name)
	var hint string
	if !strings.Contains(name, "/") {
		for _, ev := range p.ValuesIn(c.v) {
			if j := strings.IndexByte(ev.Name, '/'); j >= 0 && strings.EqualFold(ev.Name[j+1:], name) {
				hint = "write " + ev.Name + "."
				break
			}
		}
	}
	if hint == "" {
		best, bestDist := "", suggestLimit(len(lname))+1
		for _, ev := range p.ValuesIn(c.v) {
			if d := editDistance(lname, strings.ToLower(ev.Name), bestDist); d < bestDist {
				best, bestDist = ev.Name, d
			}
		}
		if best != "" {
			hint = "did you mean " + best + "?"
		}
	}
	if list := c.valueList(); list != "" {
		if hint != "" {
			hint += " "
		}
		hint += "Valid in " + c.v.String() + ": " + list
	}
	if p.IntTokens {
		switch {
		case hint != "":
			hint += " or an integer"
		case p.IntMax >= 0:
			hint = fmt.Sprintf("write an integer from %d to %d", p.IntMin, p.IntMax)
		default:
			hint = fmt.Sprintf("write an integer from %d", p.IntMin)
		}
	}
	return hint
}

// valueList lists up to 12 values valid in c.v.
func (c *checker) valueList() string {
	var names []string
	for _, ev := range c.p.ValuesIn(c.v) {
		if !ev.NotStandalone {
			names = append(names, ev.Name)
		}
	}
	sort.Slice(names, func(i, j int) bool { return strings.ToLower(names[i]) < strings.ToLower(names[j]) })
	if len(names) > 12 {
		return strings.Join(names[:12], ", ") + fmt.Sprintf(", ... (%d in all)", len(names))
	}
	return strings.Join(names, ", ")
}

func (c *checker) versionHint(ev *EnumValue) string {
	first := ev.PresentIn.First()
	if first > c.v {
		return fmt.Sprintf("added in %s; target a newer Slurm or drop it", first)
	}
	return fmt.Sprintf("removed after %s", ev.PresentIn.Last())
}

// argPrefixMatch reports whether arg starts with the first n characters of
// want, case-insensitively, as xstrncasecmp(arg, want, n) == 0.
func argPrefixMatch(want, arg string, n int) bool {
	if len(want) < n {
		n = len(want)
	}
	return len(arg) >= n && strings.EqualFold(arg[:n], want[:n])
}

// checkArgRange checks a numeric option argument as Slurm reads it
// (r.Parse) against r.
func (c *checker) checkArgRange(ev *EnumValue, r *ArgRange, arg string) {
	p := c.p
	n, clean := ParseArg(r.Parse, arg)
	effect := "slurmctld logs an error and uses its default instead"
	if r.Fatal {
		effect = "slurmctld exits"
	}
	if r.Why != "" {
		effect = r.Why
	}
	unit := ""
	if r.Unit != "" {
		unit = " " + r.Unit
	}
	hint := fmt.Sprintf("write %s=N with N in %s%s", ev.Name, r, unit)
	read := ""
	if !clean {
		read = fmt.Sprintf(" (%s reads %q as %d)", r.Parse, arg, n)
	}
	switch {
	case !r.Accepts(n):
		c.add(SeverityError, fmt.Sprintf("%s option %s=%s is outside %s%s%s: %s", p.Name, ev.Name, arg, r, unit, read, effect), hint)
	case !clean:
		c.add(SeverityWarning, fmt.Sprintf("%s option %s=%s is not a plain number%s", p.Name, ev.Name, arg, read), hint)
	}
}

// ParseArg reads arg as Slurm's parser does: leading spaces, an optional
// sign, then decimal digits up to the first other character. clean reports
// that arg is exactly an optional sign and digits and that the number
// fits the parser's type (atoi: a C int; strtol: a long; strtoull: an
// unsigned long long, shown as -1 when it is above the int64 range). An
// int too large for atoi's C int is returned as it is (out of every range
// that Slurm checks).
func ParseArg(parse ArgParse, arg string) (n int64, clean bool) {
	s := strings.TrimLeft(arg, " \t\n\v\f\r")
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	digits := 0
	var u uint64
	overflow := false
	for digits < len(s) && s[digits] >= '0' && s[digits] <= '9' {
		d := uint64(s[digits] - '0')
		if u > (1<<64-1-d)/10 {
			overflow = true
		} else {
			u = u*10 + d
		}
		digits++
	}
	clean = digits > 0 && digits == len(s) && s == strings.TrimLeft(arg, "+-")
	switch parse {
	case ParseStrtoull:
		if overflow {
			return -1, false
		}
		if neg {
			u = -u
		}
		if u > 1<<63-1 {
			return -1, false
		}
		return int64(u), clean && !neg
	default:
		if overflow || u > 1<<63 || (!neg && u > 1<<63-1) {
			// strtol saturates at LONG_MIN/LONG_MAX.
			if neg {
				return -1 << 63, false
			}
			return 1<<63 - 1, false
		}
		n = int64(u)
		if neg {
			n = -n
		}
		if parse == ParseAtoi && (n < -1<<31 || n > 1<<31-1) {
			clean = false
		}
		return n, clean
	}
}
