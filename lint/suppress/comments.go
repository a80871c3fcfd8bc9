package suppress

import (
	"bytes"
	"strings"

	"cuelang.org/go/cue/scanner"
	"cuelang.org/go/cue/token"
	"go.yaml.in/yaml/v3"

	"github.com/slurmspec/slurmspec/compiler/load"
)

// comment is one comment of a spec that starts with the marker.
type comment struct {
	// off is the byte offset of the comment's opening (#, // or /*).
	off int
	// text is the comment's content without its delimiters: src[start:end]
	// (offsets, not a copy: a hostile file may hold a million comments).
	start, end int
	// line and endLine are the comment's first and last lines (1-based).
	line, endLine int
	// trailing: code comes before the comment on its line.
	trailing bool
}

// source is what the scanners find in a spec: the marker comments and
// which lines hold code.
type source struct {
	comments []comment
	// code[i] reports whether line i (1-based) holds something that is
	// not white space or a comment.
	code []bool
	// next[i] is the first line at or after line i with code (0: none);
	// target builds it on first use.
	next []int32
}

// target returns the line a comment applies to: its own line when it
// trails code; else the line where code follows the comment, or the next
// line with code (0 when none follows).
func (s *source) target(c comment) int {
	if c.trailing {
		return c.line
	}
	if c.endLine < len(s.code) && s.code[c.endLine] && c.endLine > c.line {
		return c.endLine
	}
	if c.endLine+1 >= len(s.code) {
		return 0
	}
	if s.next == nil {
		// Built once, so that thousands of stacked comments do not each
		// walk the lines after them.
		s.next = make([]int32, len(s.code)+1)
		for l := len(s.code) - 1; l >= 1; l-- {
			if s.code[l] {
				s.next[l] = int32(l)
			} else {
				s.next[l] = s.next[l+1]
			}
		}
	}
	return int(s.next[c.endLine+1])
}

// scan finds the comments of src that start with the marker, in source
// order, for the spec's format. It is linear in the size of src; the
// caller checks first that the marker occurs at all.
func scan(format load.Format, src []byte) source {
	switch format {
	case load.FormatYAML:
		return scanYAML(src)
	case load.FormatCUE:
		return scanCUE(src)
	}
	return scanJSON(src)
}

// add records a directive comment; past MaxDirectives+1 only the count
// matters (parse reports the first one too many), so exact scanners stop
// recording.
func (s *source) add(c comment) {
	if len(s.comments) <= MaxDirectives {
		s.comments = append(s.comments, c)
	}
}

// hasMarker reports whether a comment's text is a directive: "slurmspec:"
// directly followed by a letter, as in "slurmspec:ignore". Prose such as
// "# slurmspec: the cluster's spec" is not one.
func hasMarker(text []byte) bool {
	rest, ok := bytes.CutPrefix(bytes.TrimLeft(text, " \t"), []byte(marker))
	return ok && len(rest) > 0 && (rest[0] >= 'a' && rest[0] <= 'z' || rest[0] >= 'A' && rest[0] <= 'Z')
}

// scanJSON scans JSON with // and /* */ comments. JSON strings are the
// only other construct that can hold a comment opener.
func scanJSON(src []byte) source {
	s := source{code: make([]bool, bytes.Count(src, []byte{'\n'})+2)}
	line := 1
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\n':
			line++
		case c == ' ' || c == '\t' || c == '\r':
		case c == '"':
			s.code[line] = true
			for i++; i < len(src) && src[i] != '"' && src[i] != '\n'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
			if i < len(src) && src[i] == '\n' {
				line++ // an unterminated string: the parser has reported it
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			end := bytes.IndexByte(src[i:], '\n')
			if end < 0 {
				end = len(src) - i
			}
			if hasMarker(src[i+2 : i+end]) {
				s.add(comment{off: i, start: i + 2, end: i + end, line: line, endLine: line, trailing: s.code[line]})
			}
			i += end - 1
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := bytes.Index(src[i+2:], []byte("*/"))
			if end < 0 {
				end = len(src) - i - 2
			}
			body := src[i+2 : i+2+end]
			first := line
			line += bytes.Count(body, []byte{'\n'})
			if hasMarker(body) {
				s.add(comment{off: i, start: i + 2, end: i + 2 + end, line: first, endLine: line, trailing: s.code[first]})
			}
			i += 2 + end + 1
		default:
			s.code[line] = true
		}
	}
	return s
}

// scanCUE scans CUE with its own scanner, which knows CUE's strings and
// comments exactly. The scanner leaves string interpolations to its
// caller: after the ')' that closes "\(", the rest of the string is
// scanned with ResumeInterpolation, as CUE's parser does.
func scanCUE(src []byte) (s source) {
	s.code = make([]bool, bytes.Count(src, []byte{'\n'})+2)
	defer func() {
		if recover() != nil {
			s.comments = nil // the document parsed, so this is a scanner bug: no directives
		}
	}()
	var sc scanner.Scanner
	f := token.NewFile("", 0, len(src))
	sc.Init(f, src, nil, scanner.ScanComments|scanner.DontInsertCommas)
	mark := func(line int, lit string) {
		last := min(line+strings.Count(lit, "\n"), len(s.code)-1)
		for l := max(line, 1); l <= last; l++ {
			s.code[l] = true
		}
	}
	var parens []int // per open interpolation, the depth of its parentheses
	for {
		pos, tok, lit := sc.Scan()
		if tok == token.EOF {
			break
		}
		line := pos.Line()
		if line <= 0 || line >= len(s.code) {
			continue
		}
		switch tok {
		case token.COMMENT:
			if off := pos.Offset(); strings.HasPrefix(lit, "//") && off+len(lit) <= len(src) && hasMarker(src[off+2:off+len(lit)]) {
				s.add(comment{off: off, start: off + 2, end: off + len(lit), line: line, endLine: line, trailing: s.code[line]})
			}
			continue
		case token.INTERPOLATION:
			parens = append(parens, 0)
		case token.LPAREN:
			if len(parens) > 0 {
				parens[len(parens)-1]++
			}
		case token.RPAREN:
			if len(parens) > 0 {
				if parens[len(parens)-1]--; parens[len(parens)-1] == 0 {
					rest := sc.ResumeInterpolation()
					mark(line, rest)
					if !strings.HasSuffix(rest, "(") {
						parens = parens[:len(parens)-1]
					}
				}
			}
		}
		mark(line, lit) // a multi-line string holds code on each of its lines
	}
	return s
}

// scanYAML scans YAML. A '#' at the start of a line or after white space
// opens a comment unless it is inside a quoted or block scalar; rather
// than re-implement YAML's scalars, a candidate counts only when the YAML
// parser reports the same text as a comment.
func scanYAML(src []byte) source {
	s := source{code: make([]bool, bytes.Count(src, []byte{'\n'})+2)}
	var cand []comment
	off := 0
	for line := 1; off <= len(src) && line < len(s.code); line++ {
		end := bytes.IndexByte(src[off:], '\n')
		if end < 0 {
			end = len(src) - off
		}
		text := src[off : off+end]
		trimmed := bytes.TrimLeft(text, " \t")
		if len(bytes.TrimSpace(trimmed)) > 0 && trimmed[0] != '#' {
			s.code[line] = true
		}
		for j := 0; j < len(text); j++ {
			if text[j] != '#' || j > 0 && text[j-1] != ' ' && text[j-1] != '\t' {
				continue
			}
			if body := bytes.TrimRight(text[j+1:], " \t\r"); hasMarker(body) {
				cand = append(cand, comment{off: off + j, start: off + j + 1, end: off + j + 1 + len(body), line: line, endLine: line, trailing: j > len(text)-len(trimmed)})
				break
			}
		}
		off += end + 1
	}
	if len(cand) == 0 {
		return s
	}
	real := yamlComments(src)
	for _, c := range cand {
		if real[string(src[c.start:c.end])] {
			s.add(c)
		}
	}
	return s
}

// yamlComments returns the set of comment lines the YAML parser keeps
// (each line of a head, line or foot comment, white space trimmed, without
// its '#').
func yamlComments(src []byte) map[string]bool {
	set := map[string]bool{}
	var n yaml.Node
	if err := yaml.Unmarshal(src, &n); err != nil {
		return set
	}
	var walk func(*yaml.Node)
	walk = func(n *yaml.Node) {
		for _, c := range []string{n.HeadComment, n.LineComment, n.FootComment} {
			for _, l := range strings.Split(c, "\n") {
				if l, ok := strings.CutPrefix(strings.TrimSpace(l), "#"); ok {
					set[l] = true
				}
			}
		}
		for _, k := range n.Content {
			walk(k)
		}
	}
	walk(&n)
	return set
}
