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

// hostName is a name split into a prefix and its trailing digits; num is
// -1 when the name does not end in digits.
type hostName struct {
	prefix, digits string
	num            int64
	name           string
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
	return hostName{prefix: s[:i], digits: digits, num: n, name: s}
}

// width is the zero-padded width the name's number is written in, 0 when
// unpadded.
func (h hostName) width() int {
	if len(h.digits) > 1 && h.digits[0] == '0' {
		return len(h.digits)
	}
	return 0
}

// fits reports whether h is written as a range of width w would write it.
func (h hostName) fits(prefix string, w int) bool {
	return h.num >= 0 && h.prefix == prefix && fmt.Sprintf("%0*d", w, h.num) == h.digits
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
		w := h.width()
		j := i
		var ranges []string
		for j < len(hs) && hs[j].fits(h.prefix, w) {
			k := j
			for k+1 < len(hs) && hs[k+1].num == hs[k].num+1 && hs[k+1].fits(h.prefix, w) {
				k++
			}
			if k == j {
				ranges = append(ranges, hs[j].digits)
			} else {
				ranges = append(ranges, hs[j].digits+"-"+hs[k].digits)
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

// firstHost returns the first name of a host list without expanding it:
// "c-a4-[2-5],x" gives "c-a4-2".
func firstHost(list string) string {
	item := splitTop(list)[0]
	open := strings.IndexByte(item, '[')
	if open < 0 {
		return item
	}
	end := strings.IndexAny(item[open+1:], "-,]")
	if end < 0 {
		return item
	}
	return item[:open] + item[open+1:open+1+end]
}
