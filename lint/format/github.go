package format

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// GitHub is the GitHub Actions format: one workflow command per
// diagnostic, "::error file=F,line=L,col=C,title=RULE::message", which
// the runner shows as an annotation on the file. Warnings use ::warning and
// notes (info findings) ::notice. The message carries the spec path, related positions and
// the hint on further lines. A check that could not run (Run.Failures) is
// an ::error without a file.
type GitHub struct {
	// BaseDir, when set, makes file names under it relative to it.
	BaseDir string
}

// Format implements Formatter.
func (g GitHub) Format(w io.Writer, r Run) error {
	var b bytes.Buffer
	for _, f := range sorted(r) {
		for _, d := range f.Diags {
			g.command(&b, f, d)
		}
	}
	// A check that could not run is an error annotation of the run,
	// without a file.
	for _, msg := range r.Failures {
		fmt.Fprintf(&b, "::error title=slurmspec::%s\n", escapeData(msg))
	}
	_, err := w.Write(b.Bytes())
	return err
}

func (g GitHub) command(b *bytes.Buffer, f File, d diag.Diagnostic) {
	var props []string
	if file := fileOf(d.Pos, f); file != "" {
		props = append(props, "file="+escapeProperty(slashName(file, g.BaseDir)))
		if d.Pos.IsValid() {
			props = append(props, fmt.Sprintf("line=%d", d.Pos.Line))
			if d.Pos.Col > 0 {
				props = append(props, fmt.Sprintf("col=%d", d.Pos.Col))
			}
		}
	}
	props = append(props, "title="+escapeProperty(d.Rule))

	msg := d.Message
	if d.Path != "" {
		msg += "\npath: " + d.Path
	}
	for _, rel := range d.Related {
		msg += "\nsee: " + rel.Pos.String() + ": " + rel.Message
	}
	if d.Hint != "" {
		msg += "\nhint: " + d.Hint
	}
	fmt.Fprintf(b, "::%s %s::%s\n", githubCommand(d.Severity), strings.Join(props, ","), escapeData(msg))
}

func githubCommand(s diag.Severity) string {
	switch s {
	case diag.Error:
		return "error"
	case diag.Warning:
		return "warning"
	}
	return "notice"
}

// The escapers of workflow commands, built once on first use (a Replacer
// is safe for concurrent use and costs kilobytes to build).
var (
	dataEscaper     = sync.OnceValue(func() *strings.Replacer { return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A") })
	propertyEscaper = sync.OnceValue(func() *strings.Replacer {
		return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
	})
)

// escapeData escapes a workflow command's message.
func escapeData(s string) string { return dataEscaper().Replace(s) }

// escapeProperty escapes a workflow command's property value, which also
// may not hold the separators ':' and ','.
func escapeProperty(s string) string { return propertyEscaper().Replace(s) }
