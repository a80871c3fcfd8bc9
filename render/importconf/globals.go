package importconf

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/hostlist"
	"github.com/slurmspec/slurmspec/compiler/managed"
	"github.com/slurmspec/slurmspec/render/slurmconf"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

var configKeyRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z][A-Za-z0-9]{0,63}$`) })

// validValue reports whether v can be written as one slurm.conf value: the
// renderer's own rule (slurmconf.SafeToken) and the schema's length, in
// UTF-8 (a spec is UTF-8 text).
func validValue(v string) bool {
	return utf8.ValidString(v) && utf8.RuneCountInString(v) <= 1024 && slurmconf.SafeToken(v)
}

// canonicalKey is slurmconf.CanonicalKey: the spelling the linter asks for.
func (im *importer) canonicalKey(scope catalog.Scope, key string) (name string, known bool) {
	return slurmconf.CanonicalKey(scope, key)
}

// configPair checks a key and value for a config map of scope and returns
// the pair in the catalog's canonical spelling; ok is false (with a note)
// when it cannot be written.
func (im *importer) configPair(scope catalog.Scope, where string, line int, key, value string) (kv, bool) {
	if !configKeyRe().MatchString(key) {
		im.note(line, "%s key %q dropped: not a slurm.conf key name", where, key)
		return kv{}, false
	}
	if !utf8.ValidString(value) {
		im.note(line, "%s %s=%q dropped: the value is not UTF-8 text (Slurm reads bytes; a spec is UTF-8): set it again in UTF-8", where, key, value)
		return kv{}, false
	}
	if !validValue(value) {
		im.note(line, "%s %s=%q dropped: a spec value must be 1-1024 characters without white space, #, quotes or backslashes", where, key, value)
		return kv{}, false
	}
	name, known := im.canonicalKey(scope, key)
	if !known {
		im.note(line, "%s key %s is not in the Slurm parameter catalog; kept as written (lint will report it)", where, key)
		return kv{Key: key, Value: value, line: line}, true
	}
	if !strings.EqualFold(name, key) {
		im.note(line, "%s %s is written as %s, the name it is an alias of", where, key, name)
	}
	return kv{Key: name, Value: value, line: line}, true
}

// globals fills slurmSpec.config: every global key but the reserved ones
// (noted when their value differs from what the service writes, aliases
// of reserved keys included), Prolog and Epilog (see scripts), and the
// service defaults given with the default value (the renderer writes those
// itself). SuspendExcNodes and SuspendExcParts are rewritten to the names
// the nodes and partitions have in the spec.
func (im *importer) globals(f *slurmconf.File) error {
	c := im.cluster()
	baseline := map[string]string{}
	for _, s := range managed.ReservedSettings(c) {
		baseline[strings.ToLower(s.Key)] = s.Value
	}
	index := map[string]int{}
	var same []string // settings equal to the managed baseline, left out
	for i, p := range f.Global {
		line := f.GlobalLines[i]
		lower := strings.ToLower(p.Key)
		switch lower {
		case "clustername", "prolog", "epilog":
			continue
		}
		canon, _ := im.canonicalKey(catalog.ScopeGlobal, p.Key)
		if k, ok := managed.Lookup(canon); ok {
			value := p.Value
			if strings.EqualFold(p.Key, "CryptoType") {
				// Slurm reads crypto/NAME as cred/NAME.
				value = strings.Replace(value, "crypto/", "cred/", 1)
			}
			if v, inBase := baseline[strings.ToLower(canon)]; !inBase || v != value || !strings.EqualFold(canon, p.Key) {
				im.note(line, "%s=%s dropped: %s", p.Key, p.Value, k.Reason)
			} else {
				same = append(same, p.Key+"="+p.Value)
			}
			continue
		}
		value, keep, err := im.rewriteNames(line, canon, p.Value)
		if err != nil {
			return err
		}
		if keep {
			value, keep = im.sharedGres(line, canon, value)
		}
		if !keep {
			continue
		}
		pair, ok := im.configPair(catalog.ScopeGlobal, "slurm.conf", line, p.Key, value)
		if !ok {
			continue
		}
		lk := strings.ToLower(pair.Key)
		if j, dup := index[lk]; dup {
			prev := im.config[j]
			if prev.Value != pair.Value {
				im.note(line, "%s is set again (%s set %s); Slurm uses the last value, and so does the spec", pair.Key, im.where(prev.line), prev.Value)
			}
			im.config[j] = pair
			continue
		}
		index[lk] = len(im.config)
		im.config = append(im.config, pair)
	}
	im.conflicts(index)
	var added []string
	drop := map[int]bool{}
	for _, s := range managed.DefaultSettings(c) {
		j, ok := index[strings.ToLower(s.Key)]
		switch {
		case !ok:
			added = append(added, s.Key+"="+s.Value)
		case im.config[j].Value == s.Value && !im.scan.userConfig[im.config[j].line]:
			drop[j] = true
			same = append(same, im.config[j].Key+"="+im.config[j].Value)
		}
	}
	var kept []kv
	for j, p := range im.config {
		if !drop[j] {
			kept = append(kept, p)
		}
	}
	im.config = kept
	sortKVs(im.config)
	if len(same) > 0 {
		im.note(0, "left out as the managed baseline, which the service writes with the same values: %s", strings.Join(same, " "))
	}
	if len(added) > 0 {
		im.choice(0, "the service adds defaults slurm.conf does not set: %s; set them in slurmSpec.config to keep other values", strings.Join(added, " "))
	}
	return nil
}

// conflicts turns a user setting that cannot run with a service default
// the import adds into a decision: select/linear refuses the service's
// SelectTypeParameters=CR_Core_Memory (slurmctld: "it can't contain
// CR_(CPU|CORE|SOCKET)"), so SelectType becomes a placeholder naming the
// service's plugin and the user's.
func (im *importer) conflicts(index map[string]int) {
	st, hasType := index["selecttype"]
	_, hasParams := index["selecttypeparameters"]
	if !hasType || hasParams || !strings.EqualFold(im.config[st].Value, "select/linear") {
		return
	}
	var def string
	for _, s := range managed.DefaultSettings(im.cluster()) {
		if strings.EqualFold(s.Key, "SelectTypeParameters") {
			def = s.Value
		}
	}
	if def == "" {
		return
	}
	kv := &im.config[st]
	im.decide(kv.line, "SelectType=%s does not run with the service default SelectTypeParameters=%s (slurmctld refuses CR_Core, CR_CPU and CR_Socket with select/linear): SelectType is the placeholder %sselect/cons_tres-or-select/linear; choose select/cons_tres (the service's), or keep select/linear and set SelectTypeParameters=CR_Memory", kv.Value, def, ChoosePrefix)
	kv.Value = ChoosePrefix + "select/cons_tres-or-select/linear"
}

// rewriteNames maps the node names of SuspendExcNodes and the partition
// names of SuspendExcParts to the names the spec gives them; names that
// no longer exist are reported and left out. keep is false when nothing is
// left.
func (im *importer) rewriteNames(line int, key, value string) (string, bool, error) {
	switch strings.ToLower(key) {
	case "suspendexcnodes":
		if strings.Contains(value, ":") {
			im.note(line, "%s=%s dropped: its :COUNT form cannot be carried over to the renamed nodes; set it again in slurmSpec.config", key, value)
			return "", false, nil
		}
		out, unknown, err := im.renameHosts(value)
		if err != nil {
			return "", false, fmt.Errorf("slurm.conf %s: %w", im.where(line), err)
		}
		return im.rewritten(line, key, value, hostlist.Compress(out), "nodes no NodeName line defines", unknown)
	case "suspendexcparts":
		var out, unknown []string
		for _, n := range strings.Split(value, ",") {
			if n == "" {
				continue
			}
			if id, ok := im.partID[n]; ok {
				out = append(out, id)
			} else {
				unknown = append(unknown, n)
			}
		}
		return im.rewritten(line, key, value, strings.Join(out, ","), "partitions the spec does not keep", unknown)
	}
	return value, true, nil
}

// sharedGres leaves mps and shard out of GresTypes: the counts of shared
// GPUs come only from gres.conf lines (Name=mps Count=…), which the service
// does not write and a spec cannot add, so lint refuses them
// (gres-sharing-unsupported) and the node lines' mps and shard entries are
// not imported either. keep is false when nothing is left.
func (im *importer) sharedGres(line int, key, value string) (string, bool) {
	if !strings.EqualFold(key, "GresTypes") {
		return value, true
	}
	var kept, dropped []string
	for _, t := range strings.Split(value, ",") {
		switch strings.ToLower(strings.TrimSpace(t)) {
		case "":
		case "mps", "shard":
			dropped = append(dropped, strings.TrimSpace(t))
		default:
			kept = append(kept, strings.TrimSpace(t))
		}
	}
	if len(dropped) == 0 {
		return value, true
	}
	const why = "the service's gres.conf gives shared GPUs no counts and a spec cannot add the lines (Name=mps Count=…) they need"
	if len(kept) == 0 {
		im.note(line, "GresTypes=%s dropped: %s; the service writes GresTypes=gpu for GPU pools", value, why)
		return "", false
	}
	im.note(line, "GresTypes=%s: %s left out, %s; GresTypes is %s", value, strings.Join(dropped, " and "), why, strings.Join(kept, ","))
	return strings.Join(kept, ","), true
}

func (im *importer) rewritten(line int, key, old, new, what string, unknown []string) (string, bool, error) {
	if len(unknown) > 0 {
		im.note(line, "%s names %s: %s; left out", key, what, summarize(unknown))
	}
	if new == "" {
		im.note(line, "%s=%s dropped: none of the names it lists exists in the spec", key, old)
		return "", false, nil
	}
	if new != old {
		im.choice(line, "%s=%s rewritten as %s, the names in the spec", key, old, new)
	}
	return new, true, nil
}

// lastOfEach keeps the last value of each key of a line (Slurm reads the
// last one), noting the ones it drops: a key given twice, or under two
// spellings (Feature and Features), would be one YAML key twice.
func (im *importer) lastOfEach(line int, kvs []kv) []kv {
	last := map[string]int{}
	for i, p := range kvs {
		last[strings.ToLower(p.Key)] = i
	}
	if len(last) == len(kvs) {
		return kvs
	}
	var out []kv
	for i, p := range kvs {
		if j := last[strings.ToLower(p.Key)]; j != i {
			im.note(line, "%s=%s dropped: the line sets %s again (%s), and Slurm reads the last", p.Key, p.Value, kvs[j].Key, kvs[j].Value)
			continue
		}
		out = append(out, p)
	}
	return out
}

// sortKVs sorts a config map as the compiler does: by key, ignoring case.
func sortKVs(kvs []kv) {
	sort.SliceStable(kvs, func(i, j int) bool {
		a, b := strings.ToLower(kvs[i].Key), strings.ToLower(kvs[j].Key)
		if a != b {
			return a < b
		}
		return kvs[i].Key < kvs[j].Key
	})
}

// scripts imports Prolog and Epilog: from Options.ScriptsDir when given,
// else from the files of the same names in Options.IncludeDir
// (includedScripts), else as notes.
func (im *importer) scripts(f *slurmconf.File) error {
	for _, k := range []struct {
		key, dir string
		field    string
		out      *[]string
	}{{"Prolog", "prolog.d", "prologBashScripts", &im.prolog}, {"Epilog", "epilog.d", "epilogBashScripts", &im.epilog}} {
		v, ok := f.GetGlobal(k.key)
		line := f.GlobalLine(k.key)
		if !ok {
			continue
		}
		if im.opt.ScriptsDir == "" && im.opt.IncludeDir != "" {
			*k.out = im.includedScripts(line, k.key, v, k.field)
			continue
		}
		if im.opt.ScriptsDir == "" {
			im.note(line, "%s=%s is a path, not a script: put the text of the scripts it runs into %s, or name the directory holding them with --include-dir (or --scripts-dir for render's prolog.d and epilog.d)", k.key, v, k.field)
			continue
		}
		dir := filepath.Join(im.opt.ScriptsDir, k.dir)
		texts, err := readScripts(dir)
		if err != nil {
			return err
		}
		if len(texts) == 0 {
			im.note(line, "%s=%s not imported: %s holds no *.sh scripts; put their text into %s", k.key, v, dir, k.field)
			continue
		}
		if v != managedGlob(k.key) {
			im.note(line, "%s=%s replaced by the scripts in %s, which the service installs as %s", k.key, v, dir, managedGlob(k.key))
		}
		*k.out = texts
	}
	return nil
}

func managedGlob(key string) string {
	if key == "Prolog" {
		return managed.PrologDir + "/*"
	}
	return managed.EpilogDir + "/*"
}

// maxScripts bounds how many scripts a scripts directory may hold.
const maxScripts = 256

// readScripts reads dir/*.sh in the order Slurm runs a glob's matches:
// reverse alphabetical. A missing directory has none; symbolic links and
// other non-regular entries are skipped, and each script is read with the
// bounds of ReadInput.
func readScripts(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading scripts: %w", err)
	}
	var out []string
	total := 0 // the scripts together, as one input, at most MaxInputBytes
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".sh") {
			continue
		}
		if len(out) == maxScripts {
			return nil, fmt.Errorf("reading scripts: %s holds more than %d scripts", dir, maxScripts)
		}
		b, err := ReadInput(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("reading scripts: %w", err)
		}
		if total += len(b); total > MaxInputBytes {
			return nil, fmt.Errorf("reading scripts: the scripts of %s take more than %d bytes together", dir, MaxInputBytes)
		}
		if strings.IndexByte(string(b), 0) >= 0 {
			return nil, fmt.Errorf("script %s contains a NUL byte", filepath.Join(dir, e.Name()))
		}
		out = append(out, string(b))
	}
	slices.Reverse(out) // os.ReadDir sorts by name
	return out, nil
}

// includedScripts reads the programs a Prolog or Epilog value (key=value,
// a comma-separated list of paths, which Slurm runs in order) names from
// the files of the same base names in Options.IncludeDir, as Include lines
// are followed. A path with a glob, or a file that is not there or cannot
// be read, is noted and left out; each script read is a choice the header
// lists, since the service runs it as a bash script.
func (im *importer) includedScripts(line int, key, value, field string) []string {
	var texts, read []string
	total := 0 // the scripts read, together at most MaxInputBytes
	for _, path := range strings.Split(value, ",") {
		path = strings.TrimSpace(path)
		if path == "" {
			continue
		}
		if len(texts) == maxScripts {
			im.note(line, "%s=%s: only the first %d programs are read (the bound of a scripts directory)", key, value, maxScripts)
			break
		}
		name := filepath.Base(path)
		if strings.ContainsAny(name, "*?[") || name == "." || name == ".." || name == "/" {
			im.note(line, "%s=%s: %s names no one file the import can look up in %s; put the text of the scripts it runs into %s", key, value, path, im.opt.IncludeDir, field)
			continue
		}
		file := filepath.Join(im.opt.IncludeDir, name)
		b, err := ReadInput(file)
		if err == nil && total+len(b) > MaxInputBytes {
			// The same file named 256 times would otherwise be read
			// 256 times: the scripts together count as one input.
			im.note(line, "%s=%s: the scripts named take more than %d bytes together; %s and the rest are not read: put their text into %s", key, value, MaxInputBytes, name, field)
			break
		}
		total += len(b)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			im.note(line, "%s=%s: %s is not in the include directory %s; put its text into %s", key, value, name, im.opt.IncludeDir, field)
			continue
		case err != nil:
			im.note(line, "%s=%s: %s not read (%v); put its text into %s", key, value, file, err, field)
			continue
		case strings.IndexByte(string(b), 0) >= 0:
			im.note(line, "%s=%s: %s is not a script (it holds a NUL byte); put the text of the script into %s", key, value, file, field)
			continue
		}
		texts = append(texts, string(b))
		read = append(read, file)
	}
	if len(texts) > 0 {
		im.choice(line, "%s=%s: %s read from %s into %s, which the service installs as %s and runs with bash", key, value, diag.Plural(len(texts), "script"), strings.Join(read, ", "), field, managedGlob(key))
	}
	return texts
}
