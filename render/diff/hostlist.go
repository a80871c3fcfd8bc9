package diff

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// maxHosts bounds how many names one comparison expands host lists to.
const maxHosts = 1 << 20

// expandHostlist expands a Slurm host list such as "c-a4-[0-3,8],login"
// into names. Ranges keep the zero padding of their lower bound, as Slurm
// does. budget is decremented by the number of names produced.
func expandHostlist(s string, budget *int) ([]string, error) {
	var out []string
	for _, item := range splitTop(s) {
		if item == "" {
			continue
		}
		names, err := expandItem(item, budget)
		if err != nil {
			return nil, fmt.Errorf("host list %q: %w", s, err)
		}
		out = append(out, names...)
	}
	return out, nil
}

// splitTop splits at commas outside brackets.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			depth++
		case ']':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

func expandItem(item string, budget *int) ([]string, error) {
	open := strings.IndexByte(item, '[')
	if open < 0 {
		if strings.IndexByte(item, ']') >= 0 {
			return nil, fmt.Errorf("unbalanced ']'")
		}
		*budget--
		if *budget < 0 {
			return nil, fmt.Errorf("more than %d host names", maxHosts)
		}
		return []string{item}, nil
	}
	end := strings.IndexByte(item[open:], ']')
	if end < 0 {
		return nil, fmt.Errorf("unbalanced '['")
	}
	prefix, ranges, rest := item[:open], item[open+1:open+end], item[open+end+1:]
	tails, err := expandItem(rest, budget)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, r := range strings.Split(ranges, ",") {
		lo, hi, isRange := strings.Cut(r, "-")
		if !isRange {
			hi = lo
		}
		a, err1 := strconv.ParseInt(lo, 10, 64)
		b, err2 := strconv.ParseInt(hi, 10, 64)
		if err1 != nil || err2 != nil || a < 0 || b < a {
			return nil, fmt.Errorf("bad range %q", r)
		}
		width := 0
		if len(lo) > 1 && lo[0] == '0' {
			width = len(lo)
		}
		if b-a >= int64(maxHosts) {
			return nil, fmt.Errorf("more than %d host names", maxHosts)
		}
		for n := a; n <= b; n++ {
			for _, t := range tails {
				*budget--
				if *budget < 0 {
					return nil, fmt.Errorf("more than %d host names", maxHosts)
				}
				out = append(out, fmt.Sprintf("%s%0*d%s", prefix, width, n, t))
			}
		}
	}
	return out, nil
}

// hostName splits a name into a prefix and a trailing number; num is -1
// when the name does not end in digits.
type hostName struct {
	prefix string
	num    int64
	width  int // zero-padded width, 0 when unpadded
	name   string
}

func splitHost(s string) hostName {
	i := len(s)
	for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
		i--
	}
	digits := s[i:]
	if digits == "" || len(digits) > 18 {
		return hostName{prefix: s, num: -1, name: s}
	}
	n, _ := strconv.ParseInt(digits, 10, 64)
	w := 0
	if len(digits) > 1 && digits[0] == '0' {
		w = len(digits)
	}
	return hostName{prefix: s[:i], num: n, width: w, name: s}
}

// lessHost orders host names naturally: by prefix, then number.
func lessHost(a, b string) bool {
	x, y := splitHost(a), splitHost(b)
	if x.prefix != y.prefix {
		return x.prefix < y.prefix
	}
	if x.num != y.num {
		return x.num < y.num
	}
	return a < b
}

// compressHostlist writes names as a compact Slurm host list, in natural
// order: "c-a4-[0-3,8],login".
func compressHostlist(names []string) string {
	hs := make([]hostName, 0, len(names))
	seen := map[string]bool{}
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			hs = append(hs, splitHost(n))
		}
	}
	sort.Slice(hs, func(i, j int) bool { return lessHost(hs[i].name, hs[j].name) })
	var items []string
	for i := 0; i < len(hs); {
		h := hs[i]
		if h.num < 0 {
			items = append(items, h.name)
			i++
			continue
		}
		j := i
		var ranges []string
		for j < len(hs) && hs[j].num >= 0 && hs[j].prefix == h.prefix && hs[j].width == h.width {
			k := j
			for k+1 < len(hs) && hs[k+1].num == hs[k].num+1 && hs[k+1].prefix == h.prefix && hs[k+1].width == h.width {
				k++
			}
			if k == j {
				ranges = append(ranges, fmt.Sprintf("%0*d", h.width, hs[j].num))
			} else {
				ranges = append(ranges, fmt.Sprintf("%0*d-%0*d", h.width, hs[j].num, h.width, hs[k].num))
			}
			j = k + 1
		}
		if j-i == 1 {
			items = append(items, h.name)
		} else {
			items = append(items, h.prefix+"["+strings.Join(ranges, ",")+"]")
		}
		i = j
	}
	return strings.Join(items, ",")
}
