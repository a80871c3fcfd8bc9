package slurmconf

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
)

// Pair is one Key=Value token.
type Pair struct {
	Key, Value string
}

// Line is one configuration line: its 1-based number and its pairs. The
// first pair of a NodeName, NodeSet or PartitionName line names it.
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

// Get returns the value of a key on the line (case-insensitive).
func (l Line) Get(key string) (string, bool) {
	for _, p := range l.Pairs {
		if strings.EqualFold(p.Key, key) {
			return p.Value, true
		}
	}
	return "", false
}

// File is a parsed slurm.conf.
type File struct {
	// Global holds the one-pair lines, in order.
	Global     []Pair
	Nodes      []Line
	NodeSets   []Line
	Partitions []Line
	// Other holds the remaining multi-pair lines (DownNodes, FrontendName ...).
	Other []Line
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

// Parse reads slurm.conf syntax: '#' starts a comment (unless escaped as
// \#), a line is white-space separated Key=Value tokens, and values may be
// double-quoted. Include lines and line continuations are rejected: files
// slurmspec renders never contain them.
func Parse(data []byte) (*File, error) {
	f := &File{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	num := 0
	for sc.Scan() {
		num++
		text := stripComment(sc.Text())
		text = strings.TrimSpace(text)
		if text == "" {
			continue
		}
		if strings.HasSuffix(text, "\\") {
			return nil, fmt.Errorf("line %d: line continuation is not supported", num)
		}
		toks, err := tokens(text)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", num, err)
		}
		var pairs []Pair
		for _, t := range toks {
			k, v, ok := strings.Cut(t, "=")
			if !ok || k == "" {
				if strings.EqualFold(t, "include") || strings.HasPrefix(strings.ToLower(t), "include") {
					return nil, fmt.Errorf("line %d: include directives are not supported", num)
				}
				return nil, fmt.Errorf("line %d: %q is not a Key=Value pair", num, t)
			}
			if !isKey(k) {
				return nil, fmt.Errorf("line %d: %q is not a slurm.conf key", num, k)
			}
			pairs = append(pairs, Pair{k, unquote(v)})
		}
		line := Line{Num: num, Pairs: pairs}
		switch strings.ToLower(pairs[0].Key) {
		case "nodename":
			f.Nodes = append(f.Nodes, line)
		case "nodeset":
			f.NodeSets = append(f.NodeSets, line)
		case "partitionname":
			f.Partitions = append(f.Partitions, line)
		case "downnodes", "frontendname", "poweraction":
			f.Other = append(f.Other, line)
		default:
			if len(pairs) > 1 {
				return nil, fmt.Errorf("line %d: more than one Key=Value pair on a global line", num)
			}
			f.Global = append(f.Global, pairs[0])
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading slurm.conf: %w", err)
	}
	return f, nil
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

func stripComment(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '#' && (i == 0 || s[i-1] != '\\') {
			return s[:i]
		}
	}
	return s
}

// tokens splits a line at white space outside double quotes.
func tokens(s string) ([]string, error) {
	var out []string
	var cur strings.Builder
	inQuote := false
	for _, r := range s {
		switch {
		case r == '"':
			inQuote = !inQuote
			cur.WriteRune(r)
		case !inQuote && (r == ' ' || r == '\t'):
			if cur.Len() > 0 {
				out = append(out, cur.String())
				cur.Reset()
			}
		default:
			cur.WriteRune(r)
		}
	}
	if inQuote {
		return nil, fmt.Errorf("unterminated quote")
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out, nil
}

func unquote(v string) string {
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		return v[1 : len(v)-1]
	}
	return v
}
