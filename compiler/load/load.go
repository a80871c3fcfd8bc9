// Package load reads a cluster spec from JSON (with // and /* */ comments),
// YAML or CUE into a tree of Nodes in which every value keeps its
// file:line:col. Field names are normalised once, here: the API's snake_case
// spelling becomes camelCase, so nothing downstream sees two spellings.
//
// The loader never stops at the first problem it can recover from: duplicate
// keys and fields given in both spellings are all reported in one run.
package load

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// Format is the syntax of a spec file.
type Format int

// Supported formats.
const (
	FormatAuto Format = iota // choose by file extension
	FormatJSON               // JSON, with // and /* */ comments and trailing commas
	FormatYAML
	FormatCUE
)

// String returns the name used by --input-format.
func (f Format) String() string {
	return [...]string{"auto", "json", "yaml", "cue"}[f]
}

// ParseFormat is the inverse of Format.String.
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(s) {
	case "", "auto":
		return FormatAuto, nil
	case "json", "jsonc":
		return FormatJSON, nil
	case "yaml", "yml":
		return FormatYAML, nil
	case "cue":
		return FormatCUE, nil
	}
	return FormatAuto, fmt.Errorf("unknown input format %q (want json, yaml or cue)", s)
}

// Extensions lists the file extensions recognised as specs, by format.
var extensions = map[string]Format{
	".json":  FormatJSON,
	".jsonc": FormatJSON,
	".yaml":  FormatYAML,
	".yml":   FormatYAML,
	".cue":   FormatCUE,
}

// FormatOf returns the format implied by a file name's extension.
func FormatOf(name string) (Format, bool) {
	f, ok := extensions[strings.ToLower(filepath.Ext(name))]
	return f, ok
}

// IsSpecFile reports whether a file name has a spec extension.
func IsSpecFile(name string) bool {
	_, ok := FormatOf(name)
	return ok
}

// Options control loading.
type Options struct {
	// Format overrides the format chosen by extension; it is required for
	// standard input unless the input starts with '{' (JSON).
	Format Format
	// Verbatim reports whether the keys of the object at the given path are
	// data (slurm.conf keys, labels) that must be kept exactly as written.
	// The schema package provides it; nil means every object is a record.
	// It must not keep the Path it is given: the loader reuses its array.
	Verbatim func(Path) bool
	// Strings reports whether the free-form map at the given path holds
	// strings (slurm.conf config, labels: map<string,string> in the API).
	// In YAML and CUE, where a number or a boolean has one meaning, such a
	// value written unquoted is read as the string the API takes: 10 as
	// "10", true as "true" (see stringify). JSON is the API's own
	// encoding, which refuses a number where it takes a string, so a JSON
	// spec's numbers stay numbers and the schema reports them. nil means
	// no map holds strings. Like Verbatim, it must not keep the Path.
	Strings func(Path) bool
	// Stdin is read when the file name is "-".
	Stdin io.Reader
	// CUE is the budget of CUE evaluation of the process, shared by every
	// spec it loads (NewCUEGate); nil: a budget for this call alone.
	CUE *CUEGate
	// Kind names what the file is in the loader's messages ("spec is
	// empty", "accounting file is empty"); "" is "spec".
	Kind string
}

// kind is the file's name in messages: Kind, or "spec".
func (o Options) kind() string {
	if o.Kind == "" {
		return "spec"
	}
	return o.Kind
}

// Document is a loaded spec.
type Document struct {
	// File is the name used in positions ("<stdin>" for standard input).
	File   string
	Format Format
	// Source is the file's content.
	Source []byte
	Root   *Node
}

// Rule ids of the loader's diagnostics.
const (
	RuleIO           = "load-io"
	RuleSyntax       = "load-syntax"
	RuleEncoding     = "load-encoding"
	RuleLimit        = "load-limit"
	RuleDuplicateKey = "duplicate-key"
	RuleBothSpelling = "both-spellings"
)

// File reads and loads the named file ("-" for standard input).
func File(name string, opt Options) (*Document, diag.List) {
	var (
		data []byte
		err  error
		pos  = diag.Pos{File: name}
	)
	if name == "-" {
		pos.File = "<stdin>"
		if opt.Stdin == nil {
			opt.Stdin = os.Stdin
		}
		data, err = io.ReadAll(io.LimitReader(opt.Stdin, MaxFileSize+1))
	} else {
		data, err = readFile(name)
	}
	if err != nil {
		var l diag.List
		l.Errorf(RuleIO, pos, "", "check the path and its permissions", "cannot read %s: %v", opt.kind(), err)
		return nil, l
	}
	return Bytes(pos.File, data, opt)
}

// readFile reads a spec file. Only regular files are read: a FIFO would
// block forever and a device (/dev/zero) never ends. The file is opened
// without blocking so that opening a FIFO cannot hang either, and the
// read is bounded whatever the file claims its size is.
func readFile(name string) ([]byte, error) {
	f, err := openRegular(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, MaxFileSize+1))
}

// Bytes loads a spec from memory. name is used in positions and, unless
// opt.Format is set, to choose the format. The document is nil when the
// input was refused before parsing; its Root is nil when parsing failed.
func Bytes(name string, data []byte, opt Options) (*Document, diag.List) {
	var l diag.List
	filePos := diag.Pos{File: name, Line: 1, Col: 1}
	format := opt.Format
	if format == FormatAuto {
		var ok bool
		if format, ok = FormatOf(name); !ok {
			if name == "<stdin>" && looksLikeJSON(data) {
				format = FormatJSON
			} else {
				l.Errorf(RuleIO, diag.Pos{File: name}, "", "name the file .json, .jsonc, .yaml, .yml or .cue, or pass --input-format",
					"cannot tell the format of %s from its name", name)
				return nil, l
			}
		}
	}
	if len(data) > MaxFileSize {
		l.Errorf(RuleLimit, filePos, "", "split the file or remove generated bulk", "%s is larger than the %d MiB limit", opt.kind(), MaxFileSize>>20)
		return nil, l
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // a UTF-8 byte order mark is harmless; drop it
	if utf16BOM(data) || (len(data) >= 2 && (data[0] == 0) != (data[1] == 0)) {
		l.Errorf(RuleEncoding, filePos, "", "save it as UTF-8", "%s is UTF-16 (or UTF-32) encoded, not UTF-8", opt.kind())
		return nil, l
	}
	// Count before indexing lines: a file of millions of short lines is
	// refused without building anything for it.
	deepAt, deep, items := scan(data, MaxDepth, format == FormatCUE, format != FormatJSON)
	if items > 2*MaxValues {
		l.Errorf(RuleLimit, filePos, "", "a cluster's files hold far fewer values; split the file or remove generated bulk",
			"the %s holds more than %d values", opt.kind(), MaxValues)
		return nil, l
	}
	early := newLineIndex(name, data)
	if i := bytes.IndexByte(data, 0); i >= 0 {
		l.Errorf(RuleEncoding, early.pos(i), "", "remove the NUL byte; the file is text", "%s contains a NUL byte", opt.kind())
		return nil, l
	}
	if !utf8.Valid(data) {
		i := firstInvalidUTF8(data)
		l.Errorf(RuleEncoding, early.pos(i), "", "save the file as UTF-8", "%s is not valid UTF-8", opt.kind())
		return nil, l
	}
	if deep {
		l.Errorf(RuleLimit, early.pos(deepAt), "", "flatten the structure; a cluster spec is a few levels deep",
			"nesting deeper than %d levels", MaxDepth)
		return nil, l
	}

	doc := &Document{File: name, Format: format, Source: data}
	var root *Node
	lines := early
	b := &budget{}
	switch format {
	case FormatJSON:
		root, l = parseJSON(lines, data, b)
	case FormatYAML:
		root, l = parseYAML(lines, data, b, opt.kind())
	case FormatCUE:
		gate := opt.CUE
		if gate == nil {
			gate = NewCUEGate(0, 0)
		}
		root, l = parseCUE(lines, data, b, gate)
	}
	if root == nil {
		return doc, l // Root is nil: the source is kept for excerpts
	}
	n := normaliser{verbatim: opt.Verbatim}
	if format != FormatJSON {
		n.strings = opt.Strings
	}
	for i := range l {
		if l[i].Path == "" {
			if n.unplaced == nil {
				n.unplaced = map[diag.Pos]*diag.Diagnostic{}
			}
			n.unplaced[l[i].Pos.Start()] = &l[i]
		}
	}
	n.node(root, make(Path, 0, 16))
	doc.Root = root
	return doc, append(l, n.diags...)
}

// utf16BOM reports whether data starts with a UTF-16 or UTF-32 byte order
// mark.
func utf16BOM(data []byte) bool {
	return bytes.HasPrefix(data, []byte{0xff, 0xfe}) || bytes.HasPrefix(data, []byte{0xfe, 0xff}) ||
		bytes.HasPrefix(data, []byte{0, 0, 0xfe, 0xff})
}

func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return 0
}

// scan runs before any parser so that a hostile input can neither recurse
// a parser into a stack overflow nor make it build millions of values. It
// reports whether brackets and braces outside double-quoted strings nest
// deeper than limit, and the offset of the first one beyond it; for CUE,
// parentheses and label chains on one line (a: b: c: 1) nest too, and //
// comments are skipped. It also estimates how many values the input
// holds: commas outside strings, plus, for YAML and CUE, lines with text
// (a block sequence or mapping has one entry per line). The estimate errs
// high (a comment line counts) by a small factor.
func scan(b []byte, limit int, cue, lines bool) (at int, deep bool, items int) {
	depth, chain := 0, 0
	inString, text := false, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			text = true
		}
		switch {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case c == '\n':
			// YAML and CUE strings never span lines without quotes that
			// this scanner sees; resynchronise on each line to stay robust.
			inString, chain = false, 0
			if lines && text {
				items++
			}
			text = false
		case inString:
		case c == ',':
			items++
			chain = 0
		case c == '[' || c == '{' || cue && c == '(':
			depth++
			if depth+chain > limit {
				return i, true, items
			}
		case c == ']' || c == '}' || cue && c == ')':
			depth--
		case !cue:
		case c == ':':
			chain++
			if depth+chain > limit {
				return i, true, items
			}
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				i++
			}
			i--
		}
	}
	return 0, false, items
}
