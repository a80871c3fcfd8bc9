package ir

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
}

// Add marks a path unsound.
func (u *Unsound) Add(path string) {
	if u.paths == nil {
		u.paths = map[string]bool{}
	}
	u.paths[path] = true
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
	if u.paths[path] || u.paths[""] {
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
