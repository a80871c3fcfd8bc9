package schema

import (
	"fmt"
	"strings"

	"github.com/slurmspec/slurmspec/schema/catalog"
)

// KeyDescription is the one-line description of a slurm.conf key
// (schema/catalog/data/descriptions.tsv), or "".
func KeyDescription(p *catalog.Param) string {
	return catalog.Description(p.Scope, p.Name)
}

// KeyMarkdown is the hover text of a key: its description, its value
// grammar and the releases that have it.
func KeyMarkdown(p *catalog.Param, st catalog.KeyStatus) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s**", p.Name)
	if d := KeyDescription(p); d != "" {
		fmt.Fprintf(&b, ": %s", d)
	}
	fmt.Fprintf(&b, "\n\nValue: %s. Slurm %s.", kindText(p), p.PresentIn)
	if st.Problem() {
		fmt.Fprintf(&b, " In %s: %s.", st.Version, st)
	}
	b.WriteString(" See `slurmspec explain " + p.Name + "`.")
	return b.String()
}

func kindText(p *catalog.Param) string {
	switch p.Kind {
	case catalog.KindBool:
		return "YES or NO"
	case catalog.KindUint16:
		return "an integer 0-65535 or UNLIMITED"
	case catalog.KindUint32:
		return "an integer 0-4294967295 (k = ×1024) or UNLIMITED"
	case catalog.KindUint64:
		return "a non-negative integer (k = ×1024) or UNLIMITED"
	case catalog.KindTime:
		return "a time: minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS, or UNLIMITED"
	case catalog.KindEnum:
		return "one of the listed values"
	case catalog.KindPlugin:
		return "a plugin name"
	case catalog.KindList:
		return "a comma-separated list"
	}
	return "text"
}
