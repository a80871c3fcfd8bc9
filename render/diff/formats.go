package diff

import (
	"io"

	"github.com/slurmspec/slurmspec/compiler/outformat"
)

// Writer writes a report in one format.
type Writer func(r *Report, w io.Writer) error

// Formats are the formats of a report (slurmspec diff --format), the
// default first: Text, Markdown and JSON.
func Formats() *outformat.Registry[Writer] {
	return outformat.MustNew(
		outformat.Format[Writer]{Name: "text", Writer: (*Report).Text},
		outformat.Format[Writer]{Name: "markdown", Note: "a PR comment", Writer: (*Report).Markdown},
		outformat.Format[Writer]{Name: "json", Writer: (*Report).JSON},
	)
}
