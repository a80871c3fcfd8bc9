package sacctmgr

// Reading a capture of the database: the output of `sacctmgr show … -P`
// (or -p) for qos, account, user and association, one table after the
// other, each under its header line.

import (
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/slurmspec/slurmspec/compiler/escape"
)

// CaptureCommand is the command line that captures what a plan needs,
// on a host where sacctmgr reaches the cluster's slurmdbd.
const CaptureCommand = `{ sacctmgr show qos -P format=Name,Priority,Preempt,PreemptMode,Flags,UsageFactor,GrpTRES,GrpJobs,MaxTRES,MaxTRESPerUser,MaxWall,MaxJobsPerUser,MaxSubmitJobsPerUser
  sacctmgr show account -P format=Account,Description
  sacctmgr show user -P format=User,DefaultAccount,AdminLevel
  sacctmgr show association -P format=Cluster,Account,User,Partition,ParentName,Share,QOS,DefaultQOS,GrpTRES,GrpJobs,MaxTRES,MaxWall,MaxJobs,MaxSubmit
} > current.txt`

// CaptureLine is CaptureCommand on one line, for an error message: the
// commands of the group separated by "; ".
func CaptureLine() string {
	lines := strings.Split(CaptureCommand, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	return strings.Join(lines, "; ")
}

// CaptureError is a capture that is not sacctmgr's output: the position
// of the first line that is not.
type CaptureError struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *CaptureError) Error() string {
	return fmt.Sprintf("%s:%d:%d: not sacctmgr show -P output: %s", e.File, e.Line, e.Col, e.Msg)
}

// table is what one header line of a capture says: the kind of its rows
// and the field each column holds ("" for a column a plan does not read).
type table struct {
	kind    Kind
	fields  []string
	cols    []string // the header's titles
	trailer bool     // -p: every line ends with |
}

// columnFields maps sacctmgr's column titles, for each table, to the
// fields of the entities (the names `set` takes).
var columnFields = map[Kind]map[string]string{
	KindQOS: {"Name": "Name", "Priority": "Priority", "Preempt": "Preempt", "PreemptMode": "PreemptMode", "Flags": "Flags",
		"UsageFactor": "UsageFactor", "GrpTRES": "GrpTRES", "GrpJobs": "GrpJobs", "MaxTRES": "MaxTRES", "MaxTRESPU": "MaxTRESPerUser",
		"MaxWall": "MaxWall", "MaxJobsPU": "MaxJobsPerUser", "MaxSubmitPU": "MaxSubmitJobsPerUser"},
	KindAccount: {"Account": "Account", "Descr": "Description", "Org": ""},
	KindUser:    {"User": "User", "Def Acct": "DefaultAccount", "Admin": "AdminLevel"},
	KindAssoc: {"Cluster": "Cluster", "Account": "Account", "User": "User", "Partition": "Partition", "ParentName": "Parent", "Par Name": "Parent",
		"Share": "Fairshare", "QOS": "QOS", "Def QOS": "DefaultQOS", "GrpTRES": "GrpTRES", "GrpJobs": "GrpJobs", "MaxTRES": "MaxTRES",
		"MaxWall": "MaxWall", "MaxJobs": "MaxJobs", "MaxSubmit": "MaxSubmitJobs"},
}

// headerKind says which table a header line starts, by its titles: qos
// (Name), account (Account and Descr or Org, no User), user (User and
// Def Acct or Admin, no Account), association (Account and User).
func headerKind(cols []string) (Kind, bool) {
	has := map[string]bool{}
	for _, c := range cols {
		has[c] = true
	}
	switch {
	case has["Name"] && !has["Account"] && !has["User"]:
		return KindQOS, true
	case has["Account"] && has["User"]:
		return KindAssoc, true
	case has["Account"] && (has["Descr"] || has["Org"]):
		return KindAccount, true
	case has["User"] && (has["Def Acct"] || has["Admin"]):
		return KindUser, true
	}
	return "", false
}

// ParseCapture reads a capture: CaptureCommand's output, or `sacctmgr
// dump` output (dump.go), or both. Tables may come in any order and with
// any of sacctmgr's columns; blank lines, and the comments a dump starts
// with, are skipped. Anything else, a data line before a header or a line with the
// wrong number of columns, is a *CaptureError at that line. Associations
// of more than one cluster are an error too.
func ParseCapture(name string, data []byte) (*State, error) {
	s := newState()
	s.columns = map[Kind]map[string]bool{}
	if !utf8.Valid(data) {
		return nil, &CaptureError{File: name, Line: 1, Col: 1, Msg: "not UTF-8 text"}
	}
	var cur *table
	clusters := map[string]bool{}
	dump := &dumpReader{}
	lines := strings.Split(string(data), "\n")
	for i, line := range lines {
		line = strings.TrimSuffix(line, "\r")
		n := i + 1
		if strings.TrimSpace(line) == "" {
			continue
		}
		bad := func(col int, format string, args ...any) error {
			return &CaptureError{File: name, Line: n, Col: col, Msg: escape.Text(fmt.Sprintf(format, args...))}
		}
		if strings.HasPrefix(line, "#") && cur == nil {
			continue // the comments a dump starts with
		}
		if dumpStart.MatchString(line) {
			if col, err := s.addDumpLine(dump, line, clusters); err != nil {
				return nil, bad(col, "%v", err)
			}
			cur = nil
			continue
		}
		if n := strings.Count(line, "|"); n >= maxColumns {
			return nil, bad(1, "%d columns; sacctmgr shows at most %d", n+1, maxColumns)
		}
		cols := strings.Split(line, "|")
		if k, ok := headerKind(cols); ok {
			t := &table{kind: k, cols: cols}
			if cols[len(cols)-1] == "" {
				t.trailer, t.cols = true, cols[:len(cols)-1]
			}
			seen := s.columns[k]
			if seen == nil {
				seen = map[string]bool{}
				s.columns[k] = seen
			}
			for j, c := range t.cols {
				f, known := columnFields[k][c]
				if !known && c == "" {
					return nil, bad(colOf(line, j), "an empty column title")
				}
				t.fields = append(t.fields, f)
				if f != "" {
					seen[f] = true
				}
			}
			cur = t
			continue
		}
		if cur == nil {
			return nil, bad(1, "%q is neither a line of sacctmgr dump nor a header of sacctmgr show qos, account, user or association -P (capture with: sacctmgr show qos -P …)", clip(line))
		}
		if cur.trailer {
			if !strings.HasSuffix(line, "|") {
				return nil, bad(len(line)+1, "the header ends with |, this line does not")
			}
			cols = cols[:len(cols)-1]
		}
		if len(cols) != len(cur.cols) {
			return nil, bad(1, "%d columns, the %s header above has %d: %q", len(cols), cur.kind, len(cur.cols), clip(line))
		}
		row := map[string]string{}
		for j, f := range cur.fields {
			if f != "" {
				row[f] = cols[j]
			}
		}
		if err := s.addRow(cur.kind, row, clusters); err != nil {
			return nil, bad(1, "%v", err)
		}
	}
	if len(s.columns) == 0 {
		return nil, &CaptureError{File: name, Line: 1, Col: 1, Msg: "no sacctmgr table (the file is empty)"}
	}
	if err := oneCluster(clusters); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return s, nil
}

// oneCluster refuses associations of more than one cluster.
func oneCluster(clusters map[string]bool) error {
	if len(clusters) <= 1 {
		return nil
	}
	names := make([]string, 0, len(clusters))
	for c := range clusters {
		names = append(names, c)
	}
	sort.Strings(names)
	return fmt.Errorf("associations of %d clusters (%s): capture one cluster's (sacctmgr show association cluster=NAME)", len(names), escape.Text(strings.Join(names, ", ")))
}

// Row is one row of the database as a reader other than sacctmgr's
// output gives it (deploy/slurmapi reads slurmrestd's /slurmdb/ answers):
// its kind (qos, account, user or association; an account's own
// association is an association row without a User) and its fields, named
// as sacctmgr's set takes them (Priority, MaxTRESPerUser, Parent,
// Fairshare …) with the row's names under Name (qos), Account, User,
// Partition and Cluster, and values as sacctmgr shows them.
type Row struct {
	Kind   Kind
	Fields map[string]string
}

// FromRows builds the state of a whole database from its rows: like a
// dump, it holds every field of every kind, so a field a row leaves out
// has Slurm's default. Rows without a name, or associations of more than
// one cluster, are an error.
func FromRows(rows []Row) (*State, error) {
	s := newState()
	s.columns = map[Kind]map[string]bool{}
	for _, k := range []Kind{KindQOS, KindAccount, KindUser, KindAssoc} {
		s.columns[k] = map[string]bool{"*": true}
	}
	clusters := map[string]bool{}
	for _, r := range rows {
		if err := s.addRow(r.Kind, r.Fields, clusters); err != nil {
			return nil, err
		}
	}
	if err := oneCluster(clusters); err != nil {
		return nil, err
	}
	return s, nil
}

// addRow adds one row of a table to the state, whose names must be
// names sacctmgr's command line can carry and which may not grow past
// MaxEntities.
func (s *State) addRow(kind Kind, row map[string]string, clusters map[string]bool) error {
	for _, f := range nameFields[kind] {
		if err := checkName(row[f]); err != nil {
			return err
		}
	}
	if err := s.addRowFields(kind, row, clusters); err != nil {
		return err
	}
	return s.checkSize()
}

// nameFields are the fields of each kind of row that name an entity: a
// plan's script writes them into sacctmgr's command line.
var nameFields = map[Kind][]string{
	KindQOS:     {"Name"},
	KindAccount: {"Account"},
	KindUser:    {"User"},
	KindAssoc:   {"Account", "User", "Partition", "Parent"},
}

// checkName refuses a name that sacctmgr's command line cannot carry as
// one name: a comma separates names (name=x,root names root too), = and
// white space start another option, quotes and backslashes are taken out
// by sacctmgr, and control or format characters would forge what a
// reviewer reads. The other characters a shell treats specially are
// quoted in a plan's script (shellquote.Word). "." and ".." are refused
// too: slurmspec-deploy deletes an entity through a REST path ending in
// its name, where they would name another path.
func checkName(s string) error {
	if s == "." || s == ".." {
		return fmt.Errorf("the name %q is a path element, not a name", s)
	}
	i := strings.IndexFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || escape.Hidden(r) || strings.ContainsRune(",='\"\\", r)
	})
	if i < 0 {
		return nil
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return fmt.Errorf("the name %q holds %q, which sacctmgr's command line cannot carry in a name", clip(s), r)
}

// maxColumns bounds the columns of a line (sacctmgr's tables have a few
// dozen): a 16 MiB header of 8 million columns took 720 MB.
const maxColumns = 256

// MaxEntities is the most entities (QOS, accounts, users and
// associations together) a capture, or slurmrestd's rows, may hold: 16
// MiB of short rows made 2.4 million entities and 3.7 GB resident.
const MaxEntities = 200_000

// checkSize refuses a state of more than MaxEntities entities.
func (s *State) checkSize() error {
	if len(s.entities) > MaxEntities {
		return fmt.Errorf("more than %d QOS, accounts, users and associations; slurmspec plans at most that many", MaxEntities)
	}
	return nil
}

// addRowFields adds one row of a table to the state.
func (s *State) addRowFields(kind Kind, row map[string]string, clusters map[string]bool) error {
	fields := func(e *Entity, skip ...string) {
	next:
		for f, v := range row {
			for _, k := range skip {
				if f == k {
					continue next
				}
			}
			e.Fields[f] = v
		}
	}
	switch kind {
	case KindQOS:
		if row["Name"] == "" {
			return fmt.Errorf("a QOS without a name")
		}
		fields(s.entity(Key{Kind: KindQOS, Name: row["Name"]}), "Name")
	case KindAccount:
		if row["Account"] == "" {
			return fmt.Errorf("an account without a name")
		}
		fields(s.entity(Key{Kind: KindAccount, Name: row["Account"]}), "Account")
	case KindUser:
		if row["User"] == "" {
			return fmt.Errorf("a user without a name")
		}
		fields(s.entity(Key{Kind: KindUser, Name: row["User"]}), "User")
	case KindAssoc:
		if row["Account"] == "" {
			return fmt.Errorf("an association without an account")
		}
		if c := row["Cluster"]; c != "" {
			clusters[c] = true
		}
		if row["User"] == "" {
			// The account's own association holds its parent, share,
			// QOS and limits.
			fields(s.entity(Key{Kind: KindAccount, Name: row["Account"]}), "Cluster", "Account", "User", "Partition")
			return nil
		}
		s.entity(Key{Kind: KindUser, Name: row["User"]})
		fields(s.entity(Key{Kind: KindAssoc, Name: row["User"], Account: row["Account"], Partition: row["Partition"]}),
			"Cluster", "Account", "User", "Partition", "Parent")
	}
	return nil
}

// has reports whether the capture holds the field for entities of kind
// (a dump holds every field: one a line leaves out has its default); a
// declared state holds every field it has.
func (s *State) has(kind Kind, field string) bool {
	if s.columns == nil {
		return true
	}
	c := func(k Kind) bool { return s.columns[k]["*"] || s.columns[k][field] }
	switch {
	case kind == KindAccount && field == "Description":
		return c(KindAccount)
	case kind == KindAccount:
		return c(KindAssoc) || c(KindAccount)
	}
	return c(kind)
}

// hasTable reports whether the capture holds the entities of kind at
// all: a capture without a QOS table (a dump before 26.05) cannot say
// which QOS exist.
func (s *State) hasTable(kind Kind) bool {
	if s.columns == nil {
		return true
	}
	switch kind {
	case KindAccount:
		return s.columns[KindAccount] != nil || s.columns[KindAssoc] != nil
	}
	return s.columns[kind] != nil
}

// colOf is the column (1-based, in characters) where the j-th |-separated
// field of line starts.
func colOf(line string, j int) int {
	col := 1
	for i := 0; i < j; i++ {
		k := strings.IndexByte(line, '|')
		if k < 0 {
			break
		}
		col += utf8.RuneCountInString(line[:k+1])
		line = line[k+1:]
	}
	return col
}

// clip shortens a line for a message.
func clip(s string) string {
	if utf8.RuneCountInString(s) > 80 {
		return string([]rune(s)[:80]) + "…"
	}
	return s
}
