package slurmconf

import (
	"fmt"
	"strconv"
	"strings"
)

// Gres is one entry of a node's Gres= list: name[:type][:count], with
// optional flags (no_consume) and an optional socket binding "(S:0-1)".
type Gres struct {
	Name, Type string
	// Count is the number of units (1 when the entry gives none).
	Count int64
	// Raw is the entry as written.
	Raw string
}

// ParseGres reads a node's Gres= value ("gpu:h100:8,nvme:1"); "(null)"
// and the empty string are no GRES. A count takes the suffixes K, M, G, T
// and P (powers of 1024).
func ParseGres(v string) ([]Gres, error) {
	if v == "" || strings.EqualFold(v, "(null)") {
		return nil, nil
	}
	items, err := splitOutside(v, ',', '(', ')')
	if err != nil {
		return nil, fmt.Errorf("gres %q: %w", v, err)
	}
	var out []Gres
	for _, raw := range items {
		it := raw
		if i := strings.IndexByte(it, '('); i >= 0 { // a socket binding
			it = it[:i]
		}
		fields := strings.Split(it, ":")
		for len(fields) > 1 && strings.EqualFold(fields[len(fields)-1], "no_consume") {
			fields = fields[:len(fields)-1]
		}
		g := Gres{Name: fields[0], Count: 1, Raw: raw}
		if g.Name == "" {
			return nil, fmt.Errorf("gres %q: entry %q has no name", v, raw)
		}
		switch len(fields) {
		case 1:
		case 2:
			if n, ok := GresCount(fields[1]); ok {
				g.Count = n
			} else {
				g.Type = fields[1]
			}
		case 3:
			n, ok := GresCount(fields[2])
			if !ok {
				return nil, fmt.Errorf("gres %q: %q is not a count", v, fields[2])
			}
			g.Type, g.Count = fields[1], n
		default:
			return nil, fmt.Errorf("gres %q: entry %q has too many fields", v, raw)
		}
		out = append(out, g)
	}
	return out, nil
}

// GresCount reads a GRES count: digits with an optional K, M, G, T or P
// suffix (powers of 1024). It refuses counts past 2^62.
func GresCount(s string) (int64, bool) {
	shift := 0
	if s != "" {
		switch s[len(s)-1] {
		case 'k', 'K':
			shift = 10
		case 'm', 'M':
			shift = 20
		case 'g', 'G':
			shift = 30
		case 't', 'T':
			shift = 40
		case 'p', 'P':
			shift = 50
		}
		if shift > 0 {
			s = s[:len(s)-1]
		}
	}
	if !isDigits(s) {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n > (1<<62)>>shift {
		return 0, false
	}
	return n << shift, true
}

// splitOutside splits s at sep where it is not inside open...close,
// dropping empty items.
func splitOutside(s string, sep, open, close byte) ([]string, error) {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case open:
			depth++
		case close:
			depth--
			if depth < 0 {
				return nil, fmt.Errorf("unbalanced %c", close)
			}
		case sep:
			if depth == 0 {
				if i > start {
					out = append(out, s[start:i])
				}
				start = i + 1
			}
		}
	}
	if depth != 0 {
		return nil, fmt.Errorf("unbalanced %c", open)
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out, nil
}

// GresLine is one line of gres.conf: its number and its pairs (keys as
// written). gres.conf has the syntax of slurm.conf.
type GresLine struct {
	Num   int
	Pairs []Pair
}

// Get returns the value of a key on the line (case-insensitive).
func (l GresLine) Get(key string) (string, bool) {
	return Line(l).Get(key)
}

// ParseGresConf reads gres.conf into lines (comments, continuations and
// escapes as in slurm.conf); Include directives are refused.
func ParseGresConf(data []byte) ([]GresLine, error) {
	var out []GresLine
	for _, ll := range SplitLines(data) {
		if _, ok := IncludeDirective(ll.Text); ok {
			return nil, fmt.Errorf("line %d: Include is not supported in gres.conf", ll.Num)
		}
		pairs, err := ParsePairs(ll.Text)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", ll.Num, err)
		}
		if len(pairs) > 0 {
			out = append(out, GresLine{Num: ll.Num, Pairs: pairs})
		}
	}
	return out, nil
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
