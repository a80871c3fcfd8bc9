package slurmconf

import (
	"fmt"
	"strings"
)

// Pair is one Key=Value token.
type Pair struct {
	Key, Value string
}

// Line is one configuration line: its 1-based number (the first physical
// line of a continued line) and its pairs. The first pair of a NodeName,
// NodeSet or PartitionName line names it.
type Line struct {
	Num   int
	Pairs []Pair
}

// Name returns the value of the line's first pair.
func (l Line) Name() string {
	if len(l.Pairs) == 0 {
		return ""
	}
	return l.Pairs[0].Value
}

// Get returns the value of a key on the line (case-insensitive); a key
// given twice on one line takes its last value, as in Slurm.
func (l Line) Get(key string) (string, bool) {
	v, ok := "", false
	for _, p := range l.Pairs {
		if strings.EqualFold(p.Key, key) {
			v, ok = p.Value, true
		}
	}
	return v, ok
}

// Include is an Include directive: slurm.conf pulls in another file there.
type Include struct {
	Num  int
	Path string
	// Followed is set when ParseIncluding read the file; Err says why it
	// did not.
	Followed bool
	Err      error
}

// File is a parsed slurm.conf.
type File struct {
	// Global holds the one-pair lines, in order, and GlobalLines their
	// line numbers.
	Global      []Pair
	GlobalLines []int
	Nodes       []Line
	NodeSets    []Line
	Partitions  []Line
	// Other holds the remaining multi-pair lines (DownNodes, FrontendName,
	// PowerAction).
	Other []Line
	// Includes lists the Include directives; Parse does not follow them,
	// ParseIncluding does.
	Includes []Include
	// Files names the included files followed, in order (see LineStride).
	Files []string
}

// GetGlobal returns the last value given for a global key
// (case-insensitive), as Slurm uses the last one.
func (f *File) GetGlobal(key string) (string, bool) {
	v, ok := "", false
	for _, p := range f.Global {
		if strings.EqualFold(p.Key, key) {
			v, ok = p.Value, true
		}
	}
	return v, ok
}

// GlobalLine returns the line of the last global setting of key, or 0.
func (f *File) GlobalLine(key string) int {
	line := 0
	for i, p := range f.Global {
		if strings.EqualFold(p.Key, key) {
			line = f.GlobalLines[i]
		}
	}
	return line
}

// LineKind says how Slurm reads a line by its first key.
type LineKind int

// The kinds of slurm.conf lines.
const (
	KindGlobal LineKind = iota
	KindNode
	KindNodeSet
	KindPartition
	KindOther
)

// KindOf returns the kind of a line whose first key is key.
func KindOf(key string) LineKind {
	switch strings.ToLower(key) {
	case "nodename":
		return KindNode
	case "nodeset":
		return KindNodeSet
	case "partitionname":
		return KindPartition
	case "downnodes", "frontendname", "poweraction":
		return KindOther
	}
	return KindGlobal
}

// Parse reads slurm.conf as Slurm's parser does (src/common/parse_config.c):
// a '#' not escaped by a backslash starts a comment; an odd number of
// backslashes at the end of a line (trailing white space aside) continues
// it on the next line; backslash escapes are then removed ("\#" is "#");
// a line is Key=Value tokens with optional white space around '=', and a
// value is either double-quoted (and may hold white space) or runs to the
// next white space. Include directives are listed, not followed. A global
// key takes one line of its own.
func Parse(data []byte) (*File, error) {
	return ParseIncluding(data, nil)
}

// LineStride separates the line numbers of included files: line n of the
// k-th file ParseIncluding followed (k from 1) is numbered k*LineStride+n.
const LineStride = 1 << 24

// Include limits: how deep includes nest and how many files are followed.
const (
	maxIncludeDepth = 8
	maxIncludes     = 64
)

// ParseIncluding is Parse that follows Include directives through read,
// which returns an included file's text for the path as written, or an
// error (the directive then stays in Includes with that error, unfollowed;
// nil read follows nothing). Included lines take their place in the file,
// as Slurm reads them, numbered as LineStride says; File.Files names the
// files followed.
func ParseIncluding(data []byte, read func(path string) ([]byte, error)) (*File, error) {
	f := &File{}
	if err := f.add(data, 0, 0, read); err != nil {
		return nil, err
	}
	return f, nil
}

// Where names a line of the file or of a file it includes: "line 12", or
// "nodes.conf line 3".
func (f *File) Where(num int) string {
	if k := num / LineStride; k > 0 && k <= len(f.Files) {
		return fmt.Sprintf("%s line %d", f.Files[k-1], num%LineStride)
	}
	return fmt.Sprintf("line %d", num)
}

func (f *File) add(data []byte, file, depth int, read func(string) ([]byte, error)) error {
	base := file * LineStride
	for _, ll := range SplitLines(data) {
		num := base + ll.Num
		if path, ok := IncludeDirective(ll.Text); ok {
			inc := Include{Num: num, Path: path}
			if read != nil {
				inc.Err = f.follow(path, depth, read)
				inc.Followed = inc.Err == nil
			}
			f.Includes = append(f.Includes, inc)
			continue
		}
		pairs, err := ParsePairs(ll.Text)
		if err != nil {
			return fmt.Errorf("%s: %w", f.Where(num), err)
		}
		if len(pairs) == 0 {
			continue
		}
		line := Line{Num: num, Pairs: pairs}
		switch KindOf(pairs[0].Key) {
		case KindNode:
			f.Nodes = append(f.Nodes, line)
		case KindNodeSet:
			f.NodeSets = append(f.NodeSets, line)
		case KindPartition:
			f.Partitions = append(f.Partitions, line)
		case KindOther:
			f.Other = append(f.Other, line)
		default:
			if len(pairs) > 1 {
				return fmt.Errorf("%s: more than one Key=Value pair on a global line (%s=%s ...); Slurm reads one setting per line", f.Where(num), pairs[0].Key, pairs[0].Value)
			}
			f.Global = append(f.Global, pairs[0])
			f.GlobalLines = append(f.GlobalLines, num)
		}
	}
	return nil
}

// follow reads and adds an included file.
func (f *File) follow(path string, depth int, read func(string) ([]byte, error)) error {
	if depth >= maxIncludeDepth || len(f.Files) >= maxIncludes {
		return fmt.Errorf("more than %d nested or %d included files", maxIncludeDepth, maxIncludes)
	}
	data, err := read(path)
	if err != nil {
		return err
	}
	f.Files = append(f.Files, path)
	return f.add(data, len(f.Files), depth+1, read)
}

// IncludeDirective recognises "Include PATH" in a logical line's Text (the
// directive is case-insensitive and must be followed by white space).
func IncludeDirective(text string) (path string, ok bool) {
	t := strings.TrimLeft(text, " \t")
	if len(t) < 8 || !strings.EqualFold(t[:7], "include") || !isSpace(t[7]) {
		return "", false
	}
	fields := strings.Fields(t[7:])
	if len(fields) == 0 {
		return "", true
	}
	return fields[0], true
}

// LogicalLine is one line as Slurm reads it.
type LogicalLine struct {
	// Num is the 1-based number of its first physical line; Count is the
	// number of physical lines it spans (more than 1 when continued).
	Num, Count int
	// Raw is the text as written: its physical lines joined by "\n",
	// comments included, line ends ("\r\n" or "\n") dropped.
	Raw string
	// Text has comments stripped, continuations joined and backslash
	// escapes removed: what the key/value parser sees.
	Text string
}

// SplitLines splits slurm.conf text into logical lines (see Parse).
// Blank and comment-only lines are kept, with an empty Text.
func SplitLines(data []byte) []LogicalLine {
	physical := strings.Split(string(data), "\n")
	if len(physical) > 0 && physical[len(physical)-1] == "" {
		physical = physical[:len(physical)-1]
	}
	var out []LogicalLine
	var raw []string
	var text strings.Builder
	start := 0
	for i, p := range physical {
		p = strings.TrimSuffix(p, "\r")
		if len(raw) == 0 {
			start = i
		}
		raw = append(raw, p)
		stripped := StripComment(p)
		if cut, ok := continuation(stripped); ok && i < len(physical)-1 {
			text.WriteString(cut)
			continue
		} else if ok {
			stripped = cut // a continuation on the last line continues into nothing
		}
		text.WriteString(stripped)
		out = append(out, LogicalLine{Num: start + 1, Count: len(raw), Raw: strings.Join(raw, "\n"), Text: Unescape(text.String())})
		raw = nil
		text.Reset()
	}
	return out
}

// StripComment drops a comment: everything from the first '#' preceded by
// an even number of backslashes.
func StripComment(s string) string {
	bs := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '#':
			if bs%2 == 0 {
				return s[:i]
			}
			bs = 0
		case '\\':
			bs++
		default:
			bs = 0
		}
	}
	return s
}

// continuation reports whether s ends (white space aside) in an odd number
// of backslashes, and returns s up to the last of them.
func continuation(s string) (string, bool) {
	end := len(s)
	for end > 0 && isSpace(s[end-1]) {
		end--
	}
	bs := 0
	for end-bs > 0 && s[end-bs-1] == '\\' {
		bs++
	}
	if bs%2 == 0 {
		return s, false
	}
	return s[:end-1], true
}

// Unescape removes backslash escapes: "\x" becomes "x", "\\" becomes "\".
func Unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			if i == len(s) {
				break
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'
}

// ParsePairs splits one logical line (comments stripped) into Key=Value
// pairs the way Slurm's key/value expression does: optional white space
// around '=', a double-quoted value (quotes removed) or a run of
// non-space characters. Keys are ASCII letters and digits starting with a
// letter; Slurm's "+=" style operators are refused.
func ParsePairs(s string) ([]Pair, error) {
	var out []Pair
	i := 0
	for {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		if i == len(s) {
			return out, nil
		}
		k := i
		for i < len(s) && isKeyByte(s[i]) {
			i++
		}
		key := s[k:i]
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		if key != "" && i < len(s) && strings.IndexByte("-*+/", s[i]) >= 0 && i+1 < len(s) && s[i+1] == '=' {
			return nil, fmt.Errorf("%s%c=: operators other than '=' are not supported", key, s[i])
		}
		if key == "" || i == len(s) || s[i] != '=' {
			rest := strings.TrimSpace(s[k:])
			if f := strings.Fields(rest); len(f) > 0 {
				rest = f[0]
			}
			return nil, fmt.Errorf("%q is not a Key=Value pair", rest)
		}
		i++
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		if i == len(s) {
			return nil, fmt.Errorf("%s= has no value", key)
		}
		value, quoted := "", false
		if s[i] == '"' {
			if end := strings.IndexByte(s[i+1:], '"'); end >= 0 && (i+end+2 == len(s) || isSpace(s[i+end+2])) {
				value, quoted = s[i+1:i+1+end], true
				i += end + 2
			}
		}
		if !quoted {
			v := i
			for i < len(s) && !isSpace(s[i]) {
				i++
			}
			value = s[v:i]
			if strings.ContainsRune(value, '"') {
				return nil, fmt.Errorf("%s=%s: unbalanced or misplaced quote", key, value)
			}
		}
		if !isKey(key) {
			return nil, fmt.Errorf("%q is not a slurm.conf key", key)
		}
		out = append(out, Pair{Key: key, Value: value})
	}
}

// isKeyByte reports whether c may appear in a key as Slurm's expression
// reads it (letters, digits, '_' and '.').
func isKeyByte(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '.'
}

// isKey reports whether k is a slurm.conf key: ASCII letters and digits,
// starting with a letter.
func isKey(k string) bool {
	for i, r := range k {
		if !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return k != ""
}
