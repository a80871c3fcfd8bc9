// Package hostlist reads and writes Slurm host lists ("c-a4-[0-3,8],login"):
// expansion into names under a shared budget, compression back into a
// list, natural ordering. It is the one implementation of the syntax,
// for render (slurm.conf, gres.conf, diffs, import), lint (rules that
// check the names a host list holds) and deploy (the local Slurm harness).
//
// It sits in the lowest layer, next to compiler/managed which names the
// nodes, and imports nothing of slurmspec: lint and render share a layer
// and may not import each other, so a package both use lives below them.
package hostlist

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// MaxHosts is the default number of names a Budget allows: a slurm.conf
// of any real cluster stays far below it, and a line such as
// node[0-999999999] cannot exhaust memory.
const MaxHosts = 1 << 20

// Budget bounds how many host names expansions may produce in total, so
// that a file of many lists, each within bounds, cannot exhaust memory
// either. Share one Budget across a whole file.
type Budget struct {
	left, limit int
}

// NewBudget returns a budget of n names.
func NewBudget(n int) *Budget { return &Budget{left: n, limit: n} }

// TooManyError reports a budget exceeded.
type TooManyError struct {
	Limit int
}

func (e *TooManyError) Error() string {
	return fmt.Sprintf("host lists expand to more than %d names", e.Limit)
}

func (b *Budget) take(n int) error {
	if n > b.left {
		b.left = 0
		return &TooManyError{Limit: b.limit}
	}
	b.left -= n
	return nil
}

// Expand expands a Slurm host list into names, in order, charging
// them to budget (nil: a fresh budget of MaxHosts names). "c-gpu-[0-3,5]"
// gives c-gpu-0 … c-gpu-3 and c-gpu-5; a range keeps the width of its
// lower bound ("n[01-03]" gives n01, n02, n03); several bracket groups
// multiply ("r[1-2]n[1-2]" gives r1n1, r1n2, r2n1, r2n2); commas outside
// brackets separate items ("a[1-2],b"); empty items are skipped and
// duplicates kept.
func Expand(s string, budget *Budget) ([]string, error) {
	if budget == nil {
		budget = NewBudget(MaxHosts)
	}
	items, err := Split(s)
	if err != nil {
		return nil, fmt.Errorf("host list %q: %w", s, err)
	}
	var out []string
	for _, it := range items {
		names, err := expandItem(it, budget)
		if err != nil {
			return nil, fmt.Errorf("host list %q: %w", s, err)
		}
		out = append(out, names...)
	}
	return out, nil
}

// Split splits a host list at the commas outside brackets, dropping
// empty items. Nested or unbalanced brackets are an error.
func Split(s string) ([]string, error) {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			depth++
			if depth > 1 {
				return nil, fmt.Errorf("nested brackets")
			}
		case ']':
			depth--
			if depth < 0 {
				return nil, fmt.Errorf("unbalanced brackets")
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
		return nil, fmt.Errorf("unbalanced brackets")
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out, nil
}

// span is one range of a bracket group.
type span struct {
	lo, hi uint64
	width  int
}

// expandItem expands one item (no top-level commas).
func expandItem(s string, budget *Budget) ([]string, error) {
	// Count first, so that nothing is allocated past the budget.
	n, err := countItem(s)
	if err != nil {
		return nil, err
	}
	if err := budget.take(n); err != nil {
		return nil, err
	}
	out := make([]string, 0, n)
	var rec func(prefix, rest string)
	rec = func(prefix, rest string) {
		open := strings.IndexByte(rest, '[')
		if open < 0 {
			out = append(out, prefix+rest)
			return
		}
		end := open + strings.IndexByte(rest[open:], ']')
		spans, _ := parseSpans(rest[open+1 : end])
		for _, sp := range spans {
			for v := sp.lo; v <= sp.hi; v++ {
				rec(prefix+rest[:open]+fmt.Sprintf("%0*d", sp.width, v), rest[end+1:])
			}
		}
	}
	rec("", s)
	return out, nil
}

// countItem returns how many names an item expands to, checking its
// syntax; the count saturates above MaxInt32.
func countItem(s string) (int, error) {
	total := 1
	for {
		open := strings.IndexByte(s, '[')
		if open < 0 {
			if strings.IndexByte(s, ']') >= 0 {
				return 0, fmt.Errorf("unbalanced brackets")
			}
			return total, nil
		}
		end := strings.IndexByte(s[open:], ']')
		if end < 0 {
			return 0, fmt.Errorf("unbalanced brackets")
		}
		end += open
		if strings.IndexByte(s[:open], ']') >= 0 {
			return 0, fmt.Errorf("unbalanced brackets")
		}
		spans, err := parseSpans(s[open+1 : end])
		if err != nil {
			return 0, err
		}
		n := 0
		for _, sp := range spans {
			n = satAdd(n, sp.hi-sp.lo+1)
		}
		total = satMul(total, n)
		s = s[end+1:]
	}
}

const saturated = 1 << 31

func satAdd(a int, b uint64) int {
	if b >= saturated || a+int(b) >= saturated {
		return saturated
	}
	return a + int(b)
}

func satMul(a, b int) int {
	if a == 0 || b == 0 {
		return 0
	}
	if a >= saturated/b {
		return saturated
	}
	return a * b
}

// parseSpans reads the inside of a bracket group: "0-3,5,08-11".
func parseSpans(body string) ([]span, error) {
	var out []span
	for _, r := range strings.Split(body, ",") {
		lo, hi, isRange := strings.Cut(r, "-")
		if !isRange {
			hi = lo
		}
		if !isDigits(lo) || !isDigits(hi) {
			return nil, fmt.Errorf("bad range %q", r)
		}
		a, err1 := strconv.ParseUint(lo, 10, 32)
		b, err2 := strconv.ParseUint(hi, 10, 32)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("bad range %q", r)
		}
		if b < a {
			return nil, fmt.Errorf("range %q runs backwards", r)
		}
		out = append(out, span{lo: a, hi: b, width: len(lo)})
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

// Less orders host names naturally: by prefix, then number.
func Less(a, b string) bool {
	x, y := splitHost(a), splitHost(b)
	if x.prefix != y.prefix {
		return x.prefix < y.prefix
	}
	if x.num != y.num {
		return x.num < y.num
	}
	return a < b
}

// Compress writes names as a compact Slurm host list, in natural
// order and without duplicates: "c-a4-[0-3,8],login".
func Compress(names []string) string {
	hs := make([]hostName, 0, len(names))
	seen := map[string]bool{}
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			hs = append(hs, splitHost(n))
		}
	}
	sort.Slice(hs, func(i, j int) bool { return Less(hs[i].name, hs[j].name) })
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

// First returns the first name of a host list without expanding it:
// "c-a4-[2-5],x" gives "c-a4-2". A malformed list is returned as is.
func First(list string) string {
	items, err := Split(list)
	if err != nil || len(items) == 0 {
		return list
	}
	item := items[0]
	var b strings.Builder
	for {
		open := strings.IndexByte(item, '[')
		if open < 0 {
			b.WriteString(item)
			return b.String()
		}
		end := open + strings.IndexByte(item[open:], ']')
		b.WriteString(item[:open])
		first := item[open+1 : end]
		if i := strings.IndexAny(first, "-,"); i >= 0 {
			first = first[:i]
		}
		b.WriteString(first)
		item = item[end+1:]
	}
}

// Range formats the node names prefix+i for i in [from, to) as a Slurm
// host list: "c-a4-3" for one node, "c-a4-[0-7]" for a range.
func Range(prefix string, from, to int64) string {
	if to-from == 1 {
		return fmt.Sprintf("%s%d", prefix, from)
	}
	return fmt.Sprintf("%s[%d-%d]", prefix, from, to-1)
}
