package suppress

import (
	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/lint"
)

// Rule ids of the directives' own findings.
const (
	RuleInvalid = "invalid-suppression"
	RuleUnused  = "unused-suppression"
)

// none is the Check of both rules: Apply reports their findings, not
// lint.Run.
func none(*lint.Pass) {}

// Invalid reports a malformed directive or one that names what cannot be
// suppressed.
var Invalid = &lint.Rule{
	ID:       RuleInvalid,
	Severity: diag.Error,
	Summary:  "An inline suppression comment is malformed or names a rule that cannot be suppressed",
	Doc: "A `slurmspec:ignore` or `slurmspec:ignore-file` comment must name one or more lint rules and give " +
		"a reason after ` -- `. Guarded rules (`reserved-key`, `unsafe-config-value`: see docs/security.md) " +
		"cannot be suppressed, nor can schema and syntax errors (the API would refuse the spec) or the online " +
		"rules (they report after the comments are applied). " +
		"A directive that is invalid silences nothing.\n\n" +
		"Bad:\n\n```yaml\nnodePools:\n  # slurmspec:ignore unused-pool\n  - id: spare\n```\n\n" +
		"Good:\n\n```yaml\nnodePools:\n  # slurmspec:ignore unused-pool -- kept empty for the spring reservation\n  - id: spare\n```\n",
	Check: none,
}

// Unused reports a directive that silences nothing.
var Unused = &lint.Rule{
	ID:       RuleUnused,
	Severity: diag.Warning,
	Summary:  "An inline suppression comment matches no finding",
	Doc: "The rule the directive names reports nothing where the directive applies: the problem was fixed, " +
		"or the directive is on the wrong line. A stale suppression would silence the next real finding. " +
		"A directive that names a rule disabled by --disable or .slurmspec.yaml is not reported.\n\n" +
		"Bad:\n\n```yaml\n# slurmspec:ignore-file preemption-never-fires -- no preemption here\npartitions:\n  - id: batch\n```\n\n" +
		"Good:\n\n```yaml\npartitions:\n  - id: batch\n```\n",
	Check: none,
}

// Rules returns the directives' rules, for the rule catalog.
func Rules() []*lint.Rule { return []*lint.Rule{Invalid, Unused} }
