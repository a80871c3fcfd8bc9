package ir

import "github.com/slurmspec/slurmspec/compiler/diag"

// Unsound is the set of spec paths whose values the schema refused (or that
// depend on such a value): what a lint rule may not reason about. It is the
// fact the schema hands the compiler and the rule runner, as go/analysis
// passes hand facts on: the IR of a partly invalid spec is built from what
// is sound, each value at an unsound path marked Unknown, and a finding at
// an unsound path is dropped (the schema already reported that value).
//
// Paths are in load.Path's String form ("nodePools[0].machineSpec"); a path
// covers itself and everything below it. The zero value is empty and ready
// to use; a nil *Unsound is empty too.
type Unsound struct {
	paths map[string]bool
	// keys holds, for a pair of a map (slurm.conf config, labels) whose
	// value alone was refused, the position of its key, which is sound.
	keys map[string]diag.Pos
}

// Add marks a path unsound, a map pair's key too.
func (u *Unsound) Add(path string) {
	if u.paths == nil {
		u.paths = map[string]bool{}
	}
	u.paths[path] = true
	delete(u.keys, path)
}

// AddValue marks the value of a map's pair unsound, its key (at key) sound:
// a finding about the key, made at the key's position, is kept.
func (u *Unsound) AddValue(path string, key diag.Pos) {
	if u.paths[path] {
		return // the key is unsound already
	}
	u.Add(path)
	if u.keys == nil {
		u.keys = map[string]diag.Pos{}
	}
	u.keys[path] = key
}

// ValueOnly reports whether path is a map's pair whose value alone is
// unsound (AddValue).
func (u *Unsound) ValueOnly(path string) bool {
	if u == nil {
		return false
	}
	_, ok := u.keys[path]
	return ok && !u.coversAbove(path)
}

// Drops reports whether a finding is about an unsound value: made at an
// unsound path, unless it is about the sound key of a pair whose value
// alone is unsound.
func (u *Unsound) Drops(d diag.Diagnostic) bool {
	if !u.Covers(d.Path) {
		return false
	}
	return !u.ValueOnly(d.Path) || d.Pos != u.keys[d.Path]
}

// Len is the number of paths marked.
func (u *Unsound) Len() int {
	if u == nil {
		return 0
	}
	return len(u.paths)
}

// Covers reports whether path is unsound: marked itself, or below a marked
// path (the root, "", covers every path).
func (u *Unsound) Covers(path string) bool {
	if u == nil || len(u.paths) == 0 {
		return false
	}
	return u.paths[path] || u.coversAbove(path)
}

// coversAbove reports whether a proper ancestor of path is marked.
func (u *Unsound) coversAbove(path string) bool {
	if u == nil || len(u.paths) == 0 {
		return false
	}
	if u.paths[""] && path != "" {
		return true
	}
	// Every prefix that ends before a '.' or '[' outside a quoted key is
	// an ancestor.
	quoted := false
	for i := 0; i < len(path); i++ {
		switch c := path[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case !quoted && (c == '.' || c == '[') && i > 0 && u.paths[path[:i]]:
			return true
		}
	}
	return false
}
