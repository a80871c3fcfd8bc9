package catalog

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Infinite is the number of minutes (or seconds) ParseTime and
// ParseTimeSeconds return for "INFINITE", "UNLIMITED" and "-1".
const Infinite int64 = math.MaxInt64

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
