// Package accounting reads a cluster's accounting file: the QOS, accounts
// and users that slurmdbd holds, declared beside the cluster spec (which
// stays exactly the API's resource). The file is JSON with comments, YAML
// or CUE, read by compiler/load with the position of every value, checked
// against the embedded CUE schema (accounting.cue) and decoded into File.
package accounting

import (
	_ "embed"
	"os"
	"path/filepath"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/load"
)

//go:embed accounting.cue
var cueSource string

// CUESource returns the embedded CUE schema of the accounting file.
func CUESource() []byte { return []byte(cueSource) }

// RuleSchema is the id of the schema's diagnostics.
const RuleSchema = "accounting-schema"

// Value is a scalar of the file with where it was written. Set is false for
// a field the file leaves out.
type Value struct {
	Text string
	Pos  diag.Pos
	Path string
	Set  bool
}

// Limit is one entry of a limits map, its key spelt as Slurm spells it.
type Limit struct {
	Key   string
	Value Value
}

// QOS is one quality of service.
type QOS struct {
	Name        Value
	Priority    Value
	Preempt     []Value
	PreemptMode Value
	Flags       []Value
	UsageFactor Value
	Limits      []Limit
}

// Account is one account; Parent is "root" when the file names none.
type Account struct {
	Name        Value
	Description Value
	Parent      Value
	Fairshare   Value
	QOS         []Value
	DefaultQOS  Value
	Limits      []Limit
}

// User is one user and its associations.
type User struct {
	Name           Value
	DefaultAccount Value
	// Accounts are the accounts of the user's associations, the default
	// account first.
	Accounts   []Value
	Partitions []Value
	QOS        []Value
	DefaultQOS Value
	Fairshare  Value
	AdminLevel Value
}

// File is a decoded accounting file.
type File struct {
	// Name is the file's name as given, used in positions.
	Name string
	// Pos is the position of the file's top-level object.
	Pos      diag.Pos
	QOS      []QOS
	Accounts []Account
	Users    []User
}

// Suffix is what the conventional accounting file of a spec adds to the
// spec's name without its extension: a4.yaml's is a4.accounting.yaml.
const Suffix = ".accounting"

// Beside returns the accounting file that belongs to the spec file by
// convention: <spec without extension>.accounting.<ext> in the spec's
// directory, for the first of .yaml, .yml, .json, .jsonc and .cue that
// exists; "" when none does (or the spec is standard input).
func Beside(spec string) string {
	if spec == "-" || spec == "" {
		return ""
	}
	stem := strings.TrimSuffix(spec, filepath.Ext(spec))
	for _, ext := range []string{".yaml", ".yml", ".json", ".jsonc", ".cue"} {
		name := stem + Suffix + ext
		if fi, err := os.Lstat(name); err == nil && fi.Mode().IsRegular() {
			return name
		}
	}
	return ""
}

// Load reads, checks and decodes an accounting file. The file is returned
// only when the list holds no error.
// A path that passes through a symbolic link is refused: the file is
// named by the repository (by convention, or by .slurmspec.yaml), and a
// linked directory could point outside it.
func Load(name string) (*File, diag.List) {
	if link := load.LinkOnPath(name); link != "" {
		var l diag.List
		l.Errorf(load.RuleIO, diag.Pos{File: name}, "", "name the accounting file by its real path, in the repository",
			"accounting file %s passes through %s, a symbolic link; slurmspec does not follow links in paths a repository names", name, link)
		return nil, l
	}
	data, err := load.ReadFile(name, load.MaxFileSize)
	if err != nil {
		var l diag.List
		l.Errorf(load.RuleIO, diag.Pos{File: name}, "", "check the path and its permissions", "cannot read accounting file: %v", err)
		return nil, l
	}
	return LoadBytes(name, data)
}

// LoadBytes is Load for a file already in memory.
func LoadBytes(name string, data []byte) (*File, diag.List) {
	doc, l := load.Bytes(name, data, loadOptions())
	return fromDoc(doc, l)
}

// loadOptions keep the keys of limits as written: they are Slurm's.
func loadOptions() load.Options {
	return load.Options{Kind: "accounting file", Verbatim: func(p load.Path) bool {
		return len(p) > 0 && !p[len(p)-1].IsIndex && p[len(p)-1].Name == "limits"
	}}
}

func fromDoc(doc *load.Document, l diag.List) (*File, diag.List) {
	if doc == nil || doc.Root == nil || l.HasErrors() {
		return nil, l
	}
	l = append(l, validate(doc)...)
	if l.HasErrors() {
		return nil, l
	}
	return decode(doc), l
}

// decode turns a document the schema accepted into a File.
func decode(doc *load.Document) *File {
	f := &File{Name: doc.File, Pos: doc.Root.Pos}
	root := doc.Root
	for i, n := range items(root.Get("qos")) {
		p := load.Path{}.Key("qos").Index(i)
		f.QOS = append(f.QOS, QOS{
			Name:        value(n, p, "name"),
			Priority:    value(n, p, "priority"),
			Preempt:     list(n, p, "preempt"),
			PreemptMode: value(n, p, "preemptMode"),
			Flags:       list(n, p, "flags"),
			UsageFactor: value(n, p, "usageFactor"),
			Limits:      limits(n, p),
		})
	}
	for i, n := range items(root.Get("accounts")) {
		p := load.Path{}.Key("accounts").Index(i)
		a := Account{
			Name:        value(n, p, "name"),
			Description: value(n, p, "description"),
			Parent:      value(n, p, "parent"),
			Fairshare:   value(n, p, "fairshare"),
			QOS:         list(n, p, "qos"),
			DefaultQOS:  value(n, p, "defaultQos"),
			Limits:      limits(n, p),
		}
		if !a.Parent.Set {
			a.Parent = Value{Text: "root", Pos: a.Name.Pos, Path: a.Name.Path}
		}
		f.Accounts = append(f.Accounts, a)
	}
	for i, n := range items(root.Get("users")) {
		p := load.Path{}.Key("users").Index(i)
		u := User{
			Name:           value(n, p, "name"),
			DefaultAccount: value(n, p, "defaultAccount"),
			Partitions:     list(n, p, "partitions"),
			QOS:            list(n, p, "qos"),
			DefaultQOS:     value(n, p, "defaultQos"),
			Fairshare:      value(n, p, "fairshare"),
			AdminLevel:     value(n, p, "adminLevel"),
		}
		u.Accounts = []Value{u.DefaultAccount}
		for _, a := range list(n, p, "accounts") {
			if a.Text != u.DefaultAccount.Text {
				u.Accounts = append(u.Accounts, a)
			}
		}
		f.Users = append(f.Users, u)
	}
	return f
}

func items(n *load.Node) []*load.Node {
	if n == nil || n.Kind != load.Array {
		return nil
	}
	return n.Items
}

func scalar(n *load.Node, p load.Path) Value {
	v := Value{Text: n.Text, Pos: n.Pos, Path: p.String(), Set: true}
	if n.Kind == load.Bool {
		v.Text = "false"
		if n.True {
			v.Text = "true"
		}
	}
	return v
}

func value(obj *load.Node, p load.Path, name string) Value {
	if n := obj.Get(name); n != nil {
		return scalar(n, p.Key(name))
	}
	return Value{}
}

func list(obj *load.Node, p load.Path, name string) []Value {
	var out []Value
	for i, n := range items(obj.Get(name)) {
		out = append(out, scalar(n, p.Key(name).Index(i)))
	}
	return out
}

func limits(obj *load.Node, p load.Path) []Limit {
	n := obj.Get("limits")
	if n == nil || n.Kind != load.Object {
		return nil
	}
	var out []Limit
	for _, fl := range n.Fields {
		out = append(out, Limit{Key: fl.Name, Value: scalar(fl.Value, p.Key("limits").Key(fl.Name))})
	}
	return out
}
