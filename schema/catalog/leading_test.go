package catalog

import "testing"

// A partition's SelectTypeParameters is read by _parse_partitionname with
// xstrncasecmp(value, name, len(name)), longer names first, on the whole
// value (22.05, 24.11, 26.05): a value that begins with a unit name is
// that unit, and the rest is ignored without a word (26.05 runs
// CR_Socket_Memory=-1 as CR_SOCKET_MEMORY; truth11). Anything else is
// "Bad value for SelectTypeParameters", and the line is refused.
func TestPartitionSelectTypeParametersLeading(t *testing.T) {
	runValueCases(t, []valueCase{
		{ScopePartition, "SelectTypeParameters", V2605, "CR_Socket_Memory", clean, ""},
		{ScopePartition, "SelectTypeParameters", V2205, "cr_core_memory", clean, ""},
		{ScopePartition, "SelectTypeParameters", V2605, "CR_Socket_Memory=-1", warns, `read as CR_Socket_Memory: Slurm compares only its first 16 characters and ignores the rest, "=-1"`},
		{ScopePartition, "SelectTypeParameters", V2411, "CR_Core_Memory,CR_LLN", warns, `ignores the rest, ",CR_LLN"`},
		// CR_Core leads CR_Core_Memor: the memory is lost.
		{ScopePartition, "SelectTypeParameters", V2205, "CR_Core_Memor", warns, "read as CR_Core:"},
		{ScopePartition, "SelectTypeParameters", V2605, "cr_socketx", warns, "read as CR_Socket:"},
		// Shorter than a name, or not beginning with one: refused.
		{ScopePartition, "SelectTypeParameters", V2605, "CR", errs, ""},
		{ScopePartition, "SelectTypeParameters", V2605, "CR_Cor", errs, ""},
		{ScopePartition, "SelectTypeParameters", V2605, "CR_CPU", errs, ""},
		{ScopePartition, "SelectTypeParameters", V2605, "x,CR_Core", errs, ""},
		// The global key is read token by token (_parse_select_type_param).
		{ScopeGlobal, "SelectTypeParameters", V2605, "CR_Core_Memory=-1", errs, ""},
		// 22.05 accepts CR_ALLOCATE_FULL_SOCKET and sets nothing for it.
		{ScopeGlobal, "SelectTypeParameters", V2205, "CR_Socket,CR_ALLOCATE_FULL_SOCKET", warns, "deprecated, and ignored"},
		{ScopeGlobal, "SelectTypeParameters", V2411, "CR_Socket,CR_ALLOCATE_FULL_SOCKET", errs, "not valid in 24.11"},
	})
	p, _ := Default().Lookup(ScopePartition, "SelectTypeParameters")
	for value, want := range map[string]string{
		"CR_Core_MemoryX":     "CR_Core_Memory",
		"CR_Core_Memor":       "CR_Core",
		"CR_Socket_Memory=-1": "CR_Socket_Memory",
		"cr_socket,cr_lln":    "CR_Socket",
	} {
		ev, ok := p.Token(V2605, value)
		if !ok || ev.Name != want {
			t.Errorf("Token(%q) = %q, %v; want %s", value, ev.Name, ok, want)
		}
	}
	if ev, ok := p.Token(V2605, "CR"); ok {
		t.Errorf("Token(CR) = %s; want no match", ev.Name)
	}
}
