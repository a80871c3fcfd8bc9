package catalog

import (
	"fmt"
	"strings"
)

// Scope says which kind of slurm.conf line a key belongs to.
type Scope uint8

// The scopes of slurm.conf keys.
const (
	// ScopeGlobal is a top-level "Key=Value" line.
	ScopeGlobal Scope = iota + 1
	// ScopePartition is a key of a "PartitionName=" line.
	ScopePartition
	// ScopeNode is a key of a "NodeName=" line.
	ScopeNode
	// ScopeNodeSet is a key of a "NodeSet=" line.
	ScopeNodeSet
	// ScopeDownNodes is a key of a "DownNodes=" line.
	ScopeDownNodes
	// ScopeFrontend is a key of a "FrontendName=" line (removed in 25.05).
	ScopeFrontend
	// ScopePowerAction is a key of a "PowerAction=" line (new in 26.05).
	ScopePowerAction
)

var scopeNames = [...]string{"", "global", "partition", "node", "nodeset", "downnodes", "frontend", "poweraction"}
var scopeLines = [...]string{"", "", "PartitionName", "NodeName", "NodeSet", "DownNodes", "FrontendName", "PowerAction"}

// Scopes returns every scope in declaration order.
func Scopes() []Scope {
	return []Scope{ScopeGlobal, ScopePartition, ScopeNode, ScopeNodeSet, ScopeDownNodes, ScopeFrontend, ScopePowerAction}
}

// String returns a short lower-case name such as "global" or "partition".
func (s Scope) String() string {
	if int(s) < len(scopeNames) && s != 0 {
		return scopeNames[s]
	}
	return "invalid"
}

// LineKey returns the slurm.conf key that starts a line of this scope, such
// as "PartitionName", or "" for ScopeGlobal.
func (s Scope) LineKey() string {
	if int(s) < len(scopeLines) {
		return scopeLines[s]
	}
	return ""
}

// Kind is the grammar of a key's value.
type Kind uint8

// The value kinds. Integer kinds follow Slurm's S_P_* handlers in
// src/common/parse_value.c.
const (
	// KindString is free text; the parser does not check it.
	KindString Kind = iota + 1
	// KindBool is S_P_BOOLEAN: YES/NO, TRUE/FALSE, UP/DOWN, 1/0 (any case).
	KindBool
	// KindUint16 is S_P_UINT16: 0..65535, or UNLIMITED/INFINITE.
	KindUint16
	// KindUint32 is S_P_UINT32: 0..4294967295 with an optional k/K
	// (×1024) suffix, or UNLIMITED/INFINITE.
	KindUint32
	// KindUint64 is S_P_UINT64: like KindUint32 with a 64-bit range.
	KindUint64
	// KindLong is S_P_LONG: a signed long, or UNLIMITED/INFINITE.
	KindLong
	// KindFloat is S_P_FLOAT/S_P_DOUBLE: strtof syntax, or UNLIMITED/INFINITE.
	KindFloat
	// KindTime is a Slurm time string read by time_str2secs/time_str2mins.
	KindTime
	// KindEnum is a single token from Values.
	KindEnum
	// KindList is a comma-separated list of tokens from Values; some
	// tokens take an argument ("name=value").
	KindList
	// KindPlugin is a single plugin name ("type/name") from Values.
	KindPlugin
	// KindArray is a repeatable string key (S_P_ARRAY), e.g. Prolog.
	KindArray
	// KindLine is a key that starts a line of its own (NodeName=,
	// PartitionName=, SlurmctldHost=, ...).
	KindLine
)

var kindNames = [...]string{"", "string", "bool", "uint16", "uint32", "uint64", "long", "float", "time", "enum", "list", "plugin", "array", "line"}

// String returns the kind's lower-case name.
func (k Kind) String() string {
	if int(k) < len(kindNames) && k != 0 {
		return kindNames[k]
	}
	return "invalid"
}

// Status is how Slurm treats a key.
type Status uint8

// The key statuses. Param.Status is the status in the newest series;
// Param.StatusIn gives it for any series.
const (
	// StatusActive is a normal, live key.
	StatusActive Status = iota + 1
	// StatusDeprecated is still honoured but has a newer replacement.
	StatusDeprecated
	// StatusAlias is another spelling of Param.Replacement.
	StatusAlias
	// StatusDefunct is accepted, logged as an error and dropped.
	StatusDefunct
	// StatusRemovedFatal is still parsed, but any use makes the daemons
	// fail.
	StatusRemovedFatal
	// StatusUnused is accepted but never read.
	StatusUnused
	// StatusRemoved is no longer in the option table: an unknown key,
	// which makes slurm.conf loading fail.
	StatusRemoved
	// StatusLine is a key that starts a line of its own.
	StatusLine
	// StatusNotAdded is returned by StatusIn for a series older than the
	// one that added the key: it is an unknown key there.
	StatusNotAdded
)

var statusNames = [...]string{"", "active", "deprecated", "alias", "defunct", "removed_fatal", "unused", "removed", "line", "not_added"}

// String returns the status name used in the reference data, such as
// "removed_fatal".
func (s Status) String() string {
	if int(s) < len(statusNames) && s != 0 {
		return statusNames[s]
	}
	return "invalid"
}

// Known reports whether a key with this status is in the option table, so
// that Slurm does not reject it as an unknown key.
func (s Status) Known() bool { return s != StatusRemoved && s != StatusNotAdded && s != 0 }

// Source is a bit set that says where the evidence for an enum value comes
// from.
type Source uint8

// Evidence sources of an enum value.
const (
	// SourceCode is a literal compared in the parser or its consumer.
	SourceCode Source = 1 << iota
	// SourcePlugin is a plugin_type string under src/plugins.
	SourcePlugin
	// SourceMan is a sub-heading of slurm.conf(5) only.
	SourceMan
)

// Certain reports whether the value was seen in code or as a plugin, as
// opposed to only in the manual.
func (s Source) Certain() bool { return s&(SourceCode|SourcePlugin) != 0 }

// String renders the set as in the reference data, e.g. "code+man".
func (s Source) String() string {
	out := ""
	add := func(b Source, name string) {
		if s&b != 0 {
			if out != "" {
				out += "+"
			}
			out += name
		}
	}
	add(SourceCode, "code")
	add(SourcePlugin, "plugin")
	add(SourceMan, "man")
	return out
}

// Match says how Slurm compares a token with an enum value.
type Match uint8

// Token matching rules.
const (
	// MatchExact compares the whole token (case-insensitively unless
	// EnumValue.CaseSensitive).
	MatchExact Match = iota
	// MatchPrefix: Slurm compares only a leading part, so sloppier
	// spellings that share the prefix are also accepted.
	MatchPrefix
	// MatchContains: Slurm searches the value for EnumValue.Substr.
	MatchContains
	// MatchTemplate: the value is a template such as "def_<rsrc>"; any
	// token with the literal prefix before "<" matches.
	MatchTemplate
	// MatchLeading: Slurm compares the first len(Name) characters of the
	// whole value, commas and all, and ignores the rest; where several
	// names lead the value the longest is taken, as Slurm tries the longer
	// ones first (partition SelectTypeParameters: xstrncasecmp(value,
	// "CR_Core_Memory", 14), then "CR_Core", 7). A shorter value is no
	// match.
	MatchLeading
)

// EnumValue is one accepted token of an enum, list or plugin key.
type EnumValue struct {
	// Name is the token as Slurm spells it.
	Name string
	// Source is the evidence for the token.
	Source Source
	// PresentIn is the set of series that accept the token.
	PresentIn VersionSet
	// TakesArg reports whether the token is written "name<ArgSep>value".
	TakesArg bool
	// ArgSep separates name and argument: '=' (most lists) or ':'
	// (OverSubscribe=YES:4).
	ArgSep byte
	// ArgOptional reports whether the argument may be left out.
	ArgOptional bool
	// Match is how Slurm compares tokens with Name.
	Match Match
	// Substr is the substring Slurm searches for when Match is
	// MatchContains.
	Substr string
	// CaseSensitive is set for plugin names, which Slurm turns into file
	// names.
	CaseSensitive bool
	// NotStandalone marks a token that only makes sense inside another one
	// (SwitchParameters resource names used in def_<rsrc>=).
	NotStandalone bool
	// Deprecated, when not empty, says why the token should not be used
	// although Slurm still accepts it.
	Deprecated string
	// DeprecatedFrom, when valid, is the first series Deprecated applies
	// to; older series honour the token.
	DeprecatedFrom Version
	// Ignored, when not empty, says that series newer than the token's
	// last one accept and ignore it (a warning, not an error), and why.
	Ignored string
	// ArgValues, when not empty, are the only arguments Slurm accepts for
	// the token; the argument is then required. Anything else is fatal.
	ArgValues []string
	// ArgPrefix, with ArgValues, says that Slurm compares only the first
	// ArgPrefix characters of the argument with them (bf_hetjob_prio:
	// xstrncasecmp(arg, "min", 3)), so "minimum" is taken as "min".
	ArgPrefix int
	// ArgRanges are the ranges Slurm checks the numeric argument against,
	// each for the series in its In (see ArgRangeIn).
	ArgRanges []ArgRange
	// Reject, when not empty, says why Slurm fails on this token although it
	// recognises it.
	Reject string
	// RejectIn, when not empty, limits Reject to these series.
	RejectIn VersionSet
	// Library is the plugin's shared object ("select_cons_tres.so"), or ""
	// for a value that is not a plugin.
	Library string
	// NotShipped is the set of series whose Debian slurm package does not
	// ship Library (data/debian_plugins.tsv): whether the plugin exists
	// depends on how Slurm was built.
	NotShipped VersionSet
	// Package, when not empty, is the Debian package other than
	// slurm-wlm-basic-plugins that ships Library (slurm-wlm-hdf5-plugin):
	// a Slurm image has the plugin only if it installs that package.
	Package string
	// Needs, when not empty, is what the plugin needs on the controller
	// that the service does not provide and a spec cannot supply (such as
	// job_submit.lua): slurmctld fails or logs errors without it.
	Needs string
	// NeedsKey, when not empty, is a key whose setting provides what Needs
	// names (JobCompLoc for jobcomp/script), then, space-separated, the
	// tokens that setting must all hold ("CertmgrParameters
	// sign_csr_script generate_csr_script ..."; NeedsTokens splits it).
	NeedsKey string
	// NeedsSilentIn is the set of series whose slurmctld starts without
	// what Needs names and logs no error: the plugin then delivers
	// nothing (22.05's jobcomp/elasticsearch without JobCompLoc).
	NeedsSilentIn VersionSet
	// Note is the reference data's note.
	Note string
}

// ArgParse is how Slurm turns an option argument into a number.
type ArgParse uint8

// Argument parsers.
const (
	// ParseAtoi is atoi: optional sign and leading digits, anything after
	// them ignored, 0 when there are none ("abc" and "" read as 0); the
	// result is a C int.
	ParseAtoi ArgParse = iota
	// ParseStrtol is strtol(arg, NULL, 10) into a long: like atoi with a
	// 64-bit result.
	ParseStrtol
	// ParseStrtoull is strtoull(arg, NULL, 10): a leading "-" negates the
	// value as an unsigned 64-bit number ("-1" is 18446744073709551615).
	ParseStrtoull
)

var argParseNames = [...]string{"atoi", "strtol", "strtoull"}

// String returns the C function's name.
func (a ArgParse) String() string {
	if int(a) < len(argParseNames) {
		return argParseNames[a]
	}
	return "invalid"
}

// ArgRange is the range Slurm checks a list option's numeric argument
// against (SchedulerParameters=bf_interval=N).
type ArgRange struct {
	// Min and Max bound the number read, inclusive.
	Min, Max int64
	// Also are numbers outside Min..Max that Slurm accepts too
	// (bf_interval=-1 disables backfill).
	Also []int64
	// Parse is how Slurm reads the argument.
	Parse ArgParse
	// Fatal reports that a number out of range makes the daemon exit;
	// otherwise Slurm logs an error and uses its default.
	Fatal bool
	// Unit, when not empty, names the argument's unit ("minutes").
	Unit string
	// In, when not empty, limits the range to these series.
	In VersionSet
	// Why, when not empty, says what checks the range when it is not the
	// option's parser (Linux's TCP keepalive limits).
	Why string
}

// ArgRangeIn returns the range Slurm of series v checks ev's argument
// against, or nil.
func (ev *EnumValue) ArgRangeIn(v Version) *ArgRange {
	for i := range ev.ArgRanges {
		if r := &ev.ArgRanges[i]; r.In.Empty() || r.In.Has(v) {
			return r
		}
	}
	return nil
}

// Accepts reports whether Slurm accepts the number n.
func (r *ArgRange) Accepts(n int64) bool {
	if n >= r.Min && n <= r.Max {
		return true
	}
	for _, a := range r.Also {
		if a == n {
			return true
		}
	}
	return false
}

// Example returns a number in the range that no rule between tokens
// rejects when the option stands alone: 2 clamped to Min..Max (1 would
// make bf_max_job_test leave bf_node_space_size invalid).
func (r *ArgRange) Example() int64 {
	return min(max(2, r.Min), r.Max)
}

// String renders the range as in overrides.tsv's arg_range ("1..10800").
func (r *ArgRange) String() string {
	s := fmt.Sprintf("%d..%d", r.Min, r.Max)
	for _, a := range r.Also {
		s += fmt.Sprintf(" or %d", a)
	}
	return s
}

// NeedsTokens splits NeedsKey into the key and the tokens its value must
// hold (none when any value will do).
func (ev EnumValue) NeedsTokens() (key string, tokens []string) {
	f := strings.Fields(ev.NeedsKey)
	if len(f) == 0 {
		return "", nil
	}
	return f[0], f[1:]
}

// StatusSpan is a status that holds from a series on (until the next span).
type StatusSpan struct {
	// From is the first series with Status.
	From Version
	// Status is the key's status from From on.
	Status Status
	// Replacement is the replacement key or key=value, if any.
	Replacement string
}

// UnknownPolicy says how CheckValue treats a token that matches no value.
type UnknownPolicy uint8

// Policies for unknown tokens.
const (
	// UnknownError reports an unknown token as an error.
	UnknownError UnknownPolicy = iota
	// UnknownWarn reports it as a warning because the catalog is not sure
	// the value list is complete (man-only rows, open grammars).
	UnknownWarn
	// UnknownAllow accepts any token (open sets such as GresTypes).
	UnknownAllow
)

// TimeRule is the extra check that read_config.c applies after parsing a
// time string.
type TimeRule uint8

// Time rules (see data/time_format.md).
const (
	// TimeNonNegative: a negative result other than INFINITE is rejected
	// (MaxTime, DefaultTime, PriorityDecayHalfLife, PriorityMaxAge).
	TimeNonNegative TimeRule = iota
	// TimeSyntaxOnly: only a malformed string is rejected
	// (PreemptExemptTime).
	TimeSyntaxOnly
	// TimePositive: the result must be at least one minute; INFINITE and 0
	// are rejected (PriorityCalcPeriod).
	TimePositive
)

// Param is one slurm.conf key in one scope. Params returned by a Catalog are
// shared and must be treated as read-only.
type Param struct {
	// Name is the key as Slurm spells it.
	Name string
	// Scope is the line kind the key belongs to.
	Scope Scope
	// Kind is the value grammar.
	Kind Kind
	// ParserType is the S_P_* type in the newest series that has the key.
	ParserType string
	// Status is the status in the newest series that has the key (or
	// StatusRemoved for a removed key).
	Status Status
	// Replacement is the replacement key (or key=value) for deprecated,
	// alias and accepted-but-fatal keys.
	Replacement string
	// FirstSeen is the first series with the key (22.05 means "22.05 or
	// older").
	FirstSeen Version
	// RemovedIn is the first series without the key, or 0.
	RemovedIn Version
	// PresentIn is the set of series whose option table has the key.
	PresentIn VersionSet
	// Repeatable is the set of series in which the key is an S_P_ARRAY and
	// may appear more than once.
	Repeatable VersionSet
	// History lists status changes; nil means Status holds in every series
	// of PresentIn.
	History []StatusSpan
	// Values are the known tokens of enum, list and plugin keys (and the
	// documented values of some integer keys).
	Values []EnumValue
	// Unknown is the policy for tokens that match no value.
	Unknown UnknownPolicy
	// IntTokens reports whether a bare integer in [IntMin, IntMax] is also
	// accepted as a token (SlurmctldDebug=0..9, OverTimeLimit=<minutes>).
	// IntMax < 0 means no upper bound.
	IntTokens bool
	// IntMin and IntMax bound integer tokens when IntTokens is set.
	IntMin, IntMax int64
	// OptionalPrefixes are plugin-type prefixes that may be left out or
	// added, such as "task/" for TaskPlugin.
	OptionalPrefixes []string
	// TimeRule is the post-parse rule for KindTime keys.
	TimeRule TimeRule
	// Documented reports whether slurm.conf(5) of the newest series has a
	// heading for the key.
	Documented bool
	// NotInheritedFromDefault is set for partition and node keys that the
	// parser reads only from the line itself, never from a
	// PartitionName=DEFAULT or NodeName=DEFAULT line.
	NotInheritedFromDefault bool
	// IgnoredValues, for a StatusRemovedFatal key, are the values Slurm
	// only logs as an error and ignores instead of failing
	// (FastSchedule=1).
	IgnoredValues []string
	// Note is the reference data's note.
	Note string
}

// FatalValue reports whether value makes Slurm fail for a key whose status
// is StatusRemovedFatal: every value except IgnoredValues, which integer
// keys compare as numbers (FastSchedule=01 is 1).
func (p *Param) FatalValue(value string) bool {
	for _, iv := range p.IgnoredValues {
		if strings.EqualFold(iv, value) {
			return false
		}
		if p.Kind == KindUint16 || p.Kind == KindUint32 || p.Kind == KindUint64 {
			a, aok, _ := cStrtoul(iv, false)
			b, bok, _ := cStrtoul(value, p.Kind != KindUint16)
			if aok && bok && a == b && value != "" && !strings.HasPrefix(strings.TrimLeft(value, " \t"), "-") {
				return false
			}
		}
	}
	return true
}

// IsList reports whether the value is a comma-separated list.
func (p *Param) IsList() bool { return p.Kind == KindList }

// ExistsIn reports whether the key is in the option table of series v.
func (p *Param) ExistsIn(v Version) bool { return p.PresentIn.Has(v) }

// ValuesIn returns the values accepted in series v.
func (p *Param) ValuesIn(v Version) []EnumValue {
	var out []EnumValue
	for _, ev := range p.Values {
		if ev.PresentIn.Has(v) {
			out = append(out, ev)
		}
	}
	return out
}
