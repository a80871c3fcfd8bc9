package load

import "go.yaml.in/yaml/v3"

// go-yaml records where a node starts, not where it ends. The functions
// here find the end in the source, from the node's start, its style and its
// value: the loader gives every value a range.

// yamlScalarEnd returns the byte offset just after the scalar or alias y
// that starts at off (at its anchor or tag, if it has one), or -1 if the
// source does not hold it there.
func yamlScalarEnd(data []byte, off int, y *yaml.Node) int {
	if off < 0 || off > len(data) {
		return -1
	}
	if y.Kind == yaml.AliasNode {
		if end := off + 1 + len(y.Value); off < len(data) && data[off] == '*' && end <= len(data) && string(data[off+1:end]) == y.Value {
			return end
		}
		return -1
	}
	off = skipProperties(data, off)
	switch {
	case y.Style&yaml.DoubleQuotedStyle != 0:
		return quotedEnd(data, off, '"')
	case y.Style&yaml.SingleQuotedStyle != 0:
		return quotedEnd(data, off, '\'')
	case y.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		return blockEnd(data, off, y.Value)
	}
	return plainEnd(data, off, y.Value)
}

// skipProperties skips a node's anchor (&a) and tag (!!str), in either
// order, and the white space after each.
func skipProperties(data []byte, off int) int {
	for off < len(data) && (data[off] == '&' || data[off] == '!') {
		for off < len(data) && !isYAMLSpace(data[off]) {
			off++
		}
		for off < len(data) && isYAMLSpace(data[off]) {
			off++
		}
	}
	return off
}

func isYAMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// quotedEnd returns the offset after the closing quote of a quoted scalar
// that opens at off. In a double-quoted scalar a backslash escapes the next
// character; in a single-quoted one a quote is escaped by doubling it.
func quotedEnd(data []byte, off int, quote byte) int {
	if off >= len(data) || data[off] != quote {
		return -1
	}
	for j := off + 1; j < len(data); j++ {
		switch {
		case quote == '"' && data[j] == '\\':
			j++
		case data[j] == quote && quote == '\'' && j+1 < len(data) && data[j+1] == '\'':
			j++
		case data[j] == quote:
			return j + 1
		}
	}
	return -1
}

// plainEnd matches the value of a plain scalar against the source from
// off: a plain scalar has no escapes, and folding only turns a run of
// white space and line breaks into one space or line break.
func plainEnd(data []byte, off int, val string) int {
	i, j := 0, off
	for i < len(val) {
		if j >= len(data) {
			return -1
		}
		if (val[i] == ' ' || val[i] == '\n') && isYAMLSpace(data[j]) {
			for i < len(val) && (val[i] == ' ' || val[i] == '\n') {
				i++
			}
			for j < len(data) && isYAMLSpace(data[j]) {
				j++
			}
			continue
		}
		if data[j] != val[i] {
			return -1
		}
		i, j = i+1, j+1
	}
	return j
}

// blockEnd returns the end of a literal (|) or folded (>) block scalar
// whose header starts at off: the end of its last line with text. Its
// lines are those indented at least as much as its first line with text;
// the first less indented line with text ends it.
func blockEnd(data []byte, off int, val string) int {
	if off >= len(data) || data[off] != '|' && data[off] != '>' {
		return -1
	}
	end := off
	for end < len(data) && !isYAMLSpace(data[end]) {
		end++ // the header: |, >, and its chomping and indentation indicators
	}
	empty := true
	for i := 0; i < len(val); i++ {
		if val[i] != '\n' {
			empty = false
			break
		}
	}
	if empty {
		return end
	}
	j := end
	for j < len(data) && data[j] != '\n' {
		j++ // the rest of the header line: a comment
	}
	indent := -1
	for j < len(data) {
		line := j + 1
		k := line
		for k < len(data) && data[k] == ' ' {
			k++
		}
		eol := k
		for eol < len(data) && data[eol] != '\n' {
			eol++
		}
		text := eol
		for text > k && (data[text-1] == '\r' || data[text-1] == ' ' || data[text-1] == '\t') {
			text--
		}
		if text > k { // a line with text
			if indent < 0 {
				indent = k - line
			}
			if k-line < indent {
				break
			}
			end = text
		}
		j = eol
	}
	return end
}

// flowEnd returns the offset after the bracket that closes a flow
// collection opening at start, whose last entry ends at last (-1 for an
// empty collection): only white space, commas, colons and comments may
// come between.
func flowEnd(data []byte, start, last int) int {
	if start >= 0 {
		start = skipProperties(data, start)
	}
	if start < 0 || start >= len(data) || data[start] != '[' && data[start] != '{' {
		return last
	}
	closing := byte(']')
	if data[start] == '{' {
		closing = '}'
	}
	j := max(last, start+1)
	for j < len(data) {
		switch c := data[j]; {
		case c == closing:
			return j + 1
		case isYAMLSpace(c) || c == ',' || c == ':':
			j++
		case c == '#':
			for j < len(data) && data[j] != '\n' {
				j++
			}
		default:
			return last
		}
	}
	return last
}
