package gencore

// The generator's model of the catalog: TSV rows, keys and their values.

import "strings"

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
	deprecatedFrom int // index into the releases, -1 for every series
	ignored        string
	argValues      []string
	argPrefix      int
	argRanges      []string // catalog.ArgRange literals
	reject         string
	rejectIn       uint16
	library        string
	notShipped     uint16
	pkg            string
	needs          string
	needsKey       string
	needsSilentIn  uint16
	note           string
	listSemantics  string
}

// span is one entry of a status history.
type span struct {
	from        int // index into the releases
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
