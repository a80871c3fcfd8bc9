package suppress

import (
	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/diag/ids"
)

// Rule ids of the directives' own findings.
const (
	RuleInvalid = "invalid-suppression"
	RuleUnused  = "unused-suppression"
)

// Invalid reports a malformed directive or one that names what cannot be
// suppressed.
var Invalid = ids.Entry{
	ID:       RuleInvalid,
	Stage:    ids.Lint,
	Severity: diag.Error,
	Summary:  "An inline suppression comment is malformed or names a rule that cannot be suppressed",
	Doc: "A `slurmspec:ignore` or `slurmspec:ignore-file` comment must name one or more lint rules and give " +
		"a reason after ` -- `. Guarded rules (`reserved-key`, `unsafe-config-value`: see docs/security.md) " +
		"cannot be suppressed, nor can schema and syntax errors (the API would refuse the spec) or the online " +
		"rules (they report after the comments are applied). " +
		"A directive that is invalid silences nothing.\n\n" +
		"Bad:\n\n```yaml\nnodePools:\n  # slurmspec:ignore unused-pool\n  - id: spare\n```\n\n" +
		"Good:\n\n```yaml\nnodePools:\n  # slurmspec:ignore unused-pool -- kept empty for the spring reservation\n  - id: spare\n```\n",
}

// Unused reports a directive that silences nothing.
var Unused = ids.Entry{
	ID:       RuleUnused,
	Stage:    ids.Lint,
	Severity: diag.Warning,
	Summary:  "An inline suppression comment matches no finding",
	Doc: "The rule the directive names reports nothing where the directive applies: the problem was fixed, " +
		"or the directive is on the wrong line. A stale suppression would silence the next real finding. " +
		"A directive that names a rule disabled by --disable or .slurmspec.yaml is not reported.\n\n" +
		"Bad:\n\n```yaml\n# slurmspec:ignore-file preemption-never-fires -- no preemption here\npartitions:\n  - id: batch\n```\n\n" +
		"Good:\n\n```yaml\npartitions:\n  - id: batch\n```\n",
}

// Entries returns the directives' entries in the diagnostic catalog. They
// are of stage lint (they report with the lint rules' findings, and
// --disable and .slurmspec.yaml accept them) but no lint.Rule: Apply
// reports them, not lint.Run.
func Entries() []ids.Entry { return []ids.Entry{Invalid, Unused} }
