package schema

import (
	"regexp"
	"strings"
)

// Regular expressions for the exported schemas. They use only the subset
// of syntax that RE2 (CUE, Go), ECMA-262 (JavaScript validators) and
// Python's re read alike: literals, [...] classes, groups, |, ?, *, + and
// ^/$ anchors. No (?i), no \p{..}, no \d: case-insensitive matching is
// spelt out with classes such as [Pp][Rr].

// reLit quotes s literally.
func reLit(s string) string { return regexp.QuoteMeta(s) }

// reCI matches s in any letter case.
func reCI(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z':
			b.WriteString("[" + string(c-'a'+'A') + string(c) + "]")
		case 'A' <= c && c <= 'Z':
			b.WriteString("[" + string(c) + string(c-'A'+'a') + "]")
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	return b.String()
}

// reCINotExact matches the strings that equal s ignoring case but differ
// from it in at least one letter, or "" when s has no letter.
func reCINotExact(s string) string {
	var alts []string
	for i := 0; i < len(s); i++ {
		c := s[i]
		var other byte
		switch {
		case 'a' <= c && c <= 'z':
			other = c - 'a' + 'A'
		case 'A' <= c && c <= 'Z':
			other = c - 'A' + 'a'
		default:
			continue
		}
		alts = append(alts, reLit(s[:i])+string(other)+reCI(s[i+1:]))
	}
	return reAlt(alts)
}

// reAlt joins alternatives as one group, or "" for none.
func reAlt(alts []string) string {
	switch len(alts) {
	case 0:
		return ""
	case 1:
		return "(" + alts[0] + ")"
	}
	return "(" + strings.Join(alts, "|") + ")"
}

// reDigits is a class matching digit values lo..hi.
func reDigits(lo, hi int) string {
	if lo == hi && hi < 10 {
		return string(rune('0' + lo))
	}
	var b strings.Builder
	b.WriteByte('[')
	if lo < 10 {
		top := min(hi, 9)
		if top == lo {
			b.WriteString(string(rune('0' + lo)))
		} else {
			b.WriteString(string(rune('0'+lo)) + "-" + string(rune('0'+top)))
		}
	}
	if hi >= 10 {
		from := max(lo, 10)
		a, z := byte('a'+from-10), byte('a'+hi-10)
		if a == z {
			b.WriteString(string(a) + string(a-'a'+'A'))
		} else {
			b.WriteString(string(a) + "-" + string(z) + string(a-'a'+'A') + "-" + string(z-'a'+'A'))
		}
	}
	b.WriteByte(']')
	return b.String()
}

// toDigits writes n in base b, most significant digit first.
func toDigits(n uint64, base uint64) []int {
	if n == 0 {
		return []int{0}
	}
	var d []int
	for n > 0 {
		d = append([]int{int(n % base)}, d...)
		n /= base
	}
	return d
}

// reRange matches the numbers lo..hi (1 <= lo <= hi) written in base
// without leading zeros.
func reRange(lo, hi uint64, base uint64) string {
	l, h := toDigits(lo, base), toDigits(hi, base)
	var alts []string
	for n := len(l); n <= len(h); n++ {
		a, z := l, h
		if n > len(l) {
			a = append([]int{1}, make([]int, n-1)...)
		}
		if n < len(h) {
			z = make([]int, n)
			for i := range z {
				z[i] = int(base) - 1
			}
		}
		alts = append(alts, reSameLen(a, z, int(base)))
	}
	return reAlt(alts)
}

// reSameLen matches digit strings between lo and hi of the same length.
func reSameLen(lo, hi []int, base int) string {
	if len(lo) == 0 {
		return ""
	}
	if lo[0] == hi[0] {
		return reDigits(lo[0], lo[0]) + reSameLen(lo[1:], hi[1:], base)
	}
	allMin, allMax := true, true
	for i := 1; i < len(lo); i++ {
		allMin = allMin && lo[i] == 0
		allMax = allMax && hi[i] == base-1
	}
	rest := func(k int) string {
		if k == 0 {
			return ""
		}
		s := reDigits(0, base-1)
		if k == 1 {
			return s
		}
		return s + "{" + itoa(k) + "}"
	}
	if allMin && allMax {
		return reDigits(lo[0], hi[0]) + rest(len(lo)-1)
	}
	var alts []string
	maxTail := make([]int, len(lo)-1)
	minTail := make([]int, len(lo)-1)
	for i := range maxTail {
		maxTail[i] = base - 1
	}
	first, last := lo[0], hi[0]
	if !allMin {
		alts = append(alts, reDigits(lo[0], lo[0])+reSameLen(lo[1:], maxTail, base))
		first++
	}
	if !allMax {
		last--
	}
	if first <= last {
		alts = append(alts, reDigits(first, last)+rest(len(lo)-1))
	}
	if !allMax {
		alts = append(alts, reDigits(hi[0], hi[0])+reSameLen(minTail, hi[1:], base))
	}
	return reAlt(alts)
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}

// reStrtoul matches what strtoul(s, &end, 0) reads as a number in lo..hi
// and consumes entirely: decimal, 0-prefixed octal or 0x hex, with an
// optional '+'. Leading zeros are allowed where C allows them.
func reStrtoul(lo, hi uint64) string {
	var alts []string
	if lo == 0 {
		alts = append(alts, "0+", "0[xX]0+")
	}
	from := max(lo, 1)
	if from <= hi {
		alts = append(alts, reRange(from, hi, 10), "0+"+reRange(from, hi, 8), "0[xX]0*"+reRange(from, hi, 16))
	}
	if len(alts) == 0 {
		return ""
	}
	return `\+?` + reAlt(alts)
}
