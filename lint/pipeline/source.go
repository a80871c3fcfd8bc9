package pipeline

import (
	"io"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/load"
)

// Source is the spec one analysis reads (Pipeline.Analyse): a file or
// standard input (File), a spec already in memory, such as one read from
// a git revision (Bytes), or a document already loaded (Loaded). Its name
// is the spec's name in the result and the directory its settings are
// looked up from.
type Source struct {
	name string
	// onDisk: a spec file beside which its accounting file may lie.
	onDisk bool
	read   func(load.Options) (*load.Document, diag.List)
}

// File is the spec file path; "-" reads stdin (which may be nil
// otherwise). Its accounting file (the project config's accounting
// key, else the file beside the spec) is loaded with it.
func File(path string, stdin io.Reader) Source {
	return Source{name: path, onDisk: true, read: func(opt load.Options) (*load.Document, diag.List) {
		opt.Stdin = stdin
		return load.File(path, opt)
	}}
}

// Bytes is a spec already in memory (read from git, a test's text), named
// name in positions. It has no accounting file.
func Bytes(name string, data []byte) Source {
	return Source{name: name, read: func(opt load.Options) (*load.Document, diag.List) {
		return load.Bytes(name, data, opt)
	}}
}

// Loaded is a document already loaded (doc may be nil when loading
// failed), with the diagnostics of its loading: for a caller that loads
// or changes the document itself (a test mutating a spec). It has no
// accounting file, and the pipeline's load options do not apply to it.
func Loaded(name string, doc *load.Document, l diag.List) Source {
	return Source{name: name, read: func(load.Options) (*load.Document, diag.List) { return doc, l }}
}
