package rules

import (
	"math"
	"strconv"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/compiler/managed"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// setting is one Key=Value of the effective global slurm.conf.
type setting struct {
	Key, Value string
	// KV is the user's pair, or nil when the value comes from the
	// service's baseline.
	KV *ir.KV
}

// conf is the effective slurm.conf a rule reasons about: what the renderer
// writes (the managed baseline, the service defaults the user did not
// override, then the user's config), plus Slurm's own defaults for keys
// nobody sets. Keys are compared case-insensitively, as Slurm does.
type conf struct {
	c      *ir.Cluster
	v      catalog.Version
	global map[string]setting
	// unknown holds the keys whose value the schema refused, and
	// incomplete is set when it refused a key itself (the pair may stand
	// for any key): a rule that reads them reads nothing it may reason
	// about (lint.Pass.ReadUnknown, through pass).
	unknown    map[string]bool
	incomplete bool
	pass       *lint.Pass
}

// targetVersion returns the Slurm series of the run: the option's value,
// or the newest series when it is empty or not a known series (the CLI
// validates the flag).
func targetVersion(o lint.Options) catalog.Version {
	if v, err := catalog.ParseVersion(o.SlurmVersion); err == nil {
		return v
	}
	return catalog.Newest()
}

// effective builds the effective configuration of the pass's cluster.
func effective(p *lint.Pass) *conf {
	e := *p.Memo(effectiveKey{}, func() any { return buildEffective(p) }).(*conf)
	e.pass = p
	return &e
}

type effectiveKey struct{}

func buildEffective(p *lint.Pass) *conf {
	c := p.Cluster
	e := &conf{c: c, v: targetVersion(p.Options), global: map[string]setting{}}
	// A global config the schema refused (not a map, a misspelt key) may
	// set any key.
	e.incomplete = c.Unknown(c.Slurm.Path + ".config")
	for _, s := range managed.ReservedSettings(c) {
		e.global[strings.ToLower(s.Key)] = setting{Key: s.Key, Value: s.Value}
	}
	user := map[string]bool{}
	for _, kv := range c.Slurm.Config {
		user[strings.ToLower(kv.Key.Value)] = true
	}
	for _, s := range managed.DefaultSettings(c) {
		if !user[strings.ToLower(s.Key)] {
			e.global[strings.ToLower(s.Key)] = setting{Key: s.Key, Value: s.Value}
		}
	}
	for i := range c.Slurm.Config {
		kv := &c.Slurm.Config[i]
		if kv.Value.Unknown {
			if !c.Unsound.ValueOnly(kv.Key.Path) {
				e.incomplete = true // the key was refused: it may be any
			}
			if e.unknown == nil {
				e.unknown = map[string]bool{}
			}
			e.unknown[strings.ToLower(kv.Key.Value)] = true
			continue
		}
		if _, reserved := managed.Lookup(kv.Key.Value); reserved {
			// reserved-key reports it; the service's value stands.
			continue
		}
		e.global[strings.ToLower(kv.Key.Value)] = setting{Key: kv.Key.Value, Value: kv.Value.Value, KV: kv}
	}
	return e
}

// computePools returns the cluster's compute pools; when the schema
// refused a pool or the loginNodePoolId they are not known, and the pass's
// findings are unsound (a rule sums or searches over them).
func computePools(p *lint.Pass) []*ir.NodePool {
	if p.Cluster.ComputePoolsUnknown() {
		p.ReadUnknown()
	}
	return p.Cluster.ComputePools()
}

// get returns the effective setting of a global key. Reading a key whose
// value the schema refused (or, when it refused a key, any key the user
// does not set) makes the pass's findings unsound.
func (e *conf) get(key string) (setting, bool) {
	k := strings.ToLower(key)
	s, ok := e.global[k]
	if e.pass != nil && (e.unknown[k] || e.incomplete && s.KV == nil) {
		e.pass.ReadUnknown()
	}
	return s, ok
}

// user returns the user's pair for a global key, or nil.
func (e *conf) user(key string) *ir.KV {
	if s, ok := e.get(key); ok {
		return s.KV
	}
	return nil
}

// val returns the effective value of a global key, or Slurm's default for
// the target series when nobody sets it.
func (e *conf) val(key string) string {
	if s, ok := e.get(key); ok {
		return s.Value
	}
	return slurmDefault(key, e.v)
}

// has reports whether the effective value of a global list key holds one
// of the tokens (compared case-insensitively, by the name before "=").
func (e *conf) has(key string, tokens ...string) bool {
	return hasToken(e.val(key), tokens...)
}

// num returns the effective value of a global integer key and whether it
// is a number as Slurm reads it (hex, octal, k, UNLIMITED for integer keys).
func (e *conf) num(key string) (int64, bool) {
	return slurmNum(catalog.ScopeGlobal, key, e.val(key))
}

// slurmNum reads the value of a key of the scope as Slurm stores it: an
// integer key through the catalog (strtoul's base 0: hex 0x10 and octal
// 020 included, and UNLIMITED as the kind's INFINITE; random seed
// 20265003 case 287), any other as a decimal with an optional K.
func slurmNum(scope catalog.Scope, key, value string) (int64, bool) {
	if param, ok := catalog.Default().Lookup(scope, key); ok {
		if n, ok := catalog.ParseNumber(param, value); ok {
			return int64(min(n, math.MaxInt64)), true
		}
	}
	return parseNum(value)
}

// slurmDefault is Slurm's built-in value of a key nobody sets, for the keys
// the rules reason about.
func slurmDefault(key string, v catalog.Version) string {
	switch strings.ToLower(key) {
	case "preempttype":
		return "preempt/none"
	case "preemptmode":
		return "OFF"
	case "prioritytype":
		if v < catalog.V2311 {
			return "priority/basic"
		}
		return "priority/multifactor"
	case "selecttype":
		// The service always writes select/cons_tres unless the spec sets
		// SelectType; this is Slurm's own default (non-Cray builds).
		if v < catalog.V2311 {
			return "select/linear"
		}
		return "select/cons_tres"
	case "schedulertype":
		return "sched/backfill"
	case "messagetimeout":
		return "10"
	case "jobrequeue":
		return "1"
	case "firstjobid":
		return "1"
	case "maxjobid":
		return "67043328"
	case "maxjobcount":
		return "10000"
	case "suspendrate":
		return "60"
	case "resumerate":
		return "300"
	}
	return ""
}

// tokenList splits a comma list into lower-case token names (the part
// before "=" or ":") mapped to their arguments.
func tokenList(value string) map[string]string {
	out := map[string]string{}
	for _, t := range strings.Split(value, ",") {
		t = strings.TrimSpace(t)
		if t == "" {
			continue
		}
		name, arg := t, ""
		if i := strings.IndexAny(t, "=:"); i >= 0 && !strings.Contains(t[:i], "/") {
			name, arg = t[:i], t[i+1:]
		}
		out[strings.ToLower(name)] = arg
	}
	return out
}

// hasToken reports whether a comma list holds one of the tokens.
func hasToken(value string, tokens ...string) bool {
	l := tokenList(value)
	for _, t := range tokens {
		if _, ok := l[strings.ToLower(t)]; ok {
			return true
		}
	}
	return false
}

// parseNum reads a Slurm integer: decimal, with an optional k/K suffix.
func parseNum(s string) (int64, bool) {
	mult := int64(1)
	if strings.HasSuffix(s, "k") || strings.HasSuffix(s, "K") {
		s, mult = s[:len(s)-1], 1024
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, false
	}
	// A K suffix saturates rather than wraps around to a small number.
	if n > math.MaxInt64/mult {
		return math.MaxInt64, true
	}
	if n < math.MinInt64/mult {
		return math.MinInt64, true
	}
	return n * mult, true
}

// lookupKV finds a key in a config map, ignoring case.
func lookupKV(kvs []ir.KV, key string) *ir.KV {
	for i := range kvs {
		if strings.EqualFold(kvs[i].Key.Value, key) {
			return &kvs[i]
		}
	}
	return nil
}

// preemptMode is a parsed PreemptMode value.
type preemptMode struct {
	// bases are the base modes in the order written, normalised to off,
	// cancel, requeue or suspend.
	bases                  []string
	gang, within, priority bool
}

// parsePreemptMode reads a PreemptMode value as preempt_mode_num does.
func parsePreemptMode(value string) preemptMode {
	var m preemptMode
	for _, t := range strings.Split(value, ",") {
		switch strings.ToLower(strings.TrimSpace(t)) {
		case "off", "cluster":
			m.bases = append(m.bases, "off")
		case "cancel":
			m.bases = append(m.bases, "cancel")
		case "requeue":
			m.bases = append(m.bases, "requeue")
		case "suspend", "on":
			m.bases = append(m.bases, "suspend")
		case "gang":
			m.gang = true
		case "within":
			m.within = true
		case "priority":
			m.priority = true
		}
	}
	return m
}

// base returns the single base mode, "off" when none is given.
func (m preemptMode) base() string {
	if len(m.bases) == 0 {
		return "off"
	}
	return m.bases[0]
}

// scopedMode is one PreemptMode setting: global or of a partition.
type scopedMode struct {
	kv   *ir.KV
	part *ir.Partition // nil for the global one
	mode preemptMode
}

// preemptModes returns the user's PreemptMode settings, global first.
func preemptModes(e *conf) []scopedMode {
	var out []scopedMode
	if kv := e.user("PreemptMode"); kv != nil {
		out = append(out, scopedMode{kv: kv, mode: parsePreemptMode(kv.Value.Value)})
	}
	for _, part := range e.c.Slurm.Partitions {
		if kv := lookupKV(part.Config, "PreemptMode"); kv != nil {
			out = append(out, scopedMode{kv: kv, part: part, mode: parsePreemptMode(kv.Value.Value)})
		}
	}
	return out
}

// preemptType returns the effective PreemptType, normalised to its plugin
// name ("none", "partition_prio", "qos").
func (e *conf) preemptType() string {
	v := strings.ToLower(e.val("PreemptType"))
	v = strings.TrimPrefix(v, "preempt/")
	if v == "" {
		return "none"
	}
	return v
}

// memoryTracked reports whether the effective SelectTypeParameters make the
// select plugin track memory.
func memoryTracked(value string) bool {
	for t := range tokenList(value) {
		if t == "cr_memory" || strings.HasSuffix(t, "_memory") {
			return true
		}
	}
	return false
}

// memoryTracked reports whether the effective global SelectTypeParameters
// make the select plugin track memory, as Slurm of the target series reads
// them: a value that sets nothing is CR_Core_Memory to 22.05-23.11's
// consumable-resource plugins (setsNoBit).
func (e *conf) memoryTracked() bool {
	v := strings.ToLower(e.val("SelectType"))
	if e.v <= catalog.V2311 && (strings.Contains(v, "cons_tres") || strings.Contains(v, "cons_res")) {
		if toks := tokenList(e.val("SelectTypeParameters")); len(toks) > 0 && setsNoBit(toks, e.v) {
			return true
		}
	}
	return memoryTracked(e.val("SelectTypeParameters"))
}

// partMemoryTracked reports whether a partition's allocations track memory:
// by its own SelectTypeParameters (S7), read as Slurm reads it (the unit
// name the value begins with, the rest ignored), else as tracked says.
func partMemoryTracked(e *conf, part *ir.Partition, tracked bool) bool {
	stp := lookupKV(part.Config, "SelectTypeParameters")
	if stp == nil {
		return tracked
	}
	value := stp.Value.Value
	if param, ok := catalog.Default().Lookup(catalog.ScopePartition, "SelectTypeParameters"); ok {
		if ev, ok := param.Token(e.v, value); ok {
			value = ev.Name
		}
	}
	return memoryTracked(value)
}

// pluginIs reports whether a plugin value names the plugin, with or without
// its type prefix.
func pluginIs(value, name string) bool {
	v := strings.ToLower(value)
	name = strings.ToLower(name)
	if v == name {
		return true
	}
	if i := strings.IndexByte(name, '/'); i >= 0 {
		return v == name[i+1:]
	}
	return false
}

// userAnchor is where a cross-key finding is reported: the first of the
// user's settings among keys, by value position.
func (e *conf) userAnchor(keys ...string) (*ir.KV, bool) {
	for _, k := range keys {
		if kv := e.user(k); kv != nil {
			return kv, true
		}
	}
	return nil, false
}

// reportValue reports at a pair's value.
func reportValue(p *lint.Pass, kv *ir.KV, hint, format string, args ...any) {
	p.Report(kv.Value.Pos, kv.Value.Path, hint, format, args...)
}

// reportValueAs reports at a pair's value with an explicit severity.
func reportValueAs(p *lint.Pass, sev diag.Severity, kv *ir.KV, hint, format string, args ...any) {
	p.ReportAs(sev, kv.Value.Pos, kv.Value.Path, hint, format, args...)
}

// reportKey reports at a pair's key.
func reportKey(p *lint.Pass, kv *ir.KV, hint, format string, args ...any) {
	p.Report(kv.Key.Pos, kv.Key.Path, hint, format, args...)
}

// doc formats a rule document: why, then a bad and a good YAML example.
func doc(why, bad, good string) string {
	return why + "\n\nBad:\n\n```yaml\n" + strings.TrimSpace(bad) + "\n```\n\nGood:\n\n```yaml\n" + strings.TrimSpace(good) + "\n```\n"
}
