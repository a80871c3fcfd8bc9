package discover

import (
	"bytes"
)

// PrefixSize is how much of a file LooksLikeSpec is given: the first 64 KiB.
// A spec's nodePools or orchestratorSpec key comes well before that (the
// generated 1000-pool spec of the benchmarks has it on its first lines).
const PrefixSize = 64 << 10

// markerKeys are the top-level keys that make a file a spec, normalised
// (lower case, without '_' and '-'): nodePools / node_pools and
// orchestratorSpec / orchestrator_spec. No other document people keep next
// to a spec (a workflow, a pre-commit config, Pulumi.yaml, a Kubernetes
// manifest, package.json) has either at its top level.
var markerKeys = []string{"nodepools", "orchestratorspec"}

// LooksLikeSpec reports whether prefix, the start of a JSON, YAML or CUE
// file, has the top-level shape of a ModelDevelopmentCluster: a top-level
// key nodePools or orchestratorSpec, in any spelling (camelCase,
// snake_case, any case, quoted or not). Top level means:
//
//   - when the document, after comments, YAML directives and a "---"
//     marker, opens with '{' (JSON, JSONC, YAML flow style, CUE in braces):
//     a key directly inside that outermost object;
//   - otherwise (YAML block style, CUE): a key that begins a line at
//     column 0, followed by ':'.
//
// It never parses: it is a cheap test over a bounded prefix, so a spec too
// broken to parse is still found (and then reported by lint), and a key
// nested in another document (a workflow's jobs.x.nodePools) is not taken
// for a spec.
func LooksLikeSpec(prefix []byte) bool {
	data := bytes.TrimPrefix(prefix, []byte("\xef\xbb\xbf"))
	i := skipPreamble(data)
	if i < len(data) && data[i] == '{' {
		return flowHasMarker(data[i:])
	}
	return blockHasMarker(data)
}

// skipPreamble returns the offset of the first byte that is not blank
// space, a comment (#, //, /* */), a YAML directive (%YAML) or a YAML
// document marker (---).
func skipPreamble(data []byte) int {
	i := 0
	for i < len(data) {
		switch c := data[i]; {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			i++
		case c == '#' || (c == '%' && atLineStart(data, i)) || bytes.HasPrefix(data[i:], []byte("//")):
			i = lineEnd(data, i)
		case bytes.HasPrefix(data[i:], []byte("/*")):
			end := bytes.Index(data[i+2:], []byte("*/"))
			if end < 0 {
				return len(data)
			}
			i += 2 + end + 2
		case bytes.HasPrefix(data[i:], []byte("---")) && atLineStart(data, i):
			i += 3
		default:
			return i
		}
	}
	return i
}

func atLineStart(data []byte, i int) bool { return i == 0 || data[i-1] == '\n' }

// lineEnd returns the offset of the '\n' ending the line holding i (or
// len(data)).
func lineEnd(data []byte, i int) int {
	if j := bytes.IndexByte(data[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(data)
}

// blockHasMarker looks for a marker key at the start of a line.
func blockHasMarker(data []byte) bool {
	for start := 0; start < len(data); {
		end := lineEnd(data, start)
		if key, rest, ok := leadingKey(data[start:end]); ok && isMarker(key) {
			if rest = bytes.TrimLeft(rest, " \t"); len(rest) > 0 && rest[0] == ':' {
				return true
			}
		}
		start = end + 1
	}
	return false
}

// flowHasMarker scans an object that starts at data[0] == '{' and looks
// for a marker key at depth one: a string or bare word followed by ':'.
// It skips strings ("…" and '…') and comments (//, /* */, and # after
// blank space) so that brackets and keys inside them do not count.
func flowHasMarker(data []byte) bool {
	depth := 0
	for i := 0; i < len(data); {
		c := data[i]
		switch {
		case c == '{' || c == '[':
			depth++
			i++
		case c == '}' || c == ']':
			depth--
			if depth <= 0 {
				return false // the outermost object ended
			}
			i++
		case c == '/' && i+1 < len(data) && data[i+1] == '/',
			c == '#' && (i == 0 || isBlank(data[i-1])):
			i = lineEnd(data, i)
		case c == '/' && i+1 < len(data) && data[i+1] == '*':
			end := bytes.Index(data[i+2:], []byte("*/"))
			if end < 0 {
				return false
			}
			i += 2 + end + 2
		case c == '"' || c == '\'':
			end := stringEnd(data, i)
			if depth == 1 && isMarker(data[i+1:min(end, len(data))]) && colonFollows(data, end+1) {
				return true
			}
			i = end + 1
		case isWordByte(c):
			j := i
			for j < len(data) && isWordByte(data[j]) {
				j++
			}
			if depth == 1 && isMarker(data[i:j]) && colonFollows(data, j) {
				return true
			}
			i = j
		default:
			i++
		}
	}
	return false
}

// stringEnd returns the offset of the quote closing the string that opens
// at data[i] (len(data) when it is not closed). A double-quoted string
// has backslash escapes; a single-quoted one (YAML) doubles its quote.
func stringEnd(data []byte, i int) int {
	q := data[i]
	for j := i + 1; j < len(data); j++ {
		switch {
		case q == '"' && data[j] == '\\':
			j++
		case data[j] == q && q == '\'' && j+1 < len(data) && data[j+1] == '\'':
			j++
		case data[j] == q:
			return j
		}
	}
	return len(data)
}

// colonFollows reports whether data[i:] starts with ':' after blank space.
func colonFollows(data []byte, i int) bool {
	for i < len(data) && isBlank(data[i]) {
		i++
	}
	return i < len(data) && data[i] == ':'
}

// leadingKey returns the key that begins a line at column 0, quoted or
// not, and what follows it.
func leadingKey(line []byte) (key, rest []byte, ok bool) {
	if len(line) == 0 {
		return nil, nil, false
	}
	if q := line[0]; q == '"' || q == '\'' {
		end := bytes.IndexByte(line[1:], q)
		if end < 0 {
			return nil, nil, false
		}
		return line[1 : 1+end], line[2+end:], true
	}
	j := 0
	for j < len(line) && isWordByte(line[j]) {
		j++
	}
	return line[:j], line[j:], j > 0
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func isWordByte(c byte) bool {
	return c == '_' || c == '-' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// isMarker reports whether key is nodePools or orchestratorSpec in some
// spelling. It allocates nothing: it runs on every key of every file a
// walk looks at.
func isMarker(key []byte) bool {
	var buf [32]byte
	n := 0
	for i := 0; i < len(key); i++ {
		c := key[i]
		switch {
		case c == '_' || c == '-':
			continue
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		}
		if n == len(buf) {
			return false
		}
		buf[n] = c
		n++
	}
	for _, m := range markerKeys {
		if string(buf[:n]) == m {
			return true
		}
	}
	return false
}
