package sacctmgr

// Reading `sacctmgr dump CLUSTER file=FILE` output: one line an entity,
// `Kind - 'name':Key=Value:…`, accounts and users under the last
// `Parent - 'name'` line. A field a line leaves out has Slurm's default.
// Before 26.05 the dump holds no QOS lines: a capture then needs
// `sacctmgr show qos -P` beside it.

import (
	"fmt"
	"regexp"
	"strings"
)

// dumpStart matches the start of a dump line: its kind and name.
var dumpStart = regexp.MustCompile(`^([A-Z][A-Za-z]*) - '([^']*)'`)

// dumpFields map a dump's keys, for each kind of line, to the fields of
// the entities (the names `set` takes); keys not listed are not compared.
var dumpFields = map[string]map[string]string{
	"QOS": {"Priority": "Priority", "Preempt": "Preempt", "PreemptMode": "PreemptMode", "Flags": "Flags", "UsageFactor": "UsageFactor",
		"GrpTRES": "GrpTRES", "GrpJobs": "GrpJobs", "MaxTRESPerJob": "MaxTRES", "MaxTRESPerUser": "MaxTRESPerUser", "MaxTRESPU": "MaxTRESPerUser",
		"MaxWallDurationPerJob": "MaxWall", "MaxJobsPU": "MaxJobsPerUser", "MaxJobsPerUser": "MaxJobsPerUser",
		"MaxSubmitJobsPU": "MaxSubmitJobsPerUser", "MaxSubmitJobsPerUser": "MaxSubmitJobsPerUser"},
	"Account": {"Description": "Description", "Fairshare": "Fairshare", "QOS": "QOS", "DefaultQOS": "DefaultQOS", "GrpTRES": "GrpTRES",
		"GrpJobs": "GrpJobs", "MaxTRESPerJob": "MaxTRES", "MaxWallDurationPerJob": "MaxWall", "MaxJobs": "MaxJobs", "MaxSubmitJobs": "MaxSubmitJobs"},
	"User": {"Partition": "Partition", "DefaultAccount": "DefaultAccount", "AdminLevel": "AdminLevel", "Fairshare": "Fairshare",
		"QOS": "QOS", "DefaultQOS": "DefaultQOS"},
}

// dumpReader holds what the lines before a dump line said.
type dumpReader struct {
	parent string
}

// splitDump reads the `:Key=Value` pairs after a dump line's name; a
// value in single quotes may hold colons.
func splitDump(rest string) (map[string]string, int, error) {
	out := map[string]string{}
	at := 0
	for at < len(rest) {
		if len(out) >= maxColumns {
			return nil, at, fmt.Errorf("more than %d fields; sacctmgr dump writes a few dozen", maxColumns)
		}
		if rest[at] != ':' {
			return nil, at, fmt.Errorf("want :Key=Value, found %q", clip(rest[at:]))
		}
		at++
		eq := strings.IndexByte(rest[at:], '=')
		if eq <= 0 {
			return nil, at, fmt.Errorf("want Key=Value, found %q", clip(rest[at:]))
		}
		key := rest[at : at+eq]
		at += eq + 1
		var val string
		if at < len(rest) && rest[at] == '\'' {
			end := strings.IndexByte(rest[at+1:], '\'')
			if end < 0 {
				return nil, at, fmt.Errorf("an unterminated quote")
			}
			val = rest[at+1 : at+1+end]
			at += end + 2
		} else {
			end := strings.IndexByte(rest[at:], ':')
			if end < 0 {
				end = len(rest) - at
			}
			val = rest[at : at+end]
			at += end
		}
		out[key] = val
	}
	return out, 0, nil
}

// addDumpLine adds one dump line to the state; col is the column of an
// error in the line (1-based).
func (s *State) addDumpLine(d *dumpReader, line string, clusters map[string]bool) (col int, err error) {
	m := dumpStart.FindStringSubmatch(line)
	kind, name := m[1], m[2]
	pairs, at, err := splitDump(line[len(m[0]):])
	if err != nil {
		return len(m[0]) + at + 1, err
	}
	if err := checkName(name); err != nil {
		return len(kind) + 5, err
	}
	if err := checkName(pairs["Partition"]); err != nil {
		return 1, err
	}
	defer func() {
		if err == nil {
			if err = s.checkSize(); err != nil {
				col = 1
			}
		}
	}()
	all := func(k Kind) {
		if s.columns[k] == nil {
			s.columns[k] = map[string]bool{}
		}
		s.columns[k]["*"] = true
	}
	fields := func(e *Entity, kind string, skip ...string) {
	next:
		for key, v := range pairs {
			f, ok := dumpFields[kind][key]
			if !ok {
				continue
			}
			for _, sk := range skip {
				if f == sk {
					continue next
				}
			}
			e.Fields[f] = v
		}
	}
	switch kind {
	case "Cluster":
		clusters[name] = true
	case "Parent":
		d.parent = name
	case "QOS":
		all(KindQOS)
		fields(s.entity(Key{Kind: KindQOS, Name: name}), kind)
	case "Account":
		if d.parent == "" {
			return 1, fmt.Errorf("an Account line before any Parent line")
		}
		all(KindAccount)
		all(KindAssoc)
		e := s.entity(Key{Kind: KindAccount, Name: name})
		fields(e, kind)
		e.Fields["Parent"] = d.parent
	case "User":
		if d.parent == "" {
			return 1, fmt.Errorf("a User line before any Parent line")
		}
		all(KindUser)
		all(KindAssoc)
		u := s.entity(Key{Kind: KindUser, Name: name})
		for _, f := range []string{"DefaultAccount", "AdminLevel"} {
			if v, ok := pairs[f]; ok {
				u.Fields[f] = v
			}
		}
		if name == "root" && d.parent == "root" {
			return 0, nil
		}
		fields(s.entity(Key{Kind: KindAssoc, Name: name, Account: d.parent, Partition: pairs["Partition"]}), kind, "Partition", "DefaultAccount", "AdminLevel")
	}
	// Other kinds (Coordinator, WCKey …) hold nothing a plan compares.
	return 0, nil
}
