package accounting_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/schema/accounting"
)

const good = `# teams of the A4 cluster
qos:
  - name: scavenger
    priority: 10
    preemptMode: requeue
  - name: high
    priority: 1000
    preempt: [scavenger]
    flags: [DenyOnLimit]
    usageFactor: 1.5
    limits: {MaxTRESPerUser: "gres/gpu=16", MaxWall: "2-00:00:00", MaxJobsPerUser: 4}
accounts:
  - name: research
    fairshare: 10
    qos: [normal, high, scavenger]
    defaultQos: normal
  - name: vision
    parent: research
    limits: {GrpTRES: "gres/gpu=32"}
users:
  - name: alice
    defaultAccount: vision
    accounts: [research]
    partitions: [a4]
    adminLevel: Operator
`

func TestLoadDecodes(t *testing.T) {
	f, l := accounting.LoadBytes("a.accounting.yaml", []byte(good))
	if len(l) > 0 || f == nil {
		t.Fatalf("unexpected diagnostics:\n%s", l)
	}
	if len(f.QOS) != 2 || len(f.Accounts) != 2 || len(f.Users) != 1 {
		t.Fatalf("decoded %d QOS, %d accounts, %d users", len(f.QOS), len(f.Accounts), len(f.Users))
	}
	high := f.QOS[1]
	if high.Priority.Text != "1000" || high.Preempt[0].Text != "scavenger" || high.UsageFactor.Text != "1.5" {
		t.Errorf("QOS high decoded as %+v", high)
	}
	if len(high.Limits) != 3 || high.Limits[0].Key != "MaxTRESPerUser" || high.Limits[0].Value.Pos.Line != 11 {
		t.Errorf("limits of high: %+v", high.Limits)
	}
	if f.Accounts[0].Parent.Text != "root" || f.Accounts[1].Parent.Text != "research" {
		t.Errorf("parents: %q, %q", f.Accounts[0].Parent.Text, f.Accounts[1].Parent.Text)
	}
	u := f.Users[0]
	if len(u.Accounts) != 2 || u.Accounts[0].Text != "vision" || u.Accounts[1].Text != "research" {
		t.Errorf("user accounts: %+v", u.Accounts)
	}
	if p := u.DefaultAccount.Pos; p.File != "a.accounting.yaml" || p.Line != 22 || p.Col != 21 {
		t.Errorf("defaultAccount at %v, want a.accounting.yaml:22:21", p)
	}
}

func TestSchemaRefuses(t *testing.T) {
	for _, tc := range []struct{ name, text, at, want string }{
		{"capital account", "accounts:\n  - name: Research\n", "2:11", `accounts[0].name: invalid value "Research"`},
		{"comma in QOS", "qos:\n  - {name: \"a,b\"}\n", "2:12", "qos[0].name"},
		{"quote in user", "users:\n  - {name: \"bo'b\", defaultAccount: x}\n", "2:12", "users[0].name"},
		{"unknown field", "users:\n  - {name: bob, defaultAccount: x, shell: zsh}\n", "2:43", "users[0].shell: field not allowed"},
		{"unknown limit", "qos:\n  - {name: a, limits: {MaxCPUs: 4}}\n", "2:33", "qos[0].limits.MaxCPUs: field not allowed"},
		{"bad TRES", "qos:\n  - {name: a, limits: {GrpTRES: \"gpu 8\"}}\n", "2:33", "qos[0].limits.GrpTRES"},
		{"missing default account", "users:\n  - name: bob\n", "2:5", "users[0].defaultAccount: field is required"},
		{"bad preempt mode", "qos:\n  - {name: a, preemptMode: gang}\n", "2:28", `qos[0].preemptMode: invalid value "gang" (want one of "cancel", "cluster", "off", "requeue", "suspend")`},
		{"not an object", "- a\n", "1:1", "the file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, l := accounting.LoadBytes("x.yaml", []byte(tc.text))
			if f != nil || !l.HasErrors() {
				t.Fatalf("accepted:\n%s", tc.text)
			}
			for _, d := range l {
				at := strings.Join([]string{itoa(d.Pos.Line), itoa(d.Pos.Col)}, ":")
				if d.Rule == accounting.RuleSchema && at == tc.at && strings.Contains(d.Message, tc.want) && d.Hint != "" {
					return
				}
			}
			t.Errorf("want %q at %s, got:\n%s", tc.want, tc.at, l)
		})
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestFormats(t *testing.T) {
	for name, text := range map[string]string{
		"a.json": `{"accounts": [{"name": "research"}], // teams
		"users": [{"name": "alice", "default_account": "research"}]}`,
		"a.cue": "accounts: [{name: \"research\"}]\nusers: [{name: \"alice\", defaultAccount: \"research\"}]\n",
	} {
		f, l := accounting.LoadBytes(name, []byte(text))
		if f == nil || len(l) > 0 || f.Users[0].DefaultAccount.Text != "research" || f.Users[0].DefaultAccount.Pos.Line == 0 {
			t.Errorf("%s: %v %s", name, f, l)
		}
	}
}

func TestBeside(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "a4.yaml")
	if got := accounting.Beside(spec); got != "" {
		t.Errorf("no file: got %q", got)
	}
	want := filepath.Join(dir, "a4.accounting.yaml")
	if err := os.WriteFile(want, []byte(good), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := accounting.Beside(spec); got != want {
		t.Errorf("Beside(%s) = %q, want %q", spec, got, want)
	}
	if got := accounting.Beside("-"); got != "" {
		t.Errorf("stdin: got %q", got)
	}
}

// TestLoadRefusesLinkedDirectory: a linked directory on the accounting
// file's path (a repository can commit acct -> /elsewhere) is refused, and
// nothing behind it is read.
func TestLoadRefusesLinkedDirectory(t *testing.T) {
	outside, repo := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "teams.yaml"), []byte("SECRET: x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(repo, "acct")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(repo)
	f, l := accounting.Load(filepath.Join("acct", "teams.yaml"))
	if f != nil || len(l) != 1 || l[0].Rule != "load-io" || !strings.Contains(l[0].Message, "symbolic link") || strings.Contains(fmt.Sprint(l), "SECRET") {
		t.Errorf("Load through a link: %v", l)
	}
}

// TestLoadUnreadableSaysAccountingFile: a file that cannot be read (here a
// directory) is reported as the accounting file, not as a spec.
func TestLoadUnreadableSaysAccountingFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "teams.accounting.yaml")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	f, l := accounting.Load(dir)
	want := "cannot read accounting file: " + dir + " is a directory, not a file"
	if f != nil || len(l) != 1 || l[0].Rule != "load-io" || l[0].Message != want || l[0].Pos.File != dir {
		t.Errorf("Load of a directory: %v; want one load-io error %q", l, want)
	}
}

// TestLoadRefusalsSayAccountingFile: the loader's refusals of the bytes
// themselves name the accounting file, not a spec.
func TestLoadRefusalsSayAccountingFile(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		data       []byte
		want       string
	}{
		{"empty", "teams.accounting.yaml", []byte("# nothing yet\n"), "accounting file is empty"},
		{"utf16", "teams.accounting.yaml", []byte("\xff\xfeq\x00o\x00s\x00"), "accounting file is UTF-16 (or UTF-32) encoded, not UTF-8"},
		{"nul", "teams.accounting.json", []byte("{\"qos\": [\x00]}"), "accounting file contains a NUL byte"},
		{"latin1", "teams.accounting.yaml", []byte("qos:\n  - name: caf\xe9\n"), "accounting file is not valid UTF-8"},
		{"large", "teams.accounting.yaml", []byte(strings.Repeat("#", 17<<20)), "accounting file is larger than the 16 MiB limit"},
		{"twodocs", "teams.accounting.yaml", []byte("qos: []\n---\nusers: []\n"), "a second YAML document starts here; the accounting file holds one document"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, l := accounting.LoadBytes(tc.file, tc.data)
			if f != nil || len(l) != 1 || l[0].Message != tc.want {
				t.Errorf("LoadBytes: %v; want one error %q", l, tc.want)
			}
		})
	}
}
