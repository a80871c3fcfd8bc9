package load

import "bytes"

// looksLikeJSON reports whether standard input holds JSON (with comments:
// JSONC): after an optional UTF-8 byte order mark, white space and
// comments (// to the end of the line, /* ... */), its first character
// opens an object. Only the leading comments are scanned, so the cost is
// bounded by the input's size and is linear.
func looksLikeJSON(data []byte) bool {
	rest := bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	for {
		rest = bytes.TrimLeft(rest, " \t\r\n")
		switch {
		case bytes.HasPrefix(rest, []byte("//")):
			i := bytes.IndexByte(rest, '\n')
			if i < 0 {
				return false
			}
			rest = rest[i+1:]
		case bytes.HasPrefix(rest, []byte("/*")):
			i := bytes.Index(rest[2:], []byte("*/"))
			if i < 0 {
				return false
			}
			rest = rest[2+i+2:]
		default:
			return len(rest) > 0 && rest[0] == '{'
		}
	}
}
