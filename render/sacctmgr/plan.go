package sacctmgr

// A plan: what turns the database a capture shows into what an accounting
// file declares, entity by entity, and the script that does exactly that.

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/escape"
	"github.com/slurmspec/slurmspec/schema/accounting"
)

// Action is what a plan does to an entity.
type Action string

// Actions, in the order a plan's script takes them.
const (
	Add    Action = "add"
	Modify Action = "modify"
	Remove Action = "remove"
)

// FieldChange is one field an operation sets: its value before ("" when
// the entity is added) and after, as written.
type FieldChange struct {
	Field string `json:"field"`
	Old   string `json:"old,omitempty"`
	New   string `json:"new"`
	// Tightens says how the change restricts someone ("lower limit",
	// "fewer QOS"); empty when it does not.
	Tightens string `json:"tightens,omitempty"`
}

// Op is one operation of a plan.
type Op struct {
	Action  Action        `json:"action"`
	Key     Key           `json:"-"`
	Entity  string        `json:"entity"`
	Changes []FieldChange `json:"changes,omitempty"`
	// Loses says, for a removal, who loses access to what.
	Loses string `json:"loses,omitempty"`
	// partition is the partition of the association a user's add
	// creates with the user (of its default account); withUser marks
	// that association's add.
	partition string
	withUser  bool
	// replaced marks the removal of an account-wide association that
	// associations with partitions replace (it goes first).
	replaced bool
	// clear are the TRES names a TRES field holds now and the new value
	// does not name, by field: the script sets them to -1.
	clear map[string][]string
}

// Plan is the list of operations, adds first (QOS, accounts parents
// first, users, associations), then modifications, then removals
// (associations, users, accounts children first, QOS); the removal of an
// account-wide association that associations with partitions replace
// comes first of all.
type Plan struct {
	Ops []Op
}

// MissingColumnError is a capture without a column the plan compares.
type MissingColumnError struct {
	Kind  Kind
	Field string
}

func (e *MissingColumnError) Error() string {
	return fmt.Sprintf("the capture has no %s column for the %s entities the file declares it for; capture with: %s", e.Field, e.Kind, CaptureLine())
}

// MissingTableError is a capture without any entity of a kind the file
// declares: it cannot say which exist.
type MissingTableError struct{ Kind Kind }

func (e *MissingTableError) Error() string {
	return fmt.Sprintf("the capture holds no %s entities (sacctmgr dump leaves QOS out before 26.05): add sacctmgr show %s -P output to it; capture with: %s",
		e.Kind, map[Kind]string{KindQOS: "qos", KindAccount: "account", KindUser: "user", KindAssoc: "association"}[e.Kind], CaptureLine())
}

// Compare plans the change from the state cur to the state want. A field
// want leaves out is left alone; an entity cur has and want does not is
// removed (save the root account and user, and the normal QOS).
func Compare(cur, want *State) (*Plan, error) {
	p := &Plan{}
	var adds, mods, removes []Op
	for _, k := range want.Keys() {
		if !cur.hasTable(k.Kind) {
			return nil, &MissingTableError{Kind: k.Kind}
		}
	}
	for _, k := range want.Keys() {
		w := want.Get(k)
		c := cur.Get(k)
		if c == nil {
			op := Op{Action: Add, Key: k}
			for _, f := range sortedFields(w.Fields) {
				op.Changes = append(op.Changes, FieldChange{Field: f, New: w.Fields[f]})
			}
			adds = append(adds, op)
			continue
		}
		op := Op{Action: Modify, Key: k}
		for _, f := range sortedFields(w.Fields) {
			if !cur.has(k.Kind, f) {
				return nil, &MissingColumnError{Kind: k.Kind, Field: f}
			}
			old, new := c.Fields[f], w.Fields[f]
			if Normal(f, old) == Normal(f, new) {
				continue
			}
			op.Changes = append(op.Changes, FieldChange{Field: f, Old: old, New: new, Tightens: tightens(f, old, new)})
			if isTRES(f) {
				for name := range tresItems(old) {
					if _, ok := tresItems(new)[name]; !ok {
						if op.clear == nil {
							op.clear = map[string][]string{}
						}
						op.clear[f] = append(op.clear[f], name)
					}
				}
				sort.Strings(op.clear[f])
			}
		}
		if len(op.Changes) > 0 {
			mods = append(mods, op)
		}
	}
	removedUser := map[string]bool{}
	removedAccount := map[string]bool{}
	for _, k := range cur.Keys() {
		if want.Get(k) != nil || builtin(k) {
			continue
		}
		switch k.Kind {
		case KindUser:
			removedUser[k.Name] = true
		case KindAccount:
			removedAccount[k.Name] = true
		}
	}
	// The users of each account, once: looking them up per removed
	// account made a capture of many accounts quadratic.
	usersOf := map[string][]string{}
	for _, k := range cur.Keys() {
		if k.Kind == KindAssoc && removedAccount[k.Account] {
			if u := usersOf[k.Account]; len(u) == 0 || u[len(u)-1] != k.Name {
				usersOf[k.Account] = append(u, k.Name)
			}
		}
	}
	for _, k := range cur.Keys() {
		if want.Get(k) != nil || builtin(k) {
			continue
		}
		// Removing a user or an account removes its associations.
		if k.Kind == KindAssoc && (removedUser[k.Name] || removedAccount[k.Account]) {
			continue
		}
		removes = append(removes, Op{Action: Remove, Key: k, Loses: loses(want, k, usersOf[k.Name])})
	}
	adds = orderAdds(adds, want)
	firstAssoc(adds)
	removes = orderRemoves(removes, cur)
	// sacctmgr's delete user … account=A without partition= deletes the
	// user's associations with every partition of A: an account-wide
	// association that gives way to partitions' goes before they come.
	var first, rest []Op
	for _, op := range removes {
		if k := op.Key; k.Kind == KindAssoc && k.Partition == "" && hasPartitionAssoc(want, k) {
			op.replaced = true
			first = append(first, op)
		} else {
			rest = append(rest, op)
		}
	}
	p.Ops = append(append(append(first, adds...), mods...), rest...)
	for i := range p.Ops {
		p.Ops[i].Entity = p.Ops[i].Key.String()
	}
	return p, nil
}

// hasPartitionAssoc reports whether s has an association of k's user and
// account with a partition.
func hasPartitionAssoc(s *State, k Key) bool {
	for key := range s.entities {
		if key.Kind == KindAssoc && key.Name == k.Name && key.Account == k.Account && key.Partition != "" {
			return true
		}
	}
	return false
}

// loses says who loses access when the entity k of the current state is
// removed on the way to want; users are the users of k's associations
// when k is an account.
func loses(want *State, k Key, users []string) string {
	switch k.Kind {
	case KindAssoc:
		if k.Partition == "" {
			parts := map[string]bool{}
			for key := range want.entities {
				if key.Kind == KindAssoc && key.Name == k.Name && key.Account == k.Account {
					parts[key.Partition] = true
				}
			}
			if len(parts) > 0 {
				return k.Name + " keeps account " + k.Account + " only in partition " + strings.Join(sortedSet(parts), ", ")
			}
		}
		s := k.Name + " loses account " + k.Account
		if k.Partition != "" {
			s += " in partition " + k.Partition
		}
		return s
	case KindUser:
		return k.Name + " loses every association: slurmctld refuses the user's jobs under AccountingStorageEnforce"
	case KindAccount:
		if len(users) == 0 {
			return "no user has an association with account " + k.Name
		}
		return strings.Join(users, ", ") + " lose account " + k.Name
	case KindQOS:
		return "jobs and associations lose QOS " + k.Name
	}
	return ""
}

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for s := range m {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

func sortedFields(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for f := range m {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// orderAdds puts each added account after its parent; the rest keeps
// plan order (QOS, accounts, users, associations).
func orderAdds(ops []Op, want *State) []Op {
	var out []Op
	done := map[Key]bool{}
	index := map[Key]int{}
	for i, op := range ops {
		index[op.Key] = i
	}
	var visit func(i int)
	visit = func(i int) {
		k := ops[i].Key
		if done[k] {
			return
		}
		done[k] = true
		if k.Kind == KindAccount {
			if j, ok := index[Key{Kind: KindAccount, Name: want.Get(k).Fields["Parent"]}]; ok {
				visit(j)
			}
		}
		out = append(out, ops[i])
	}
	for i := range ops {
		visit(i)
	}
	return out
}

// firstAssoc marks, for each added user, the association of its default
// account that the user's add command creates (the first, by partition).
func firstAssoc(adds []Op) {
	def := map[string]string{}
	for _, op := range adds {
		if op.Key.Kind == KindUser {
			for _, c := range op.Changes {
				if c.Field == "DefaultAccount" {
					def[op.Key.Name] = c.New
				}
			}
		}
	}
	for i := range adds {
		k := adds[i].Key
		if k.Kind != KindAssoc || def[k.Name] != k.Account {
			continue
		}
		for j := range adds {
			if adds[j].Key.Kind == KindUser && adds[j].Key.Name == k.Name {
				adds[j].partition = k.Partition
			}
		}
		adds[i].withUser = true
		delete(def, k.Name)
	}
}

// orderRemoves puts associations first, then users, then accounts (each
// before its parent), then QOS.
func orderRemoves(ops []Op, cur *State) []Op {
	depths := map[Key]int{}
	depth := func(k Key) int {
		if d, ok := depths[k]; ok {
			return d
		}
		n := 0
		for a := cur.Get(k); a != nil && n < 64; n++ {
			p := a.Fields["Parent"]
			if p == "" || p == "root" {
				break
			}
			a = cur.Get(Key{Kind: KindAccount, Name: p})
		}
		depths[k] = n
		return n
	}
	rank := map[Kind]int{KindAssoc: 0, KindUser: 1, KindAccount: 2, KindQOS: 3}
	sort.SliceStable(ops, func(i, j int) bool {
		a, b := ops[i].Key, ops[j].Key
		if rank[a.Kind] != rank[b.Kind] {
			return rank[a.Kind] < rank[b.Kind]
		}
		if a.Kind == KindAccount && depth(a) != depth(b) {
			return depth(a) > depth(b)
		}
		return keyLess(a, b)
	})
	return ops
}

// Between plans the change from the accounting file old to new, as
// declared (either may be nil: no file). A field new sets and old did not
// is a change from ""; a field old set and new leaves out is not a change
// (the database keeps its value).
func Between(old, new *accounting.File) *Plan {
	o, n := newState(), newState()
	if old != nil {
		o = Declared(old)
	}
	if new != nil {
		n = Declared(new)
	}
	p, _ := Compare(o, n) // a declared state has every field: no error
	return p
}

// Empty reports whether the plan changes nothing.
func (p *Plan) Empty() bool { return len(p.Ops) == 0 }

// Removals returns the plan's removals.
func (p *Plan) Removals() []Op {
	var out []Op
	for _, op := range p.Ops {
		if op.Action == Remove {
			out = append(out, op)
		}
	}
	return out
}

// Count returns how many operations of each action the plan holds.
func (p *Plan) Count() (add, modify, remove int) {
	for _, op := range p.Ops {
		switch op.Action {
		case Add:
			add++
		case Modify:
			modify++
		case Remove:
			remove++
		}
	}
	return add, modify, remove
}

// Summary is one line: "2 to add, 1 to modify, 0 to remove", or "no
// changes".
func (p *Plan) Summary() string {
	if p.Empty() {
		return "no changes"
	}
	a, m, r := p.Count()
	return fmt.Sprintf("%d to add, %d to modify, %d to remove", a, m, r)
}

// Text writes the plan for a terminal: one line an operation, then its
// fields, old → new. What a capture holds is escaped (escape.Text): its
// names and values cannot drive the terminal or forge a line.
func (p *Plan) Text(w io.Writer) error {
	var b strings.Builder
	e := escape.Text
	fmt.Fprintf(&b, "accounting plan: %s\n", p.Summary())
	sign := map[Action]string{Add: "+", Modify: "~", Remove: "-"}
	for _, op := range p.Ops {
		fmt.Fprintf(&b, "%s %s %s\n", sign[op.Action], op.Action, e(op.Entity))
		if op.Loses != "" {
			b.WriteString("    (" + e(op.Loses) + ")\n")
		}
		for _, c := range op.Changes {
			line := "    " + e(c.Field) + ": "
			if op.Action == Modify {
				old := e(c.Old)
				if old == "" {
					old = `""`
				}
				line += old + " -> "
			}
			line += e(c.New)
			if c.New == "" {
				line += `""`
			}
			if c.Tightens != "" {
				line += " (tightens: " + c.Tightens + ")"
			}
			b.WriteString(line + "\n")
		}
	}
	_, err := io.WriteString(w, escape.Block(b.String()))
	if err != nil {
		return fmt.Errorf("writing the plan: %w", err)
	}
	return nil
}
