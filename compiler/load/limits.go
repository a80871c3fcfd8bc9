package load

import (
	"bytes"
	"unicode/utf8"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// Limits bound what the loader accepts, so that no input can exhaust memory,
// time or the stack. They apply to what a spec expands to (YAML aliases, CUE
// evaluation), not only to its size on disk.
const (
	// MaxFileSize is the largest spec file accepted: 16 MiB. The text of
	// the loaded value (every string and key, after YAML aliases and CUE
	// evaluation) is bounded by the same number.
	MaxFileSize = 16 << 20
	// MaxDepth is the deepest nesting of objects and arrays accepted, in
	// the source and in the loaded value.
	MaxDepth = 64
	// MaxValues is the most values (objects, arrays and scalars) a loaded
	// spec may hold: the generated 2000-pool spec of the benchmarks holds
	// about 60,000. Parsing a quarter of a million values takes well under
	// a second and about 100 MB.
	MaxValues = 250_000
)

// budget counts what a loaded value expands to and records the first limit
// it exceeds.
type budget struct {
	values, textBytes int
	hit               bool
	diag              diag.Diagnostic
}

// value accounts for one value at the given depth holding n bytes of
// text. It returns false once a limit is exceeded.
func (b *budget) value(pos diag.Pos, depth, n int) bool {
	if b.hit {
		return false
	}
	b.values++
	b.textBytes += n
	switch {
	case depth > MaxDepth:
		b.fail(pos, "flatten the structure (or remove the recursive YAML alias); a cluster spec is a few levels deep",
			"nesting deeper than %d levels", MaxDepth)
	case b.values > MaxValues:
		b.fail(pos, "a cluster spec holds far fewer values; remove the YAML aliases or CUE comprehensions that multiply them",
			"the spec expands to more than %d values", MaxValues)
	case b.textBytes > MaxFileSize:
		b.fail(pos, "a cluster spec holds far less text; remove the YAML aliases or CUE expressions that multiply it",
			"the spec's text expands to more than %d MiB", MaxFileSize>>20)
	}
	return !b.hit
}

// number accounts for a number written as text: a literal longer than
// MaxNumberText characters fails the budget. No value of a spec needs one,
// and CUE's arbitrary-precision arithmetic, which the schema check runs on
// every number, takes time quadratic in its length (a 5 MB literal took
// 107 s).
func (b *budget) number(pos diag.Pos, text string) bool {
	if b.hit {
		return false
	}
	if len(text) > MaxNumberText {
		b.fail(pos, "a spec's numbers are a few digits long; write this one as a number of at most 1024 characters",
			"a number written with %d characters (at most %d)", len(text), MaxNumberText)
	}
	return !b.hit
}

// text accounts for n bytes of text (a key).
func (b *budget) text(n int) {
	b.textBytes += n
}

func (b *budget) exceeded() bool { return b.hit }

func (b *budget) fail(pos diag.Pos, hint, format string, args ...any) {
	var l diag.List
	l.Errorf(RuleLimit, pos, "", hint, format, args...)
	b.hit, b.diag = true, l[0]
}

// lineIndex converts byte offsets to positions whose column counts
// characters (Unicode code points), the same for every format. Lines end
// at '\n' only: U+2028, U+2029 and U+0085 do not start a line in the
// positions slurmspec reports, whatever a parser (YAML's) thinks.
type lineIndex struct {
	file  string
	data  []byte
	start []int  // offset of the first byte of each line
	ascii []bool // whether each line is ASCII (byte column = character column)
	// yamlStart is the offset of each line as YAML counts lines (it also
	// breaks at '\r', U+0085, U+2028 and U+2029); nil when they agree.
	yamlStart []int
	// The last conversion, so that converting offsets in increasing
	// order on one long line stays linear.
	lastLine, lastOff, lastCol int
}

func newLineIndex(file string, b []byte) *lineIndex {
	li := &lineIndex{file: file, data: b, start: []int{0}, lastLine: -1}
	ascii, yamlBreaks := true, false
	for i, c := range b {
		switch {
		case c == '\n':
			li.start = append(li.start, i+1)
			li.ascii = append(li.ascii, ascii)
			ascii = true
		case c >= 0x80:
			ascii = false
		case c == '\r' && (i+1 == len(b) || b[i+1] != '\n'):
			yamlBreaks = true
		}
	}
	li.ascii = append(li.ascii, ascii)
	if yamlBreaks || bytes.Contains(b, []byte("\u0085")) || bytes.Contains(b, []byte("\u2028")) || bytes.Contains(b, []byte("\u2029")) {
		li.yamlStart = yamlLineStarts(b)
	}
	return li
}

// yamlLineStarts returns the offset of each line as a YAML parser counts
// them.
func yamlLineStarts(b []byte) []int {
	starts := []int{0}
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r == '\r' && i+1 < len(b) && b[i+1] == '\n':
			size = 2
			starts = append(starts, i+size)
		case r == '\n' || r == '\r' || r == '\u0085' || r == '\u2028' || r == '\u2029':
			starts = append(starts, i+size)
		}
		i += size
	}
	return starts
}

// pos returns the position of a byte offset.
func (li *lineIndex) pos(off int) diag.Pos {
	off = min(max(off, 0), len(li.data))
	lo, hi := 0, len(li.start)
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if li.start[mid] <= off {
			lo = mid
		} else {
			hi = mid
		}
	}
	col := off - li.start[lo] + 1
	if !li.ascii[lo] {
		from, c := li.start[lo], 1
		if li.lastLine == lo && li.lastOff <= off {
			from, c = li.lastOff, li.lastCol
		}
		col = c + utf8.RuneCount(li.data[from:off])
		li.lastLine, li.lastOff, li.lastCol = lo, off, col
	}
	return diag.Pos{File: li.file, Line: lo + 1, Col: col}
}

// span returns the range of the bytes from start up to end (exclusive).
func (li *lineIndex) span(start, end int) diag.Pos {
	p := li.pos(start)
	if end <= start {
		return p
	}
	return p.Through(li.pos(end))
}

// lineCol returns the position of a 1-based line and character column.
func (li *lineIndex) lineCol(line, col int) diag.Pos {
	return diag.Pos{File: li.file, Line: line, Col: col}
}

// byteLineCol returns the position of a 1-based line and byte column.
func (li *lineIndex) byteLineCol(line, col int) diag.Pos {
	if line < 1 || line > len(li.start) {
		return diag.Pos{File: li.file, Line: line, Col: col}
	}
	return li.pos(li.start[line-1] + col - 1)
}

// yamlPos returns the position of a YAML parser's 1-based line and
// character column.
func (li *lineIndex) yamlPos(line, col int) diag.Pos {
	if li.yamlStart == nil {
		return li.lineCol(line, col)
	}
	if line < 1 || line > len(li.yamlStart) {
		return diag.Pos{File: li.file, Line: line, Col: col}
	}
	return li.pos(li.yamlOffset(line, col))
}

// yamlOffset returns the byte offset of a YAML parser's 1-based line and
// character column, or -1 if there is no such line.
func (li *lineIndex) yamlOffset(line, col int) int {
	starts := li.yamlStart
	if starts == nil {
		starts = li.start
	}
	if line < 1 || line > len(starts) {
		return -1
	}
	off := starts[line-1]
	for i := 1; i < col && off < len(li.data); i++ {
		_, size := utf8.DecodeRune(li.data[off:])
		off += size
	}
	return off
}
