package catalog

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Severity ranks a Problem.
type Severity uint8

// Severities, most serious first.
const (
	// SeverityError means Slurm rejects the value, fails on it, or the
	// catalog is sure the value does not exist in that series.
	SeverityError Severity = iota
	// SeverityWarning means Slurm probably accepts the value but it is
	// suspicious: deprecated, only loosely matched, or the catalog is not
	// sure (values known only from the manual, open value sets).
	SeverityWarning
)

// String returns "error" or "warning".
func (s Severity) String() string {
	if s == SeverityWarning {
		return "warning"
	}
	return "error"
}

// Problem is one finding of CheckValue.
type Problem struct {
	// Severity ranks the problem.
	Severity Severity
	// Message says what is wrong, naming the key and the value.
	Message string
	// Hint, when not empty, says how to fix it.
	Hint string
}

// String renders the problem as "error: message (hint)".
func (p Problem) String() string {
	s := p.Severity.String() + ": " + p.Message
	if p.Hint != "" {
		s += " (" + p.Hint + ")"
	}
	return s
}

// Infinite is the number of minutes (or seconds) ParseTime and
// ParseTimeSeconds return for "INFINITE", "UNLIMITED" and "-1".
const Infinite int64 = math.MaxInt64

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
// and plugins that the Debian bookworm 22.05 package does not ship. A
// warning never means the daemons refuse to start; an error may not either
// (some lists silently ignore unknown tokens), but it is always a mistake.
//
// Unknown list tokens are errors even where Slurm silently ignores them,
// because an ignored setting is a configuration mistake.
func CheckValue(p *Param, version Version, value string) []Problem {
	if p == nil {
		return nil
	}
	if !version.Valid() {
		version = Newest()
	}
	c := checker{p: p, v: version}
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
	if len(c.probs) == 0 && (p.Kind == KindList || p.Kind == KindEnum) {
		c.checkRules(value)
	}
	return c.probs
}

type checker struct {
	p     *Param
	v     Version
	probs []Problem
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
		if isUnlimited(value) {
			return
		}
		c.add(SeverityError, fmt.Sprintf("%s=%q is not a valid number", p.Name, value), intHint(p.Kind))
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

// cStrtoul mimics glibc strtoul(s, &end, 0) followed by Slurm's optional
// k/K suffix and its "*end == '\0'" test. ok is false when the string is
// not entirely a number; rangeErr reports ERANGE. A negative number wraps
// like in C; callers test for the leading '-' as Slurm does.
func cStrtoul(s string, kSuffix bool) (n uint64, ok, rangeErr bool) {
	i := skipCSpace(s)
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	n, used, rangeErr := cMagnitude(s[i:])
	if used == 0 {
		// No digits: strtoul leaves end at the start of s, so only an
		// empty string passes Slurm's "*end == '\0'" test.
		return 0, len(s) == 0, false
	}
	i += used
	if rangeErr {
		n = math.MaxUint64
	} else if neg {
		n = -n
	}
	if kSuffix && i < len(s) && (s[i] == 'k' || s[i] == 'K') {
		if n > math.MaxUint64/1024 {
			rangeErr = true
		}
		n *= 1024
		i++
	}
	return n, i == len(s), rangeErr
}

// cStrtol mimics strtol(s, &end, 0) with Slurm's "*end == '\0'" test.
func cStrtol(s string) (n int64, ok, rangeErr bool) {
	i := skipCSpace(s)
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	u, used, rangeErr := cMagnitude(s[i:])
	if used == 0 {
		return 0, len(s) == 0, false
	}
	if (!neg && u > math.MaxInt64) || (neg && u > 1<<63) {
		rangeErr = true
	}
	if neg {
		return -int64(u), i+used == len(s), rangeErr
	}
	return int64(u), i+used == len(s), rangeErr
}

// cMagnitude reads the digits of a base-0 strtoul number (0x hex, leading-0
// octal, else decimal) at the start of s. used is 0 when there is no digit.
func cMagnitude(s string) (n uint64, used int, overflow bool) {
	base, i := uint64(10), 0
	switch {
	case len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && hexDigit(s[2]) >= 0:
		base, i = 16, 2
	case len(s) > 0 && s[0] == '0':
		base = 8
	}
	start := i
	for i < len(s) {
		d := hexDigit(s[i])
		if d < 0 || uint64(d) >= base {
			break
		}
		if n > (math.MaxUint64-uint64(d))/base {
			overflow = true
		}
		n = n*base + uint64(d)
		i++
	}
	if i == start {
		return 0, 0, false
	}
	return n, i, overflow
}

func skipCSpace(s string) int {
	i := 0
	for i < len(s) && isCSpace(s[i]) {
		i++
	}
	return i
}

func isCSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\v' || b == '\f' || b == '\r'
}

func hexDigit(b byte) int {
	switch {
	case '0' <= b && b <= '9':
		return int(b - '0')
	case 'a' <= b && b <= 'f':
		return int(b-'a') + 10
	case 'A' <= b && b <= 'F':
		return int(b-'A') + 10
	}
	return -1
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

const timeHint = "want minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS, or UNLIMITED/INFINITE/-1"

func (c *checker) checkTime(value string) {
	p := c.p
	secs, res := timeStr2Secs(value)
	switch res {
	case timeInvalid:
		c.add(SeverityError, fmt.Sprintf("%s=%q is not a valid Slurm time string", p.Name, value), timeHint)
		return
	case timeOverflow:
		c.add(SeverityError, fmt.Sprintf("%s=%q is out of range (Slurm's 32-bit arithmetic overflows)", p.Name, value), timeHint)
		return
	}
	infinite := res == timeInfinite
	mins := roundUpMinutes(secs)
	switch p.TimeRule {
	case TimeSyntaxOnly:
		if !infinite && secs < 0 {
			c.add(SeverityWarning, fmt.Sprintf("%s=%q is negative; Slurm stores it as a huge unsigned number", p.Name, value), timeHint)
		}
	case TimePositive:
		if infinite || mins < 1 {
			c.add(SeverityError, fmt.Sprintf("%s=%q must be at least one minute (INFINITE and 0 are rejected)", p.Name, value), timeHint)
		}
	default:
		if !infinite && mins < 0 {
			c.add(SeverityError, fmt.Sprintf("%s=%q is negative", p.Name, value), timeHint)
		}
	}
}

type timeResult uint8

const (
	timeOK timeResult = iota
	timeInfinite
	timeInvalid
	timeOverflow
)

// timeStr2Secs follows time_str2secs in src/common/parse_time.c (the same
// in 22.05.8 and 26.05.3). Arithmetic that would overflow Slurm's int is
// reported as timeOverflow instead of being wrapped.
func timeStr2Secs(s string) (int64, timeResult) {
	if s == "" {
		return 0, timeInvalid
	}
	if s == "-1" || isUnlimited(s) {
		return 0, timeInfinite
	}
	if !validTimespec(s) {
		return 0, timeInvalid
	}
	var d, h, m, sec int64
	if strings.IndexByte(s, '-') >= 0 {
		// sscanf(s, "%d-%d:%d:%d"): the first %d may carry the leading '-'.
		f, _ := scanInts(s, []byte{'-', ':', ':'})
		d, h, m, sec = f[0], f[1], f[2], f[3]
		d *= 86400
		h *= 3600
		m *= 60
	} else if f, n := scanInts(s, []byte{':', ':'}); n == 3 {
		h, m, sec = f[0]*3600, f[1]*60, f[2]
	} else {
		// minutes[:seconds]
		m, sec = f[0]*60, f[1]
	}
	total := d + h + m + sec
	if total > math.MaxInt32 || total < math.MinInt32+2 {
		return 0, timeOverflow
	}
	return total, timeOK
}

// scanInts mimics sscanf with a pattern of "%d" separated by seps: it reads
// a signed decimal, then requires the next separator, and so on. It returns
// the fields read (missing ones are 0) and how many conversions succeeded.
func scanInts(s string, seps []byte) ([4]int64, int) {
	var out [4]int64
	i, n := 0, 0
	for field := 0; field <= len(seps); field++ {
		j := i
		if j < len(s) && (s[j] == '-' || s[j] == '+') {
			j++
		}
		k := j
		for k < len(s) && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		if k == j {
			return out, n
		}
		v, err := strconv.ParseInt(s[i:k], 10, 64)
		if err != nil || v > math.MaxInt32 || v < math.MinInt32 {
			// Slurm's %d would overflow; make the total overflow too.
			v = math.MaxInt32 + 1
		}
		out[field] = v
		n++
		i = k
		if field == len(seps) || i >= len(s) || s[i] != seps[field] {
			return out, n
		}
		i++
	}
	return out, n
}

// validTimespec follows _is_valid_timespec.
func validTimespec(s string) bool {
	digit, dash, colon := 0, 0, 0
	already := false
	for i := 0; i < len(s); i++ {
		switch b := s[i]; {
		case b >= '0' && b <= '9':
			if !already {
				digit++
				already = true
			}
		case b == '-':
			already = false
			dash++
			if colon > 0 {
				return false
			}
		case b == ':':
			already = false
			colon++
		default:
			return false
		}
	}
	if digit == 0 || dash > 1 || colon > 2 {
		return false
	}
	if dash > 0 {
		if (colon == 1 && digit < 3) || (colon == 2 && digit < 4) {
			return false
		}
	} else if (colon == 1 && digit < 2) || (colon == 2 && digit < 3) {
		return false
	}
	return true
}

// roundUpMinutes is Slurm's ROUNDUP(secs, 60) on an int (C division
// truncates toward zero).
func roundUpMinutes(secs int64) int64 { return (secs + 59) / 60 }

// ParseTime parses a Slurm time string the way time_str2mins does for
// MaxTime, DefaultTime, PriorityDecayHalfLife, PriorityMaxAge and
// PriorityCalcPeriod: minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS,
// with left-over seconds rounded up to a whole minute. "UNLIMITED",
// "INFINITE" (any case) and "-1" return Infinite. ok is false for a string
// Slurm rejects as malformed, for results that overflow Slurm's int, and
// for negative results (such as "-2", which Slurm reads as minus two days
// and every minute-valued key rejects).
func ParseTime(s string) (minutes int64, ok bool) {
	secs, res := timeStr2Secs(s)
	switch res {
	case timeInfinite:
		return Infinite, true
	case timeOK:
		if secs < 0 {
			return 0, false
		}
		return roundUpMinutes(secs), true
	}
	return 0, false
}

// ParseTimeSeconds is ParseTime without rounding, as time_str2secs does for
// PreemptExemptTime. It returns Infinite for the no-limit words and ok ==
// false for malformed, overflowing or negative values.
func ParseTimeSeconds(s string) (seconds int64, ok bool) {
	secs, res := timeStr2Secs(s)
	switch res {
	case timeInfinite:
		return Infinite, true
	case timeOK:
		if secs < 0 {
			return 0, false
		}
		return secs, true
	}
	return 0, false
}
