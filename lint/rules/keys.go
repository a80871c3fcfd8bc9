package rules

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/compiler/managed"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// Keys and values of the config maps, checked against the Slurm parameter
// catalog (schema/catalog) for the target series.

// catalogScope is the catalog scope a config map feeds.
func catalogScope(scope string) catalog.Scope {
	switch scope {
	case "partition":
		return catalog.ScopePartition
	case "node":
		return catalog.ScopeNode
	}
	return catalog.ScopeGlobal
}

// scopeHome says where in the spec (or slurm.conf) keys of a scope go.
func scopeHome(s catalog.Scope) string {
	switch s {
	case catalog.ScopeGlobal:
		return "orchestratorSpec.slurmSpec.config"
	case catalog.ScopePartition:
		return "partitions[].config"
	case catalog.ScopeNode:
		return "nodeSets[].config"
	case catalog.ScopeNodeSet:
		return "a NodeSet= line, which the service writes from nodePools"
	case catalog.ScopeDownNodes:
		return "a DownNodes= line, which a spec cannot write"
	case catalog.ScopeFrontend:
		return "a FrontendName= line, which a spec cannot write"
	case catalog.ScopePowerAction:
		return "a PowerAction= line, which a spec cannot write"
	}
	return s.String()
}

// skipKey reports keys that other rules own: reserved keys and Default in
// a partition.
func skipKey(scope, key string) bool {
	if _, ok := managed.Lookup(key); ok {
		return true
	}
	return scope == "partition" && strings.EqualFold(key, "Default")
}

// keyEntry is one key of a config map with its catalog entry.
type keyEntry struct {
	kv    *ir.KV
	scope string
	param *catalog.Param
}

// catalogKeys lists the keys of every config map that the catalog has in
// the map's scope.
func catalogKeys(c *ir.Cluster) []keyEntry {
	cat := catalog.Default()
	var out []keyEntry
	for _, m := range configMaps(c) {
		for i := range m.kvs {
			kv := &m.kvs[i]
			if skipKey(m.scope, kv.Key.Value) {
				continue
			}
			if param, ok := cat.Lookup(catalogScope(m.scope), kv.Key.Value); ok {
				out = append(out, keyEntry{kv, m.scope, param})
			}
		}
	}
	return out
}

// UnknownConfigKey reports keys Slurm does not know in any scope.
var UnknownConfigKey = &lint.Rule{
	ID:       "unknown-config-key",
	Severity: diag.Error,
	Summary:  "A config map sets a key that is not a slurm.conf parameter",
	Doc: doc("slurm.conf keys are matched case-insensitively against Slurm's option tables; an unknown key "+
		"makes slurmctld refuse the whole file. The hint names the closest parameter of the same scope.",
		`config: {PriortyType: priority/multifactor}`,
		`config: {PriorityType: priority/multifactor}`),
	Check: func(p *lint.Pass) {
		cat := catalog.Default()
		for _, m := range configMaps(p.Cluster) {
			scope := catalogScope(m.scope)
			for _, kv := range m.kvs {
				key := kv.Key.Value
				if skipKey(m.scope, key) || len(cat.ScopesOf(key)) > 0 {
					continue
				}
				if len(key) > 64 {
					continue // no Slurm key; schema-key refuses it, its name cut
				}
				hint := "see slurm.conf(5) for the parameter names"
				if s := cat.Suggest(scope, key); s != "" {
					hint = fmt.Sprintf("did you mean %q?", s)
				} else {
					for _, other := range catalog.Scopes() {
						if s := cat.Suggest(other, key); s != "" && other != scope {
							hint = fmt.Sprintf("did you mean %q? (a %s key: it belongs in %s)", s, other, scopeHome(other))
							break
						}
					}
				}
				p.Report(kv.Key.Pos, kv.Key.Path, hint, "unknown slurm.conf %s key %q", m.scope, key)
			}
		}
	},
}

// ConfigKeyScope reports keys given in a config map of the wrong scope.
var ConfigKeyScope = &lint.Rule{
	ID:       "config-key-scope",
	Severity: diag.Error,
	Summary:  "A config map sets a key that belongs to another kind of slurm.conf line",
	Doc: doc("Global keys go in slurmSpec.config, partition keys (PartitionName= line) in partitions[].config "+
		"and node keys (NodeName= line) in nodeSets[].config. A partition key in the global config is an "+
		"unknown key to slurmctld.",
		"config: {PriorityTier: \"10\"}",
		"partitions:\n- id: urgent\n  nodePoolIds: [a4]\n  config: {PriorityTier: \"10\"}"),
	Check: func(p *lint.Pass) {
		cat := catalog.Default()
		for _, m := range configMaps(p.Cluster) {
			scope := catalogScope(m.scope)
			for _, kv := range m.kvs {
				key := kv.Key.Value
				if skipKey(m.scope, key) {
					continue
				}
				if _, ok := cat.Lookup(scope, key); ok {
					continue
				}
				scopes := cat.ScopesOf(key)
				if len(scopes) == 0 {
					continue
				}
				var homes []string
				for _, s := range scopes {
					homes = append(homes, scopeHome(s))
				}
				p.Report(kv.Key.Pos, kv.Key.Path, "move it to "+strings.Join(homes, " or "),
					"%s is not a %s key: it belongs in %s", key, m.scope, strings.Join(homes, " or "))
			}
		}
	},
}

// ConfigKeyVersion reports keys the target series does not accept.
var ConfigKeyVersion = &lint.Rule{
	ID:       "config-key-version",
	Severity: diag.Error,
	Summary:  "A config key is unknown, defunct, fatal or unused in the target Slurm version",
	Doc: doc("Keys come and go between Slurm releases. A key added in a newer release, or removed, is unknown "+
		"and slurmctld refuses the file (an error); some keys are still parsed but make the daemons fail (an "+
		"error). A defunct key is logged as an error and dropped, and a key that is accepted but never read is "+
		"dropped silently: both are warnings, as the cluster runs as it would without them (the severity policy, "+
		"docs/fidelity.md). The target series is --slurm-version (default: the newest).",
		"# --slurm-version 22.05\nconfig: {PrologTimeout: \"300\"}",
		"# --slurm-version 22.05\nconfig: {PrologEpilogTimeout: \"300\"}"),
	Check: func(p *lint.Pass) {
		v := targetVersion(p.Options)
		for _, k := range catalogKeys(p.Cluster) {
			st := k.param.StatusIn(v)
			key := k.kv.Key.Value
			switch st.Status {
			case catalog.StatusRemoved, catalog.StatusNotAdded:
				hint := "drop it, or target a Slurm series that has it"
				if st.Status == catalog.StatusNotAdded {
					hint = fmt.Sprintf("drop it, or target Slurm %s or newer (--slurm-version)", st.Since)
				}
				p.Report(k.kv.Key.Pos, k.kv.Key.Path, hint, "%s is %s: slurmctld refuses the file", key, st)
			case catalog.StatusRemovedFatal:
				if !k.param.FatalValue(k.kv.Value.Value) {
					p.ReportAs(diag.Warning, k.kv.Key.Pos, k.kv.Key.Path, "remove it",
						"Slurm %s: %s=%s is obsolete: slurmctld logs an error and ignores it (other values are fatal)", v, key, k.kv.Value.Value)
					continue
				}
				hint := "remove it"
				if st.Replacement != "" {
					hint = "use " + st.Replacement + " instead"
				}
				p.Report(k.kv.Key.Pos, k.kv.Key.Path, hint, "Slurm %s: %s is %s", v, key, st)
			case catalog.StatusDefunct:
				// The severity policy: Slurm drops a defunct key as it
				// drops an unused one (the cluster runs as without it),
				// so both are warnings, whatever slurmctld logs.
				hint := "remove it"
				if st.Replacement != "" {
					hint = "use " + st.Replacement + " instead"
				}
				p.ReportAs(policySeverity(st), k.kv.Key.Pos, k.kv.Key.Path, hint, "Slurm %s: %s is %s: it has no effect", v, key, st)
			case catalog.StatusUnused:
				p.ReportAs(policySeverity(st), k.kv.Key.Pos, k.kv.Key.Path, "remove it", "Slurm %s: %s is %s: it has no effect", v, key, st)
			}
		}
	},
}

// policySeverity is the severity policy's answer for a key's status
// (catalog.PolicySeverity).
func policySeverity(st catalog.KeyStatus) diag.Severity {
	if st.Severity() == catalog.SeverityError {
		return diag.Error
	}
	return diag.Warning
}

// DeprecatedConfigKey reports deprecated keys and aliases.
var DeprecatedConfigKey = &lint.Rule{
	ID:       "deprecated-config-key",
	Severity: diag.Warning,
	Summary:  "A config key is deprecated or an alias in the target Slurm version",
	Doc: doc("Deprecated keys and aliases still work but have a replacement that newer releases expect; "+
		"the message names it.",
		"partitions:\n- {id: batch, nodePoolIds: [cpu], config: {Shared: \"YES\"}}",
		"partitions:\n- {id: batch, nodePoolIds: [cpu], config: {OverSubscribe: \"YES\"}}"),
	Check: func(p *lint.Pass) {
		v := targetVersion(p.Options)
		for _, k := range catalogKeys(p.Cluster) {
			st := k.param.StatusIn(v)
			switch st.Status {
			case catalog.StatusDeprecated, catalog.StatusAlias:
				hint := "see slurm.conf(5) for its replacement"
				if st.Replacement != "" {
					hint = "use " + strings.ReplaceAll(st.Replacement, "+", " and ") + " instead"
				}
				p.Report(k.kv.Key.Pos, k.kv.Key.Path, hint, "Slurm %s: %s is %s", v, k.kv.Key.Value, st)
			}
		}
	},
}

// ownedValueCheck reports catalog findings that a dedicated rule reports
// under its own id, so that invalid-config-value does not repeat them.
func ownedValueCheck(param *catalog.Param, msg string) bool {
	switch {
	case strings.EqualFold(param.Name, "PreemptExemptTime"):
		return true // preempt-exempt-time
	case strings.EqualFold(param.Name, "PreemptMode"):
		// preempt-mode-combination and preempt-suspend-needs-gang.
		// partition-preempt-gang reports GANG in a partition.
		return strings.Contains(msg, "more than one base mode") || strings.Contains(msg, "combines GANG") ||
			strings.Contains(msg, "needs GANG") || (param.Scope == catalog.ScopePartition && strings.Contains(msg, `"GANG"`))
	}
	return false
}

func problemSeverity(pr catalog.Problem) diag.Severity {
	if pr.Severity == catalog.SeverityWarning {
		return diag.Warning
	}
	return diag.Error
}

func hintOr(hint, fallback string) string {
	if hint != "" {
		return hint
	}
	return fallback
}

// InvalidConfigValue reports values Slurm rejects or ignores.
var InvalidConfigValue = &lint.Rule{
	ID:       "invalid-config-value",
	Severity: diag.Error,
	Summary:  "A config value is not valid for its key in the target Slurm version",
	Doc: doc("Values are checked as Slurm's own parsers read them: integers and their ranges, booleans, time "+
		"strings, single values and comma lists against the tokens and plugins of the target series. "+
		"A plugin that not every Slurm build has is a warning that speaks of the target build "+
		"(docs/target.md): for `build: debian`, the Debian package that lacks it or ships it apart; for "+
		"the default, `build: service`, whose plugins are not published, a request to check the service's build. "+
		"Findings the catalog is not sure of (values known only from the manual, open value sets, loose "+
		"prefix matches) are warnings.",
		"config: {PreemptType: preempt/partition_prio, PreemptMode: REQUEUE, MaxJobCount: 10k0}",
		"config: {PreemptType: preempt/partition_prio, PreemptMode: REQUEUE, MaxJobCount: \"100000\"}"),
	Check: func(p *lint.Pass) {
		v := targetVersion(p.Options)
		t := catalog.Target{Release: v, Build: p.Options.Target().Build}
		for _, k := range catalogKeys(p.Cluster) {
			if !k.param.StatusIn(v).Known() {
				continue // config-key-version reports it
			}
			param, value := aliasValue(k.param, k.kv.Value.Value)
			for _, pr := range catalog.CheckTarget(param, t, value) {
				if ownedValueCheck(param, pr.Message) {
					continue
				}
				p.ReportAs(problemSeverity(pr), k.kv.Value.Pos, k.kv.Value.Path, hintOr(pr.Hint, "see slurm.conf(5) for "+k.param.Name),
					"%s", pr.Message)
			}
		}
	},
}

// aliasValue is the key and value Slurm reads for an alias spelling: the
// key it stands for (SbcastParameters is read as BcastParameters), and for
// AcctGatherInfinibandType the value with every "infiniband" rewritten to
// "interconnect" (read_config.c xstrsubstituteall), so that the value is checked like the
// canonical key's.
func aliasValue(param *catalog.Param, value string) (*catalog.Param, string) {
	if param.Status != catalog.StatusAlias || param.Replacement == "" {
		return param, value
	}
	target, ok := catalog.Default().Lookup(param.Scope, param.Replacement)
	if !ok {
		return param, value
	}
	if strings.EqualFold(param.Name, "AcctGatherInfinibandType") {
		value = strings.ReplaceAll(value, "infiniband", "interconnect")
	}
	return target, value
}

// unsafeRune mirrors the renderer's token check (render/slurmconf): the
// characters it refuses to write into slurm.conf.
func unsafeRune(r rune) bool {
	return r <= ' ' || r == 0x7f || r == '#' || r == '"' || r == '\'' || r == '\\' || r == 0x85 || r == 0x2028 || r == 0x2029 || r == 0xa0
}

// UnsafeConfigValue reports config values the renderer refuses to write.
var UnsafeConfigValue = &lint.Rule{
	ID:       "unsafe-config-value",
	Severity: diag.Error,
	Summary:  "A config value holds a character that could split a slurm.conf line or option",
	Guard: "a white space, #, quote, backslash or control character in a value could end the line " +
		"or start another option, injecting keys no rule has checked",
	Doc: doc("Config values become Key=Value tokens of slurm.conf. White space, line and paragraph separators, "+
		"#, quotes, backslashes and control characters could end the token, the line or start a comment, "+
		"so the renderer refuses them. The schema rejects the ASCII ones; this rule catches the Unicode "+
		"separators (U+0085, U+00A0, U+2028, U+2029) so that a spec that lints also renders.",
		`config: {MaxJobCount: "10000\u2028"}`,
		`config: {MaxJobCount: "10000"}`),
	Check: func(p *lint.Pass) {
		for _, m := range configMaps(p.Cluster) {
			for _, kv := range m.kvs {
				for _, s := range []ir.Str{kv.Key, kv.Value} {
					if i := strings.IndexFunc(s.Value, unsafeRune); i >= 0 {
						r, _ := utf8.DecodeRuneInString(s.Value[i:])
						p.Report(s.Pos, s.Path, "remove the character; slurm.conf values are single tokens",
							"%s contains %U, which slurmspec refuses to write into slurm.conf", kv.Key.Value, r)
						break
					}
				}
			}
		}
	},
}
