// Package gencore turns the reference data in schema/catalog/data into the
// Go source of schema/catalog/catalog_gen.go. It is shared by the
// generator command (internal/gen) and by the test that checks the generated
// file is current.
package gencore

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"go/format"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// OutputFile is the name of the generated file, relative to the package.
const OutputFile = "catalog_gen.go"

var versionLabels = []string{"22.05", "23.02", "23.11", "24.05", "24.11", "25.05", "25.11", "26.05"}

var versionConsts = map[string]string{
	"22.05": "V2205", "23.02": "V2302", "23.11": "V2311", "24.05": "V2405",
	"24.11": "V2411", "25.05": "V2505", "25.11": "V2511", "26.05": "V2605",
}

// row is one TSV record keyed by column name.
type row map[string]string

// value is the generator's model of catalog.EnumValue.
type value struct {
	name           string
	source         []string
	presentIn      uint16
	takesArg       bool
	argSep         byte
	argOptional    bool
	match          string
	substr         string
	caseSensitive  bool
	notStandalone  bool
	deprecated     string
	deprecatedFrom int // index into versionLabels, -1 for every series
	ignored        string
	argValues      []string
	reject         string
	rejectIn       uint16
	library        string
	notShipped     uint16
	pkg            string
	needs          string
	needsKey       string
	note           string
	listSemantics  string
}

// span is one entry of a status history.
type span struct {
	from        int // index into versionLabels
	status      string
	replacement string
}

// param is the generator's model of catalog.Param.
type param struct {
	name, scope      string
	kind             string
	parserType       string
	status           string
	replacement      string
	firstSeen        int
	removedIn        int // -1 when still present
	presentIn        uint16
	repeatable       uint16
	history          []span
	values           []*value
	unknown          string
	intTokens        bool
	intMin, intMax   int64
	optionalPrefixes []string
	timeRule         string
	documented       bool
	notInherited     bool
	note             string
	timeString       bool // a <time-string> placeholder row was seen
	ignoredValues    []string
}

func (p *param) key() string { return p.scope + "\x00" + strings.ToLower(p.name) }

// Generate reads dataDir and returns the gofmt'ed source of catalog_gen.go.
func Generate(dataDir string) ([]byte, error) {
	g := &generator{dir: dataDir, params: map[string]*param{}}
	steps := []func() error{
		g.loadKeys,
		g.loadHistory,
		g.loadEnums,
		g.loadOverrides,
		g.decideKinds,
		g.loadDebianPlugins,
		g.crossCheck,
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, err
		}
	}
	src := g.emit()
	out, err := format.Source(src)
	if err != nil {
		return nil, fmt.Errorf("gofmt generated catalog: %w", err)
	}
	return out, nil
}

type generator struct {
	dir       string
	params    map[string]*param
	boolTrue  []string
	boolFalse []string
}

func (g *generator) readTSV(name string) ([]row, error) {
	path := filepath.Join(g.dir, name)
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open reference data: %w", err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comma = '\t'
	r.LazyQuotes = true
	r.FieldsPerRecord = 0
	header, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("read header of %s: %w", path, err)
	}
	var rows []row
	for line := 2; ; line++ {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
		m := row{}
		for i, h := range header {
			m[h] = strings.TrimSpace(rec[i])
		}
		m["#where"] = fmt.Sprintf("%s:%d", name, line)
		rows = append(rows, m)
	}
	return rows, nil
}

func versionIndex(label string) (int, error) {
	for i, l := range versionLabels {
		if l == label {
			return i, nil
		}
	}
	return -1, fmt.Errorf("unknown series %q", label)
}

func versionSet(list string) (uint16, error) {
	var s uint16
	if list == "" {
		return 0, nil
	}
	for _, l := range strings.Split(list, ",") {
		i, err := versionIndex(strings.TrimSpace(l))
		if err != nil {
			return 0, err
		}
		s |= 1 << i
	}
	return s, nil
}

var scopeOfLine = map[string]string{
	"global": "global", "PartitionName": "partition", "NodeName": "node", "NodeSet": "nodeset",
	"DownNodes": "downnodes", "FrontendName": "frontend", "PowerAction": "poweraction",
}

var spanRe = regexp.MustCompile(`^(\d\d\.\d\d)(?:\.\.(\d\d\.\d\d))?:(S_P_[A-Z0-9]+)`)

func (g *generator) loadKeys() error {
	for _, file := range []string{"global.tsv", "partition.tsv", "node.tsv", "other_lines.tsv"} {
		rows, err := g.readTSV(file)
		if err != nil {
			return err
		}
		for _, r := range rows {
			if err := g.addKey(r); err != nil {
				return fmt.Errorf("%s: %w", r["#where"], err)
			}
		}
	}
	return nil
}

func (g *generator) addKey(r row) error {
	scope, ok := scopeOfLine[r["line"]]
	if !ok {
		return fmt.Errorf("unknown line %q", r["line"])
	}
	p := &param{name: r["name"], scope: scope, parserType: r["parser_type"], status: r["status"], note: r["notes"], removedIn: -1}
	var err error
	if p.firstSeen, err = versionIndex(r["first_seen_in"]); err != nil {
		return fmt.Errorf("key %s: %w", p.name, err)
	}
	if r["removed_in"] != "" {
		if p.removedIn, err = versionIndex(r["removed_in"]); err != nil {
			return fmt.Errorf("key %s: %w", p.name, err)
		}
	}
	if p.presentIn, err = versionSet(r["present_in"]); err != nil {
		return fmt.Errorf("key %s present_in: %w", p.name, err)
	}
	switch d := r["deprecated_or_alias"]; d {
	case "", "no", "yes":
	default:
		p.replacement = d
	}
	p.documented = r["documented_in_man_newest"] == "yes"
	p.notInherited = r["inherits_from_DEFAULT_line"] == "no"
	for _, part := range strings.Split(r["parser_type_history"], ";") {
		m := spanRe.FindStringSubmatch(strings.TrimSpace(part))
		if m == nil {
			return fmt.Errorf("key %s: bad parser_type_history %q", p.name, part)
		}
		from, err := versionIndex(m[1])
		if err != nil {
			return fmt.Errorf("key %s: %w", p.name, err)
		}
		to := from
		if m[2] != "" {
			if to, err = versionIndex(m[2]); err != nil {
				return fmt.Errorf("key %s: %w", p.name, err)
			}
		}
		if m[3] == "S_P_ARRAY" {
			for i := from; i <= to; i++ {
				p.repeatable |= 1 << i
			}
		}
	}
	if _, dup := g.params[p.key()]; dup {
		return fmt.Errorf("duplicate key %s in scope %s", p.name, p.scope)
	}
	g.params[p.key()] = p
	return nil
}

func (g *generator) lookup(scope, name string) *param {
	return g.params[scope+"\x00"+strings.ToLower(name)]
}

var knownStatus = map[string]bool{
	"active": true, "deprecated": true, "alias": true, "defunct": true,
	"removed_fatal": true, "unused": true, "removed": true, "line": true,
}

func (g *generator) loadHistory() error {
	rows, err := g.readTSV("status_history.tsv")
	if err != nil {
		return err
	}
	for _, r := range rows {
		p := g.lookup(r["scope"], r["name"])
		if p == nil {
			return fmt.Errorf("%s: no key %s in scope %s", r["#where"], r["name"], r["scope"])
		}
		from, err := versionIndex(r["from"])
		if err != nil {
			return fmt.Errorf("%s: %w", r["#where"], err)
		}
		if !knownStatus[r["status"]] {
			return fmt.Errorf("%s: unknown status %q", r["#where"], r["status"])
		}
		if n := len(p.history); n > 0 && p.history[n-1].from >= from {
			return fmt.Errorf("%s: history of %s is not in series order", r["#where"], p.name)
		}
		p.history = append(p.history, span{from: from, status: r["status"], replacement: r["replacement"]})
	}
	for _, p := range g.params {
		if len(p.history) == 0 {
			continue
		}
		first := p.history[0]
		if first.from != lowestBit(p.presentIn) {
			return fmt.Errorf("status_history: %s starts in %s but the key is present from %s", p.name, versionLabels[first.from], versionLabels[lowestBit(p.presentIn)])
		}
		last := p.history[len(p.history)-1]
		want := p.status
		if p.status == "removed" {
			continue // the history describes the series before the removal
		}
		if last.status != want {
			return fmt.Errorf("status_history: %s ends as %s but its table says %s", p.name, last.status, want)
		}
		if last.replacement != p.replacement {
			return fmt.Errorf("status_history: %s ends with replacement %q but its table says %q", p.name, last.replacement, p.replacement)
		}
	}
	return nil
}

func lowestBit(s uint16) int {
	for i := range versionLabels {
		if s&(1<<i) != 0 {
			return i
		}
	}
	return -1
}

var enumScope = map[string]string{"global": "global", "partition": "partition", "node": "node", "downnodes": "downnodes"}

var (
	substrRe   = regexp.MustCompile(`code (?:tests|checks) (?:for )?(?:the )?substring (\w+)`)
	prefixOpRe = regexp.MustCompile(`^(\w+/) prefix optional`)
)

func (g *generator) loadEnums() error {
	rows, err := g.readTSV("enums.tsv")
	if err != nil {
		return err
	}
	for _, r := range rows {
		if r["scope"] == "any" {
			switch r["notes"] {
			case "true-ish":
				g.boolTrue = append(g.boolTrue, r["value"])
			case "false-ish":
				g.boolFalse = append(g.boolFalse, r["value"])
			default:
				return fmt.Errorf("%s: boolean row without true-ish/false-ish note", r["#where"])
			}
			continue
		}
		scope, ok := enumScope[r["scope"]]
		if !ok {
			return fmt.Errorf("%s: unknown scope %q", r["#where"], r["scope"])
		}
		p := g.lookup(scope, r["parameter"])
		if p == nil {
			return fmt.Errorf("%s: no key %s in scope %s", r["#where"], r["parameter"], scope)
		}
		if err := g.addValue(p, r); err != nil {
			return fmt.Errorf("%s: %w", r["#where"], err)
		}
	}
	sort.Strings(g.boolTrue)
	sort.Strings(g.boolFalse)
	if len(g.boolTrue)+len(g.boolFalse) != 8 {
		return fmt.Errorf("enums.tsv: want 8 boolean tokens, got %d", len(g.boolTrue)+len(g.boolFalse))
	}
	return nil
}

func (g *generator) addValue(p *param, r row) error {
	name, note := r["value"], r["notes"]
	switch {
	case name == "<boolean>":
		if p.parserType != "S_P_BOOLEAN" {
			return fmt.Errorf("%s: <boolean> row for a %s key", p.name, p.parserType)
		}
		return nil
	case name == "<time-string>":
		p.timeString = true
		return nil
	case name == "<minutes>":
		p.intTokens, p.intMin, p.intMax = true, 0, -1
		return nil
	case name == "<0-9>":
		p.intTokens, p.intMin, p.intMax = true, 0, 9
		return nil
	case strings.HasPrefix(name, "<"):
		return fmt.Errorf("%s: unknown placeholder %q", p.name, name)
	}
	v := &value{name: name, note: note, listSemantics: r["list_semantics"], argSep: '=', deprecatedFrom: -1}
	v.source = strings.Split(r["source"], "+")
	for _, s := range v.source {
		if s != "code" && s != "plugin" && s != "man" {
			return fmt.Errorf("%s=%s: unknown source %q", p.name, name, s)
		}
	}
	var err error
	if v.presentIn, err = versionSet(r["present_in"]); err != nil {
		return fmt.Errorf("%s=%s present_in: %w", p.name, name, err)
	}
	v.takesArg = r["takes_arg"] == "yes"
	hasPlugin := strings.Contains(r["source"], "plugin")
	v.caseSensitive = hasPlugin
	lnote := strings.ToLower(note)
	switch {
	case strings.Contains(lnote, "any value containing none"):
		v.match, v.substr = "contains", "none"
	case substrRe.MatchString(note):
		v.match, v.substr = "contains", strings.ToLower(substrRe.FindStringSubmatch(note)[1])
	case strings.Contains(lnote, "matched by prefix"), strings.Contains(lnote, "prefix compare"), strings.Contains(lnote, "prefix match"):
		v.match = "prefix"
	case strings.Contains(name, "<"):
		v.match = "template"
	}
	if strings.Contains(note, ":<count> suffix") {
		v.argSep, v.argOptional, v.takesArg = ':', true, true
	}
	if strings.Contains(lnote, "not a standalone option") {
		v.notStandalone = true
	}
	if m := prefixOpRe.FindStringSubmatch(note); m != nil && !contains(p.optionalPrefixes, m[1]) {
		p.optionalPrefixes = append(p.optionalPrefixes, m[1])
	}
	for _, old := range p.values {
		if strings.EqualFold(old.name, name) {
			return fmt.Errorf("%s: duplicate value %q", p.name, name)
		}
	}
	p.values = append(p.values, v)
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (g *generator) loadOverrides() error {
	rows, err := g.readTSV("overrides.tsv")
	if err != nil {
		return err
	}
	for _, r := range rows {
		if err := g.applyOverride(r); err != nil {
			return fmt.Errorf("%s: %w", r["#where"], err)
		}
	}
	return nil
}

func (g *generator) applyOverride(r row) error {
	p := g.lookup(r["scope"], r["parameter"])
	if p == nil {
		return fmt.Errorf("no key %s in scope %s", r["parameter"], r["scope"])
	}
	attr, set := r["attribute"], r["setting"]
	if r["value"] == "*" {
		switch attr {
		case "kind":
			p.kind = set
		case "time_rule":
			p.timeRule = set
		case "unknown":
			p.unknown = set
		case "int_tokens":
			lo, hi, ok := strings.Cut(set, "..")
			if !ok {
				return fmt.Errorf("int_tokens %q: want min..max", set)
			}
			p.intTokens, p.intMin, p.intMax = true, 0, -1
			if lo != "" {
				n, err := strconv.ParseInt(lo, 10, 64)
				if err != nil {
					return fmt.Errorf("int_tokens %q: %w", set, err)
				}
				p.intMin = n
			}
			if hi != "" {
				n, err := strconv.ParseInt(hi, 10, 64)
				if err != nil {
					return fmt.Errorf("int_tokens %q: %w", set, err)
				}
				p.intMax = n
			}
		case "optional_prefix":
			for _, s := range strings.Split(set, ",") {
				if !contains(p.optionalPrefixes, s) {
					p.optionalPrefixes = append(p.optionalPrefixes, s)
				}
			}
		case "ignored_values":
			p.ignoredValues = strings.Split(set, "|")
		case "values_present_in":
			if set != "key" {
				return fmt.Errorf("values_present_in %q: only \"key\" is supported", set)
			}
			for _, v := range p.values {
				v.presentIn = p.presentIn
			}
		default:
			return fmt.Errorf("unknown key attribute %q", attr)
		}
		return nil
	}
	var v *value
	for _, x := range p.values {
		if x.name == r["value"] {
			v = x
		}
	}
	if v == nil {
		return fmt.Errorf("%s has no value %q", p.name, r["value"])
	}
	switch attr {
	case "present_in":
		s, err := versionSet(set)
		if err != nil {
			return err
		}
		v.presentIn = s
	case "match":
		kind, sub, _ := strings.Cut(set, ":")
		v.match, v.substr = kind, sub
		if kind == "exact" {
			v.match, v.substr = "", ""
		}
	case "deprecated":
		v.deprecated = set
	case "deprecated_from":
		i, err := versionIndex(set)
		if err != nil {
			return fmt.Errorf("deprecated_from: %w", err)
		}
		v.deprecatedFrom = i
	case "ignored":
		v.ignored = set
	case "arg_values":
		v.argValues = strings.Split(set, "|")
		v.takesArg = true
	case "library":
		v.library = set
	case "needs":
		v.needs = set
	case "needs_key":
		v.needsKey = set
	case "reject_in":
		rs, err := versionSet(set)
		if err != nil {
			return fmt.Errorf("reject_in: %w", err)
		}
		v.rejectIn = rs
	case "reject":
		v.reject = set
	default:
		return fmt.Errorf("unknown value attribute %q", attr)
	}
	return nil
}

// libraryPrefix is the shared-object prefix of keys whose values are bare
// plugin names ("lua" for JobSubmitPlugins is job_submit_lua.so).
var libraryPrefix = map[string]string{"JobSubmitPlugins": "job_submit_", "MpiDefault": "mpi_"}

// noneBuiltIn is the index of 23.11 in versionLabels: from 23.11 Slurm has
// no "none" plugins; read_config.c unsets a plugin type that names none.
const noneBuiltIn = 2

// loadDebianPlugins reads debian_plugins.tsv, the shared objects that the
// Debian slurm packages of some series ship, and marks every plugin value
// present in such a series whose library is not among them.
func (g *generator) loadDebianPlugins() error {
	rows, err := g.readTSV("debian_plugins.tsv")
	if err != nil {
		return err
	}
	shipped := map[int]map[string]bool{}
	pkgOf := map[string]string{}
	for _, r := range rows {
		pkgOf[r["library"]], _, _ = strings.Cut(r["debian_package"], "=")
		i, err := versionIndex(r["series"])
		if err != nil {
			return fmt.Errorf("%s: %w", r["#where"], err)
		}
		if shipped[i] == nil {
			shipped[i] = map[string]bool{}
		}
		shipped[i][r["library"]] = true
	}
	for _, p := range g.params {
		if p.scope != "global" || p.name == "GresTypes" {
			continue // any GRES name may be declared, with or without a plugin
		}
		for _, v := range p.values {
			if v.library == "" && !contains(v.source, "plugin") && p.kind != "plugin" {
				continue
			}
			libs := strings.Split(v.library, "|")
			switch {
			case v.library == "builtin":
				continue
			case v.library != "":
			case strings.Contains(v.name, "/"):
				libs = []string{strings.ReplaceAll(v.name, "/", "_") + ".so"}
			case libraryPrefix[p.name] != "":
				libs = []string{libraryPrefix[p.name] + v.name + ".so"}
			default:
				continue
			}
			v.library = libs[0]
			if pkg := pkgOf[v.library]; pkg != "" && pkg != "slurm-wlm-basic-plugins" {
				v.pkg = pkg
			}
			for i, have := range shipped {
				if v.presentIn&(1<<i) == 0 || slices.ContainsFunc(libs, func(l string) bool { return have[l] }) {
					continue
				}
				if i >= noneBuiltIn && (v.name == "none" || strings.HasSuffix(v.name, "/none")) {
					continue
				}
				v.notShipped |= 1 << i
			}
		}
	}
	return nil
}

func (g *generator) decideKinds() error {
	for _, p := range g.params {
		if p.kind == "" {
			p.kind = naturalKind(p)
		}
		switch p.kind {
		case "time":
			if p.timeRule == "" {
				p.timeRule = "nonneg"
			}
		case "string", "enum", "list", "plugin", "bool", "uint16", "uint32", "uint64", "long", "float", "array", "line":
		default:
			return fmt.Errorf("%s: unknown kind %q", p.name, p.kind)
		}
		if p.timeRule != "" && p.kind != "time" {
			return fmt.Errorf("%s: time_rule on a %s key", p.name, p.kind)
		}
		if p.kind == "time" && p.parserType != "S_P_STRING" {
			return fmt.Errorf("%s: time kind on a %s key", p.name, p.parserType)
		}
		if p.unknown == "" {
			p.unknown = "error"
			certain := false
			for _, v := range p.values {
				if contains(v.source, "code") || contains(v.source, "plugin") {
					certain = true
				}
			}
			if !certain || isIntKind(p.kind) {
				p.unknown = "warn"
			}
		}
	}
	return nil
}

func isIntKind(k string) bool {
	return k == "uint16" || k == "uint32" || k == "uint64" || k == "long"
}

func naturalKind(p *param) string {
	switch p.parserType {
	case "S_P_BOOLEAN":
		return "bool"
	case "S_P_UINT16":
		return "uint16"
	case "S_P_UINT32":
		return "uint32"
	case "S_P_UINT64":
		return "uint64"
	case "S_P_LONG":
		return "long"
	case "S_P_FLOAT", "S_P_DOUBLE":
		return "float"
	case "S_P_ARRAY":
		if p.status == "line" || len(p.history) > 0 && p.history[0].status == "line" {
			return "line"
		}
		return "array"
	}
	if p.timeString {
		return "time"
	}
	if len(p.values) == 0 {
		return "string"
	}
	allPlugins := true
	for _, v := range p.values {
		if v.listSemantics == "comma-list" {
			return "list"
		}
		if !strings.Contains(v.name, "/") && !(v.match == "contains" && v.substr == "none") {
			allPlugins = false
		}
	}
	if allPlugins {
		return "plugin"
	}
	return "enum"
}

// crossCheck compares the catalog with bookworm_vs_newest_keys.tsv, an
// independent summary of the 22.05.8 and 26.05 option tables.
func (g *generator) crossCheck() error {
	rows, err := g.readTSV("bookworm_vs_newest_keys.tsv")
	if err != nil {
		return err
	}
	for _, r := range rows {
		scope, ok := scopeOfLine[r["line"]]
		if !ok {
			return fmt.Errorf("%s: unknown line %q", r["#where"], r["line"])
		}
		p := g.lookup(scope, r["name"])
		if p == nil {
			return fmt.Errorf("%s: no key %s in scope %s", r["#where"], r["name"], scope)
		}
		in22 := p.presentIn&1 != 0
		in26 := p.presentIn&(1<<7) != 0
		if (r["in_22.05.8"] == "yes") != in22 || (r["in_26.05"] == "yes") != in26 {
			return fmt.Errorf("%s: %s presence disagrees with the key tables", r["#where"], p.name)
		}
		if in22 {
			if got := statusAt(p, 0); got != r["status_22.05"] {
				return fmt.Errorf("%s: %s is %s in 22.05 per status_history, %s per the diff", r["#where"], p.name, got, r["status_22.05"])
			}
		}
		if in26 && p.status != r["status_26.05"] {
			return fmt.Errorf("%s: %s is %s in 26.05 per the key table, %s per the diff", r["#where"], p.name, p.status, r["status_26.05"])
		}
	}
	return nil
}

// statusAt returns the status of p in series i, as StatusIn would.
func statusAt(p *param, i int) string {
	if len(p.history) == 0 {
		if p.status == "removed" {
			return "active"
		}
		return p.status
	}
	st := ""
	for _, s := range p.history {
		if s.from <= i {
			st = s.status
		}
	}
	return st
}

var statusConst = map[string]string{
	"active": "StatusActive", "deprecated": "StatusDeprecated", "alias": "StatusAlias", "defunct": "StatusDefunct",
	"removed_fatal": "StatusRemovedFatal", "unused": "StatusUnused", "removed": "StatusRemoved", "line": "StatusLine",
}

var kindConst = map[string]string{
	"string": "KindString", "bool": "KindBool", "uint16": "KindUint16", "uint32": "KindUint32", "uint64": "KindUint64",
	"long": "KindLong", "float": "KindFloat", "time": "KindTime", "enum": "KindEnum", "list": "KindList",
	"plugin": "KindPlugin", "array": "KindArray", "line": "KindLine",
}

var scopeConst = map[string]string{
	"global": "ScopeGlobal", "partition": "ScopePartition", "node": "ScopeNode", "nodeset": "ScopeNodeSet",
	"downnodes": "ScopeDownNodes", "frontend": "ScopeFrontend", "poweraction": "ScopePowerAction",
}

var scopeOrder = map[string]int{"global": 1, "partition": 2, "node": 3, "nodeset": 4, "downnodes": 5, "frontend": 6, "poweraction": 7}

func (g *generator) sorted() []*param {
	out := make([]*param, 0, len(g.params))
	for _, p := range g.params {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := strings.ToLower(out[i].name), strings.ToLower(out[j].name)
		if a != b {
			return a < b
		}
		return scopeOrder[out[i].scope] < scopeOrder[out[j].scope]
	})
	return out
}

func (g *generator) emit() []byte {
	var b bytes.Buffer
	b.WriteString("// Code generated by \"go run ./internal/gen\" from data/*.tsv; DO NOT EDIT.\n\n")
	b.WriteString("package catalog\n\n")
	params := g.sorted()
	b.WriteString("// genKeys holds the lower-cased names of genParams, in the same order.\n")
	b.WriteString("var genKeys = [...]string{\n")
	for _, p := range params {
		fmt.Fprintf(&b, "%q,\n", strings.ToLower(p.name))
	}
	b.WriteString("}\n\n")
	fmt.Fprintf(&b, "// boolTrueTokens and boolFalseTokens are the S_P_BOOLEAN words (any case).\n")
	fmt.Fprintf(&b, "var boolTrueTokens = [...]string{%s}\n\n", quoteList(g.boolTrue))
	fmt.Fprintf(&b, "var boolFalseTokens = [...]string{%s}\n\n", quoteList(g.boolFalse))
	b.WriteString("// genParams is the catalog, sorted by lower-cased name, then scope.\n")
	b.WriteString("var genParams = [...]Param{\n")
	for _, p := range params {
		emitParam(&b, p)
	}
	b.WriteString("}\n")
	return b.Bytes()
}

func quoteList(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}

func setLit(s uint16) string { return fmt.Sprintf("0x%02x", s) }

func emitParam(b *bytes.Buffer, p *param) {
	f := []string{
		"Name: " + strconv.Quote(p.name),
		"Scope: " + scopeConst[p.scope],
		"Kind: " + kindConst[p.kind],
		"ParserType: " + strconv.Quote(p.parserType),
		"Status: " + statusConst[p.status],
	}
	if p.replacement != "" {
		f = append(f, "Replacement: "+strconv.Quote(p.replacement))
	}
	f = append(f, "FirstSeen: "+versionConsts[versionLabels[p.firstSeen]])
	if p.removedIn >= 0 {
		f = append(f, "RemovedIn: "+versionConsts[versionLabels[p.removedIn]])
	}
	f = append(f, "PresentIn: "+setLit(p.presentIn))
	if p.repeatable != 0 {
		f = append(f, "Repeatable: "+setLit(p.repeatable))
	}
	if len(p.history) > 0 {
		var hs []string
		for _, h := range p.history {
			s := fmt.Sprintf("{From: %s, Status: %s", versionConsts[versionLabels[h.from]], statusConst[h.status])
			if h.replacement != "" {
				s += ", Replacement: " + strconv.Quote(h.replacement)
			}
			hs = append(hs, s+"}")
		}
		f = append(f, "History: []StatusSpan{"+strings.Join(hs, ", ")+"}")
	}
	switch p.unknown {
	case "warn":
		f = append(f, "Unknown: UnknownWarn")
	case "allow":
		f = append(f, "Unknown: UnknownAllow")
	}
	if p.intTokens {
		f = append(f, "IntTokens: true", fmt.Sprintf("IntMin: %d", p.intMin), fmt.Sprintf("IntMax: %d", p.intMax))
	}
	if len(p.optionalPrefixes) > 0 {
		f = append(f, "OptionalPrefixes: []string{"+quoteList(p.optionalPrefixes)+"}")
	}
	switch p.timeRule {
	case "syntax":
		f = append(f, "TimeRule: TimeSyntaxOnly")
	case "positive":
		f = append(f, "TimeRule: TimePositive")
	}
	if p.documented {
		f = append(f, "Documented: true")
	}
	if p.notInherited {
		f = append(f, "NotInheritedFromDefault: true")
	}
	if len(p.ignoredValues) > 0 {
		f = append(f, "IgnoredValues: []string{"+quoteList(p.ignoredValues)+"}")
	}
	if p.note != "" {
		f = append(f, "Note: "+strconv.Quote(p.note))
	}
	b.WriteString("{" + strings.Join(f, ", "))
	if len(p.values) > 0 {
		b.WriteString(", Values: []EnumValue{\n")
		vals := append([]*value(nil), p.values...)
		sort.SliceStable(vals, func(i, j int) bool { return strings.ToLower(vals[i].name) < strings.ToLower(vals[j].name) })
		for _, v := range vals {
			emitValue(b, v)
		}
		b.WriteString("}")
	}
	b.WriteString("},\n")
}

func emitValue(b *bytes.Buffer, v *value) {
	var src []string
	for _, s := range v.source {
		switch s {
		case "code":
			src = append(src, "SourceCode")
		case "plugin":
			src = append(src, "SourcePlugin")
		case "man":
			src = append(src, "SourceMan")
		}
	}
	f := []string{
		"Name: " + strconv.Quote(v.name),
		"Source: " + strings.Join(src, "|"),
		"PresentIn: " + setLit(v.presentIn),
	}
	if v.takesArg {
		f = append(f, "TakesArg: true")
	}
	f = append(f, fmt.Sprintf("ArgSep: %q", v.argSep))
	if v.argOptional {
		f = append(f, "ArgOptional: true")
	}
	switch v.match {
	case "prefix":
		f = append(f, "Match: MatchPrefix")
	case "contains":
		f = append(f, "Match: MatchContains", "Substr: "+strconv.Quote(v.substr))
	case "template":
		f = append(f, "Match: MatchTemplate")
	}
	if v.caseSensitive {
		f = append(f, "CaseSensitive: true")
	}
	if v.notStandalone {
		f = append(f, "NotStandalone: true")
	}
	if v.deprecated != "" {
		f = append(f, "Deprecated: "+strconv.Quote(v.deprecated))
	}
	if v.deprecatedFrom >= 0 {
		f = append(f, "DeprecatedFrom: "+versionConsts[versionLabels[v.deprecatedFrom]])
	}
	if v.ignored != "" {
		f = append(f, "Ignored: "+strconv.Quote(v.ignored))
	}
	if len(v.argValues) > 0 {
		f = append(f, "ArgValues: []string{"+quoteList(v.argValues)+"}")
	}
	if v.reject != "" {
		f = append(f, "Reject: "+strconv.Quote(v.reject))
	}
	if v.rejectIn != 0 {
		f = append(f, "RejectIn: "+setLit(v.rejectIn))
	}
	if v.library != "" {
		f = append(f, "Library: "+strconv.Quote(v.library))
	}
	if v.notShipped != 0 {
		f = append(f, "NotShipped: "+setLit(v.notShipped))
	}
	if v.pkg != "" {
		f = append(f, "Package: "+strconv.Quote(v.pkg))
	}
	if v.needs != "" {
		f = append(f, "Needs: "+strconv.Quote(v.needs))
	}
	if v.needsKey != "" {
		f = append(f, "NeedsKey: "+strconv.Quote(v.needsKey))
	}
	if v.note != "" {
		f = append(f, "Note: "+strconv.Quote(v.note))
	}
	b.WriteString("{" + strings.Join(f, ", ") + "},\n")
}
