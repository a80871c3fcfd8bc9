package sacctmgr

// The accounting database as a set of entities (QOS, accounts, users and
// user associations), each with the fields sacctmgr shows and sets: what
// an accounting file declares (Declared) and what a capture of sacctmgr's
// output holds (ParseCapture). Plan compares the two.

import (
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/slurmspec/slurmspec/schema/accounting"
)

// Kind is the kind of an entity of the accounting database.
type Kind string

// Kinds of entity, in the order a plan adds them.
const (
	KindQOS     Kind = "qos"
	KindAccount Kind = "account"
	KindUser    Kind = "user"
	// KindAssoc is a user's association with an account, and with a
	// partition when one is named.
	KindAssoc Kind = "association"
)

var kindOrder = map[Kind]int{KindQOS: 0, KindAccount: 1, KindUser: 2, KindAssoc: 3}

// Key names one entity. Name is the QOS, account or user name; Account
// and Partition are set for an association (whose Name is its user).
type Key struct {
	Kind               Kind
	Name               string
	Account, Partition string
}

// String names the entity as a plan lists it: "qos urgent", "account
// vision", "user bob", "association bob/vision/train".
func (k Key) String() string {
	if k.Kind != KindAssoc {
		return string(k.Kind) + " " + k.Name
	}
	s := "association " + k.Name + "/" + k.Account
	if k.Partition != "" {
		s += "/" + k.Partition
	}
	return s
}

// Entity is one entity with its fields, keyed by the name sacctmgr's
// `set` takes (Priority, Preempt, MaxTRESPerUser, Parent, Fairshare …).
type Entity struct {
	Key    Key
	Fields map[string]string
}

// State is a set of entities.
type State struct {
	entities map[Key]*Entity
	// columns are the fields the source holds for each kind; nil for a
	// declared state (its entities hold exactly what the file declares).
	columns map[Kind]map[string]bool
}

func newState() *State { return &State{entities: map[Key]*Entity{}} }

// entity returns the entity of k, creating it when missing.
func (s *State) entity(k Key) *Entity {
	e := s.entities[k]
	if e == nil {
		e = &Entity{Key: k, Fields: map[string]string{}}
		s.entities[k] = e
	}
	return e
}

// Get returns the entity of k, nil when the state has none.
func (s *State) Get(k Key) *Entity { return s.entities[k] }

// Keys returns every entity's key in plan order: by kind, then name.
func (s *State) Keys() []Key {
	keys := make([]Key, 0, len(s.entities))
	for k := range s.entities {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keyLess(keys[i], keys[j]) })
	return keys
}

func keyLess(a, b Key) bool {
	if a.Kind != b.Kind {
		return kindOrder[a.Kind] < kindOrder[b.Kind]
	}
	if a.Name != b.Name {
		return a.Name < b.Name
	}
	if a.Account != b.Account {
		return a.Account < b.Account
	}
	return a.Partition < b.Partition
}

// Declared is the state an accounting file declares: every QOS, account,
// user and association, with the fields the file sets (an account's
// parent always: root when the file names none). A field the file leaves
// out is not part of the state, and a plan leaves it as it is.
func Declared(f *accounting.File) *State {
	s := newState()
	for _, q := range f.QOS {
		e := s.entity(Key{Kind: KindQOS, Name: q.Name.Text})
		declValue(e, "Priority", q.Priority)
		declList(e, "Preempt", q.Preempt)
		declValue(e, "PreemptMode", q.PreemptMode)
		declList(e, "Flags", q.Flags)
		declValue(e, "UsageFactor", q.UsageFactor)
		declLimits(e, q.Limits)
	}
	for _, a := range f.Accounts {
		e := s.entity(Key{Kind: KindAccount, Name: a.Name.Text})
		e.Fields["Parent"] = a.Parent.Text
		declValue(e, "Description", a.Description)
		declValue(e, "Fairshare", a.Fairshare)
		declList(e, "QOS", a.QOS)
		declValue(e, "DefaultQOS", a.DefaultQOS)
		declLimits(e, a.Limits)
	}
	for _, u := range f.Users {
		e := s.entity(Key{Kind: KindUser, Name: u.Name.Text})
		e.Fields["DefaultAccount"] = u.DefaultAccount.Text
		declValue(e, "AdminLevel", u.AdminLevel)
		parts := []string{""}
		if len(u.Partitions) > 0 {
			parts = nil
			for _, p := range u.Partitions {
				parts = append(parts, p.Text)
			}
		}
		for _, a := range u.Accounts {
			for _, p := range parts {
				ae := s.entity(Key{Kind: KindAssoc, Name: u.Name.Text, Account: a.Text, Partition: p})
				declValue(ae, "Fairshare", u.Fairshare)
				declList(ae, "QOS", u.QOS)
				declValue(ae, "DefaultQOS", u.DefaultQOS)
			}
		}
	}
	return s
}

func declValue(e *Entity, key string, v accounting.Value) {
	if v.Set {
		e.Fields[key] = v.Text
	}
}

// declList sets a list field; a list the file writes empty ([]) is set,
// as the empty value.
func declList(e *Entity, key string, vs []accounting.Value) {
	if vs == nil {
		return
	}
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = v.Text
	}
	e.Fields[key] = strings.Join(s, ",")
}

func declLimits(e *Entity, ls []accounting.Limit) {
	for _, l := range ls {
		e.Fields[l.Key] = l.Value.Text
	}
}

// builtin reports whether every database has the entity, so that a plan
// never removes it: the root account and user (and root's association)
// and the normal QOS.
func builtin(k Key) bool {
	switch k.Kind {
	case KindQOS:
		return k.Name == "normal"
	case KindAccount, KindUser:
		return k.Name == "root"
	case KindAssoc:
		return k.Name == "root" && k.Account == "root"
	}
	return false
}

// Field kinds: how a field's values are compared.
var (
	listFields  = map[string]bool{"Preempt": true, "Flags": true, "QOS": true}
	countFields = map[string]bool{"GrpJobs": true, "MaxJobs": true, "MaxSubmitJobs": true, "MaxJobsPerUser": true, "MaxSubmitJobsPerUser": true}
	foldFields  = map[string]bool{"PreemptMode": true, "AdminLevel": true, "DefaultQOS": true, "DefaultAccount": true, "Parent": true}
)

// isTRES reports whether a field is a TRES list.
func isTRES(field string) bool { return strings.Contains(field, "TRES") }

// Normal returns a field's value in a form where two spellings of the
// same setting are equal: lists sorted, counts and wall times as numbers
// (unlimited as ""), TRES sorted by name with their sizes in one unit,
// names in lower case, and a field a dump leaves out as its default
// (Priority 0, UsageFactor 1, Fairshare 1, PreemptMode cluster).
func Normal(field, v string) string {
	v = strings.TrimSpace(v)
	switch {
	case listFields[field]:
		return normalList(v)
	case isTRES(field):
		return normalTRES(v)
	case countFields[field]:
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
			return strconv.FormatInt(n, 10)
		}
		return ""
	case field == "Priority":
		if v == "" {
			return "0"
		}
	case field == "MaxWall":
		if m, ok := wallMinutes(v); ok {
			return strconv.FormatInt(m, 10)
		}
		return ""
	case field == "UsageFactor":
		if v == "" {
			return "1"
		}
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			return strconv.FormatFloat(f, 'g', -1, 64)
		}
	case field == "Fairshare" && v == "":
		return "1"
	case field == "PreemptMode" && v == "":
		return "cluster"
	case foldFields[field]:
		return strings.ToLower(v)
	}
	return v
}

func normalList(v string) string {
	var items []string
	seen := map[string]bool{}
	for _, s := range strings.Split(v, ",") {
		s = strings.ToLower(strings.TrimSpace(s))
		if s != "" && !seen[s] {
			seen[s] = true
			items = append(items, s)
		}
	}
	sort.Strings(items)
	return strings.Join(items, ",")
}

// tresItems reads a TRES list into name → size; a size of -1 (a limit
// cleared) is left out.
func tresItems(v string) map[string]string {
	out := map[string]string{}
	for _, item := range strings.Split(v, ",") {
		name, size, ok := strings.Cut(strings.TrimSpace(item), "=")
		if !ok || name == "" {
			continue
		}
		if n, ok := tresSize(size); ok {
			out[strings.ToLower(name)] = n
		}
	}
	return out
}

func normalTRES(v string) string {
	items := tresItems(v)
	names := make([]string, 0, len(items))
	for n := range items {
		names = append(names, n)
	}
	sort.Strings(names)
	for i, n := range names {
		names[i] = n + "=" + items[n]
	}
	return strings.Join(names, ",")
}

// tresSize is a TRES count in one unit: a size with a K, M, G, T or P
// suffix in kibibytes, a bare number (megabytes for mem, a count
// otherwise) as written times 1024, so that mem=1G and mem=1024 compare
// equal. The product is exact, however large (it wrapped around: cpu=
// 18014398509481985 equalled cpu=1). -1 and malformed sizes report false.
func tresSize(s string) (string, bool) {
	mult := int64(1024)
	if i := strings.IndexAny(s, "KMGTP"); i > 0 && i == len(s)-1 {
		mult = map[byte]int64{'K': 1, 'M': 1 << 10, 'G': 1 << 20, 'T': 1 << 30, 'P': 1 << 40}[s[i]]
		s = s[:i]
	}
	if s == "" || strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }) >= 0 {
		return "", false
	}
	n, _ := new(big.Int).SetString(s, 10)
	return n.Mul(n, big.NewInt(mult)).String(), true
}

// lessNumber reports whether the decimal a is below b, at any size; a
// value that is not a number counts as 0.
func lessNumber(a, b string) bool {
	x, ok := new(big.Int).SetString(a, 10)
	if !ok {
		x = new(big.Int)
	}
	y, ok := new(big.Int).SetString(b, 10)
	if !ok {
		y = new(big.Int)
	}
	return x.Cmp(y) < 0
}

// wallMinutes reads a wall time (minutes, [days-]hours:minutes[:seconds]
// as sacctmgr shows it, or UNLIMITED) in minutes; false for unlimited.
func wallMinutes(v string) (int64, bool) {
	if v == "" || strings.EqualFold(v, "UNLIMITED") || strings.HasPrefix(v, "-") {
		return 0, false
	}
	days := int64(0)
	d, rest, hasDays := strings.Cut(v, "-")
	if hasDays {
		n, err := strconv.ParseInt(d, 10, 64)
		if err != nil {
			return 0, false
		}
		days, v = n, rest
	}
	parts := strings.Split(v, ":")
	nums := make([]int64, len(parts))
	for i, p := range parts {
		n, err := strconv.ParseInt(p, 10, 64)
		if err != nil {
			return 0, false
		}
		nums[i] = n
	}
	// Slurm's reading (time_str2mins): minutes, minutes:seconds,
	// hours:minutes:seconds, days-hours, days-hours:minutes,
	// days-hours:minutes:seconds; seconds round up to a minute.
	// Computed exactly, then capped at the largest int64: a wall time
	// of more minutes wrapped around to a negative one.
	b := func(n int64) *big.Int { return big.NewInt(n) }
	// seconds rounded up to minutes, as (s+59)/60 in Go's division
	up := func(s int64) *big.Int { return new(big.Int).Quo(new(big.Int).Add(b(s), b(59)), b(60)) }
	m := new(big.Int)
	switch {
	case len(nums) == 1 && hasDays:
		m.Mul(b(nums[0]), b(60))
	case len(nums) == 1:
		m.Set(b(nums[0]))
	case len(nums) == 2 && hasDays:
		m.Mul(b(nums[0]), b(60)).Add(m, b(nums[1]))
	case len(nums) == 2:
		m.Add(b(nums[0]), up(nums[1]))
	default:
		m.Mul(b(nums[0]), b(60)).Add(m, b(nums[1])).Add(m, up(nums[2]))
	}
	m.Add(m, new(big.Int).Mul(b(days), b(24*60)))
	if !m.IsInt64() {
		return math.MaxInt64, true
	}
	return m.Int64(), true
}
