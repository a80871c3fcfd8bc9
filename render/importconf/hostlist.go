package importconf

import (
	"fmt"
	"strconv"
	"strings"
)

// maxHosts bounds how many names one host list may expand to, so that a
// line such as node[0-999999999] cannot exhaust memory.
const maxHosts = 1 << 20

// ExpandHostlist expands a Slurm host list into node names, in order:
// "c-gpu-[0-3,5]" gives c-gpu-0 … c-gpu-3 and c-gpu-5; "n[01-03]" keeps the
// zero padding (n01, n02, n03); several bracket groups multiply
// ("r[1-2]n[1-2]" gives r1n1, r1n2, r2n1, r2n2); commas outside brackets
// separate host lists ("a[1-2],b" gives a1, a2, b). Duplicates are kept.
func ExpandHostlist(s string) ([]string, error) {
	items, err := splitTop(s)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, it := range items {
		names, err := expandItem(it, maxHosts-len(out))
		if err != nil {
			return nil, fmt.Errorf("host list %q: %w", s, err)
		}
		out = append(out, names...)
	}
	return out, nil
}

// splitTop splits s at the commas outside brackets, dropping empty items.
func splitTop(s string) ([]string, error) {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			depth++
			if depth > 1 {
				return nil, fmt.Errorf("host list %q: nested brackets", s)
			}
		case ']':
			depth--
			if depth < 0 {
				return nil, fmt.Errorf("host list %q: unbalanced brackets", s)
			}
		case ',':
			if depth == 0 {
				if i > start {
					out = append(out, s[start:i])
				}
				start = i + 1
			}
		}
	}
	if depth != 0 {
		return nil, fmt.Errorf("host list %q: unbalanced brackets", s)
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out, nil
}

// expandItem expands one host list item (no top-level commas) into at most
// limit names.
func expandItem(s string, limit int) ([]string, error) {
	open := strings.IndexByte(s, '[')
	if open < 0 {
		if limit < 1 {
			return nil, fmt.Errorf("more than %d hosts", maxHosts)
		}
		return []string{s}, nil
	}
	end := strings.IndexByte(s[open:], ']')
	if end < 0 {
		return nil, fmt.Errorf("unbalanced brackets")
	}
	end += open
	prefix, body, rest := s[:open], s[open+1:end], s[end+1:]
	var nums []string
	for _, r := range strings.Split(body, ",") {
		lo, hi, isRange := strings.Cut(r, "-")
		if !isRange {
			hi = lo
		}
		a, err1 := strconv.ParseUint(lo, 10, 32)
		b, err2 := strconv.ParseUint(hi, 10, 32)
		if err1 != nil || err2 != nil || !isDigits(lo) || !isDigits(hi) {
			return nil, fmt.Errorf("bad range %q", r)
		}
		if b < a {
			return nil, fmt.Errorf("range %q runs backwards", r)
		}
		if b-a >= uint64(limit) || len(nums)+int(b-a)+1 > limit {
			return nil, fmt.Errorf("more than %d hosts", maxHosts)
		}
		for n := a; n <= b; n++ {
			nums = append(nums, fmt.Sprintf("%0*d", len(lo), n))
		}
	}
	tails, err := expandItem(rest, max(1, limit/max(1, len(nums))))
	if err != nil {
		return nil, err
	}
	if len(nums)*len(tails) > limit {
		return nil, fmt.Errorf("more than %d hosts", maxHosts)
	}
	out := make([]string, 0, len(nums)*len(tails))
	for _, n := range nums {
		for _, t := range tails {
			out = append(out, prefix+n+t)
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
