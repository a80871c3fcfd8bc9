package schema

import (
	"fmt"
	"strings"

	"github.com/slurmspec/slurmspec/schema/slurmconf"
)

// KeyDescription is the one-line description of a slurm.conf key
// (schema/slurmconf/data/descriptions.tsv), or "".
func KeyDescription(p *slurmconf.Param) string {
	return slurmconf.Description(p.Scope, p.Name)
}

// KeyMarkdown is the hover text of a key: its description, its value
// grammar and the releases that have it.
func KeyMarkdown(p *slurmconf.Param, st slurmconf.KeyStatus) string {
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

func kindText(p *slurmconf.Param) string {
	switch p.Kind {
	case slurmconf.KindBool:
		return "YES or NO"
	case slurmconf.KindUint16:
		return "an integer 0-65535 or UNLIMITED"
	case slurmconf.KindUint32:
		return "an integer 0-4294967295 (k = ×1024) or UNLIMITED"
	case slurmconf.KindUint64:
		return "a non-negative integer (k = ×1024) or UNLIMITED"
	case slurmconf.KindTime:
		return "a time: minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS, or UNLIMITED"
	case slurmconf.KindEnum:
		return "one of the listed values"
	case slurmconf.KindPlugin:
		return "a plugin name"
	case slurmconf.KindList:
		return "a comma-separated list"
	}
	return "text"
}
