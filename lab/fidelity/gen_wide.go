package fidelity

import (
	"strconv"
	"strings"

	"github.com/slurmspec/slurmspec/schema/catalog"
)

// Wide values: the edges of each value type Slurm reads (issue 26, §3),
// drawn beside the catalog's listed values so that the generator does not
// only try what the catalog already knows. A value's type comes from the
// key's kind and, for the free-string keys, from what the key holds (a host
// list, names, a GRES, TRES weights, a CPU list, a port); each type has
// valid edges and invalid ones. Whether a value is valid is the generator's
// guess (Setting.Plausible): the oracle judges by Slurm, not by it.

// edges are one value type's valid and invalid edge values.
type edges struct {
	name           string
	valid, invalid []string
}

// The special words every type is tried with: Slurm's own (NONE,
// UNLIMITED, INFINITE, ALL), 0, empty, negative and huge.
var specialWords = []string{"NONE", "UNLIMITED", "INFINITE", "ALL", "0", "", "-1", "99999999999999999999", "none"}

// boolEdges are every spelling s_p_handle_boolean reads (YES, NO, TRUE,
// FALSE, UP, DOWN, 1, 0, any case) and near misses.
var boolEdges = edges{"boolean",
	[]string{"YES", "yes", "Yes", "NO", "no", "TRUE", "true", "False", "UP", "up", "DOWN", "down", "1", "0"},
	[]string{"Y", "n", "on", "off", "2", "-1", "", "NONE", "yess", "01", "enabled"}}

// timeEdges are the forms time_str2mins and time_str2secs read and near
// misses.
var timeEdges = edges{"time",
	[]string{"0", "1", "-1", "59", "1:00", "00:00:01", "1-0", "1-00:00:00", "7-00", "365-00:00:00", "UNLIMITED", "INFINITE", "infinite", "unlimited"},
	[]string{"NONE", "", "abc", "-5", "1:2:3:4", "1-", "-1-00:00:00", "1:60", "99999999999999", "1.5", "1h", "30m", "00:00:60"}}

// intEdges returns the edges of an integer kind: 0, 1 and the maximum,
// the words Slurm reads as its infinite value, the k suffix of the 32- and
// 64-bit parsers, C's hex and octal prefixes, and past the range.
func intEdges(k catalog.Kind) edges {
	hi := map[catalog.Kind]string{catalog.KindUint16: "65535", catalog.KindUint32: "4294967295", catalog.KindUint64: "18446744073709551615", catalog.KindLong: "9223372036854775807"}[k]
	past := map[catalog.Kind]string{catalog.KindUint16: "65536", catalog.KindUint32: "4294967296", catalog.KindUint64: "18446744073709551616", catalog.KindLong: "9223372036854775808"}[k]
	e := edges{k.String(),
		[]string{"0", "1", "2", hi, "65534", "UNLIMITED", "INFINITE", "unlimited", "007", "0x10", "+5"},
		[]string{past, "-1", "-2", "", "NONE", "1.5", "abc", "10x", "1e3", "4G", "4M", "0x", "08"}}
	if k != catalog.KindUint16 {
		e.valid = append(e.valid, "4k", "4K", "0k")
		e.invalid = append(e.invalid, "4kk", "4T")
	}
	return e
}

// sizeKey reports whether an integer key holds an amount of memory or disk in
// MiB, where a user writes units ("4G") that Slurm's parser does not read.
func sizeKey(name string) bool {
	n := strings.ToLower(name)
	return strings.Contains(n, "mem") || n == "tmpdisk" || n == "realmemory"
}

// sizeEdges are an integer key's edges with the units people write for
// sizes.
func sizeEdges(k catalog.Kind) edges {
	e := intEdges(k)
	e.name = "size " + k.String()
	e.valid = append(e.valid, "1024", "3943792", "1048576")
	e.invalid = append(e.invalid, "4GB", "512MB", "1T", "4g", "100%", "1024 M")
	return e
}

// stringEdges returns the edges of a free-string key by what it holds.
func stringEdges(p *catalog.Param) edges {
	switch strings.ToLower(p.Name) {
	case "port":
		// node_conf.c expand_nodeline_info reads each port with atoi: a
		// high port no test of this host listens on, and the edges.
		return edges{"port", []string{"65535", "65534"},
			[]string{"0", "65536", "-1", "NONE", "UNLIMITED", "", "abc", "99999999999", "[65534-65535]", "65535,65534,1"}}
	case "allocnodes", "bcastaddr", "nodes", "nodeaddr", "nodehostname":
		return edges{"host list", []string{"ALL", "fid-gpu-0", "fid-gpu-[0-1]", "fid-login-0", "localhost", "127.0.0.1"},
			[]string{"fid-gpu-[0-", "fid-gpu-[1-0]", "nosuch[1-3]", "", "NONE", "[]", "fid-gpu-[0-99999999]", ","}}
	case "gres":
		return edges{"GRES", []string{"gpu:8", "gpu:b200:8", "gpu:0", "gpu:1", "gpu:b200:1"},
			[]string{"gpu:9", "gpu:-1", "gpu", "gpu:b200", "gpu:8k", "gpu:99999999999", "tpu:1", "NONE", "", "gpu:8,gpu:8", "gpu:x"}}
	case "tresbillingweights", "tresweights":
		return edges{"TRES weights", []string{"CPU=1.0", "CPU=1.0,Mem=0.25G", "CPU=1,GRES/gpu=2.0", "Mem=1T", "CPU=0"},
			[]string{"CPU=-1", "CPU=abc", "bogus=1", "CPU", "CPU=1,,Mem=1", "", "GRES/nosuch=1", "Mem=1X", "NONE"}}
	case "cpuspeclist":
		return edges{"CPU list", []string{"0", "0-1", "0,1", "223", "0-3,8-11"},
			[]string{"224", "-1", "a", "1-0", "0-99999", "", "NONE", "0,,1"}}
	case "features", "feature", "allowaccounts", "allowgroups", "allowqos", "denyaccounts", "denyqos", "qos", "alternate", "topology", "reason", "parameters", "gresconf":
		return edges{"names", []string{"ALL", "root", "normal", "gpu", "a,b", "UPPER", "x_y-z.1"},
			[]string{"", "a,,b", ",", "a,", "NONE", "-1", strings.Repeat("n", 300), "a&b", "a|b", "(null)"}}
	}
	return edges{"free string", []string{"fidelity", "ALL", "a,b"}, specialWords}
}

// listEdges are an enum, list or plugin key's edges around its listed
// values: another case, a doubled token, an empty item, a trailing comma,
// and the special words.
func (g valueGen) listEdges() edges {
	vals := g.values()
	e := edges{name: g.p.Kind.String()}
	if len(vals) > 0 {
		a := g.token(vals[g.r.IntN(len(vals))])
		e.valid = append(e.valid, strings.ToUpper(a), strings.ToLower(a))
		if g.p.Kind == catalog.KindList {
			e.valid = append(e.valid, a+","+a)
			e.invalid = append(e.invalid, a+",", ","+a, a+",,"+a)
		}
		e.invalid = append(e.invalid, a+" ", a+"=", a+"=-1")
	}
	if g.p.IntTokens {
		lo, hi := g.p.IntMin, g.p.IntMax
		e.valid = append(e.valid, strconv.FormatInt(lo, 10))
		e.invalid = append(e.invalid, strconv.FormatInt(lo-1, 10), "99999999999")
		if hi >= 0 {
			e.valid = append(e.valid, strconv.FormatInt(hi, 10))
			e.invalid = append(e.invalid, strconv.FormatInt(hi+1, 10))
		}
	}
	e.invalid = append(e.invalid, specialWords...)
	return e
}

// typeEdges returns the edges of the key's value type.
func (g valueGen) typeEdges() edges {
	if strings.EqualFold(g.p.Name, "Port") {
		return stringEdges(g.p) // an enum of integer tokens in the catalog, a port to the harness
	}
	switch k := g.p.Kind; k {
	case catalog.KindBool:
		return boolEdges
	case catalog.KindTime:
		return timeEdges
	case catalog.KindUint16, catalog.KindUint32, catalog.KindUint64, catalog.KindLong:
		if sizeKey(g.p.Name) {
			return sizeEdges(k)
		}
		return intEdges(k)
	case catalog.KindFloat:
		return edges{"float", []string{"0", "0.0", "1", "1.5", "1e3", "UNLIMITED", "INFINITE"}, []string{"-1", "", "abc", "1,5", "NaN", "inf", "NONE"}}
	case catalog.KindEnum, catalog.KindList, catalog.KindPlugin:
		return g.listEdges()
	}
	return stringEdges(g.p)
}

// wide returns an edge value of the key's type: valid about half the time.
func (g valueGen) wide() (string, string, bool) {
	e := g.typeEdges()
	if len(e.valid) > 0 && (len(e.invalid) == 0 || g.r.IntN(2) == 0) {
		return e.valid[g.r.IntN(len(e.valid))], "valid edge of " + e.name, true
	}
	return e.invalid[g.r.IntN(len(e.invalid))], "invalid edge of " + e.name, false
}
