package slurmconf

import (
	"fmt"
	"strings"
)

// Doc is slurm.conf kept line by line for editing: lines an edit does not
// touch are written back exactly as they were (comments and spacing
// included); an edited line is written again from its pairs with
// FormatPair.
type Doc struct {
	lines []docLine
}

type docLine struct {
	raw   string // as written, when not edited
	pairs []Pair
	dirty bool
}

// ParseDoc reads slurm.conf text for editing, with the reader Parse uses.
// Include directives are kept as written and not followed.
func ParseDoc(data []byte) (*Doc, error) {
	d := &Doc{}
	for _, ll := range SplitLines(data) {
		line := docLine{raw: ll.Raw}
		if _, ok := IncludeDirective(ll.Text); !ok {
			pairs, err := ParsePairs(ll.Text)
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", ll.Num, err)
			}
			line.pairs = pairs
		}
		d.lines = append(d.lines, line)
	}
	return d, nil
}

// SetGlobal sets a global key: every one-pair line of that key (keys are
// case-insensitive) gets the value, or, when there is none, a line is added
// at the end.
func (d *Doc) SetGlobal(key, value string) {
	found := false
	for i := range d.lines {
		l := &d.lines[i]
		if len(l.pairs) == 1 && KindOf(l.pairs[0].Key) == KindGlobal && strings.EqualFold(l.pairs[0].Key, key) {
			l.pairs[0] = Pair{Key: key, Value: value}
			l.dirty, found = true, true
		}
	}
	if !found {
		d.lines = append(d.lines, docLine{pairs: []Pair{{Key: key, Value: value}}, dirty: true})
	}
}

// SetOn sets key on every line of a kind (NodeName, NodeSet,
// PartitionName...): the value of the key's pairs on the line (not the
// line's first, naming pair) is replaced, or the pair is added at its end.
// The naming key itself is not set (a line would get two names). It
// returns how many lines it changed.
func (d *Doc) SetOn(kind LineKind, key, value string) int {
	n := 0
	for i := range d.lines {
		l := &d.lines[i]
		if len(l.pairs) == 0 || KindOf(l.pairs[0].Key) != kind || strings.EqualFold(l.pairs[0].Key, key) {
			continue
		}
		found := false
		for j := 1; j < len(l.pairs); j++ {
			if strings.EqualFold(l.pairs[j].Key, key) {
				l.pairs[j] = Pair{Key: key, Value: value}
				found = true
			}
		}
		if !found {
			l.pairs = append(l.pairs, Pair{Key: key, Value: value})
		}
		l.dirty = true
		n++
	}
	return n
}

// Bytes writes the document: untouched lines as they were, edited lines
// from their pairs. It fails for a value FormatPair cannot write.
func (d *Doc) Bytes() ([]byte, error) {
	var b strings.Builder
	for _, l := range d.lines {
		if !l.dirty {
			b.WriteString(l.raw + "\n")
			continue
		}
		for j, p := range l.pairs {
			s, err := FormatPair(p.Key, p.Value)
			if err != nil {
				return nil, err
			}
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(s)
		}
		b.WriteByte('\n')
	}
	return []byte(b.String()), nil
}

// FormatPair writes Key=Value so that Slurm (and Parse) read back exactly
// that key and value: '#' and '\' are escaped with a backslash, and a value
// that is empty or holds white space is double-quoted. A key that is not a
// slurm.conf key, or a value Slurm's syntax cannot carry (a double quote,
// a line break or another control character), is an error. Unlike the
// renderer's tokens (SafeToken), any other value is written: this is for
// writing what a user wrote, such as the fidelity oracle's stand-in.
func FormatPair(key, value string) (string, error) {
	if !isKey(key) {
		return "", fmt.Errorf("%q is not a slurm.conf key", key)
	}
	var b strings.Builder
	quote := value == ""
	for i := 0; i < len(value); i++ {
		c := value[i]
		switch {
		case c == '"':
			return "", fmt.Errorf("%s: a slurm.conf value cannot hold a double quote: %q", key, value)
		case c == ' ' || c == '\t':
			quote = true
		case c < ' ' || c == 0x7f:
			return "", fmt.Errorf("%s: a slurm.conf value cannot hold a control character: %q", key, value)
		case c == '#' || c == '\\':
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	v := b.String()
	if quote {
		v = `"` + v + `"`
	}
	return key + "=" + v, nil
}
