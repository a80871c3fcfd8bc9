package catalog

import (
	"math"
	"strings"
)

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

// ParseNumber returns the number Slurm stores for an integer key p
// (KindUint16, KindUint32, KindUint64) given value: strtoul with base 0, a
// k/K suffix for the 32- and 64-bit kinds, and UNLIMITED/INFINITE read as
// the kind's INFINITE (0xffff, 0xffffffff, or the largest uint64). ok is
// false for any value CheckValue reports as an error and for other kinds.
func ParseNumber(p *Param, value string) (n uint64, ok bool) {
	if p == nil {
		return 0, false
	}
	var limit uint64
	switch p.Kind {
	case KindUint16:
		limit = math.MaxUint16
	case KindUint32:
		limit = math.MaxUint32
	case KindUint64:
		limit = math.MaxUint64
	default:
		return 0, false
	}
	if isUnlimited(value) {
		return limit, true
	}
	n, ok, rangeErr := cStrtoul(value, p.Kind != KindUint16)
	if !ok || rangeErr || strings.HasPrefix(value, "-") || n > limit {
		return 0, false
	}
	return n, true
}

// FiniteNumber is ParseNumber for a count or a size, which a limit of
// UNLIMITED leaves unset: the number as an int64; ok is false also for the
// kind's INFINITE (UNLIMITED) and for a number above the largest int64.
func FiniteNumber(p *Param, value string) (n int64, ok bool) {
	v, ok := ParseNumber(p, value)
	if !ok || v >= math.MaxUint16 && p.Kind == KindUint16 || v >= math.MaxUint32 && p.Kind == KindUint32 || v > math.MaxInt64 {
		return 0, false
	}
	return int64(v), true
}
