package sacctmgr_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/slurmspec/slurmspec/render/sacctmgr"
)

// hostileCapture is the A4 capture with entities a forged (committed)
// capture could add: names holding shell syntax, each of which the plan
// removes.
func hostileCapture(t *testing.T, extra string) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/a4.current.txt")
	if err != nil {
		t.Fatal(err)
	}
	return append(data, extra...)
}

// runWords parses one "run ..." line of a plan script as sh and returns
// the words run is called with; it fails the test when the line is not
// one simple command of literal words (no command substitution, no
// parameter expansion, no second command).
func runWords(t *testing.T, line string) []string {
	t.Helper()
	f, err := syntax.NewParser(syntax.Variant(syntax.LangPOSIX)).Parse(strings.NewReader(line+"\n"), "")
	if err != nil {
		t.Fatalf("%q does not parse: %v", line, err)
	}
	if len(f.Stmts) != 1 {
		t.Fatalf("%q is %d commands", line, len(f.Stmts))
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) != 0 || f.Stmts[0].Redirs != nil {
		t.Fatalf("%q is not one simple command", line)
	}
	var words []string
	for _, w := range call.Args {
		syntax.Walk(w, func(n syntax.Node) bool {
			switch n.(type) {
			case *syntax.CmdSubst, *syntax.ParamExp, *syntax.ArithmExp, *syntax.ProcSubst:
				t.Errorf("%q expands something: %T", line, n)
			}
			return true
		})
		s, err := expand.Literal(nil, w)
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		words = append(words, s)
	}
	return words
}

// TestPlanScriptQuotesCaptureNames: the names a plan's script deletes
// come from the capture, which a pull request may commit; each reaches
// sacctmgr as one word, whatever shell syntax it holds, and no line of
// the script runs anything but run.
func TestPlanScriptQuotesCaptureNames(t *testing.T) {
	names := []string{"x;touch${IFS}pwned;#", "u$(id)", "a`id`b", "a&&b", "a>b", "$HOME", "*"}
	extra := "Name|Priority\n"
	for _, n := range names {
		extra += n + "|0\n"
	}
	extra += "User|Def Acct|Admin\n"
	for _, n := range names {
		extra += n + "|ops|None\n"
	}
	cur, err := sacctmgr.ParseCapture("x", hostileCapture(t, extra))
	if err != nil {
		t.Fatal(err)
	}
	p, err := sacctmgr.Compare(cur, sacctmgr.Declared(loadFile(t, "../../examples/accounting/a4-training.accounting.yaml")))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, line := range strings.Split(string(p.Script("a.yaml")), "\n") {
		if !strings.HasPrefix(line, "run ") {
			continue
		}
		words := runWords(t, line)
		if len(words) == 5 && words[1] == "delete" {
			got[words[2]+" "+words[4]] = true
		}
	}
	for _, n := range names {
		for _, kind := range []string{"qos", "user"} {
			if !got[kind+" name="+n] {
				t.Errorf("no run delete %s where name=%q in the script:\n%s", kind, n, p.Script("a.yaml"))
			}
		}
	}
}

// TestCaptureRefusesNamesSacctmgrSplits: a name in the capture that
// sacctmgr's command line would read as several (a comma: name=x,root
// deletes root too), as another option (=, white space) or not at all
// (quotes, control characters) is refused at its line, from a capture and
// from slurmrestd's rows alike.
func TestCaptureRefusesNamesSacctmgrSplits(t *testing.T) {
	for _, tc := range []struct{ name, extra, want string }{
		{"comma account", "Account|Descr|Org\nzz,root|a|b\n", "x:30:1:"},
		{"equals qos", "Name|Priority\nx=1|0\n", "x:30:1:"},
		{"space user", "User|Def Acct|Admin\na b|ops|None\n", "x:30:1:"},
		{"quote partition", "Cluster|Account|User|Partition\ntrain|ops|carol|p'q\n", "x:30:1:"},
		{"carriage return", "Name|Priority\nx\ry|0\n", "x:30:1:"},
		{"comma parent", "Cluster|Account|User|ParentName\ntrain|ops2||ops,root\n", "x:30:1:"},
		{"dump comma", "Parent - 'root'\nAccount - 'a,root':Description='d'\n", "x:30:"},
		{"dump parent", "Parent - 'ro ot'\nAccount - 'a':Description='d'\n", "x:29:"},
		{"dot dot user", "User|Def Acct|Admin\n..|ops|None\n", "x:30:1:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := sacctmgr.ParseCapture("x", hostileCapture(t, tc.extra))
			var ce *sacctmgr.CaptureError
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "name") {
				t.Fatalf("error %v, want a *CaptureError at %q about the name", err, tc.want)
			}
		})
	}
	for _, name := range []string{"zz,root", "..", "."} {
		_, err := sacctmgr.FromRows([]sacctmgr.Row{{Kind: sacctmgr.KindQOS, Fields: map[string]string{"Name": name}}})
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%q", name)) {
			t.Errorf("FromRows: error %v, want the name %q refused", err, name)
		}
	}
}

// TestCaptureEntityLimit: a capture holding more entities than
// MaxEntities is refused at the line that crosses it (16 MiB of short
// rows made 2.4 million entities and 3.7 GB resident).
func TestCaptureEntityLimit(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("Name|Priority\n")
	for i := 0; i <= sacctmgr.MaxEntities; i++ {
		fmt.Fprintf(&b, "q%x|0\n", i)
	}
	_, err := sacctmgr.ParseCapture("x", b.Bytes())
	want := fmt.Sprintf("x:%d:1: not sacctmgr show -P output: more than %d", sacctmgr.MaxEntities+2, sacctmgr.MaxEntities)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want %q", err, want)
	}
	rows := make([]sacctmgr.Row, sacctmgr.MaxEntities+1)
	for i := range rows {
		rows[i] = sacctmgr.Row{Kind: sacctmgr.KindQOS, Fields: map[string]string{"Name": fmt.Sprintf("q%x", i)}}
	}
	if _, err := sacctmgr.FromRows(rows); err == nil || !strings.Contains(err.Error(), "more than") {
		t.Errorf("FromRows: error %v, want the limit", err)
	}
}

// TestPlanTextEscapes: the values a capture holds are printed escaped: a
// description holding a terminal escape or a bidi control cannot drive
// the terminal or reorder the plan a reviewer reads.
func TestPlanTextEscapes(t *testing.T) {
	data := bytes.Replace(hostileCapture(t, ""), []byte("research|research teams|research"), []byte("research|\x1b[2J\u202eevil|research"), 1)
	cur, err := sacctmgr.ParseCapture("x", data)
	if err != nil {
		t.Fatal(err)
	}
	p, err := sacctmgr.Compare(cur, sacctmgr.Declared(loadFile(t, "../../examples/accounting/a4-training.accounting.yaml")))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := p.Text(&b); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(b.String(), "\x1b\u202e") || !strings.Contains(b.String(), `\x1b[2J\u202eevil`) {
		t.Errorf("plan text does not escape the capture's value:\n%q", b.String())
	}
}

// TestNormalDoesNotWrap: sizes and wall times too large for an int64 are
// compared as written, never wrapped around to a small one: a file's
// GrpTRES cpu=18014398509481985 (times 1024 is 2^64 + 1024) equalled a
// database's cpu=1, and the plan said nothing changes; the plan of such a
// limit is a change, and a wall time of more minutes than an int64
// holds is the largest, not a negative one.
func TestNormalDoesNotWrap(t *testing.T) {
	for _, tc := range []struct{ field, a, b string }{
		{"GrpTRES", "cpu=18014398509481985", "cpu=1"},
		{"MaxTRES", "mem=8388609P", "mem=1K"},
		{"MaxWall", "12810238940946038-00:00:00", "1"},
	} {
		if a, b := sacctmgr.Normal(tc.field, tc.a), sacctmgr.Normal(tc.field, tc.b); a == b {
			t.Errorf("%s: %q and %q both normalise to %q", tc.field, tc.a, tc.b, a)
		}
	}
	if got := sacctmgr.Normal("MaxWall", "9999999999999999-00:00:00"); got != "9223372036854775807" {
		t.Errorf("MaxWall of 9999999999999999 days: %q, want the largest int64", got)
	}
	if got := sacctmgr.Normal("GrpTRES", "cpu=18014398509481985"); got != "cpu=18446744073709552640" {
		t.Errorf("GrpTRES cpu=18014398509481985: %q, want the exact product", got)
	}
}

// TestCaptureColumnLimit: a line of more columns than sacctmgr shows is
// refused before it is split (a 16 MiB header of 8 million columns took
// 720 MB).
func TestCaptureColumnLimit(t *testing.T) {
	_, err := sacctmgr.ParseCapture("x", []byte("Name"+strings.Repeat("|x", 256)+"\n"))
	if err == nil || !strings.Contains(err.Error(), "x:1:1: not sacctmgr show -P output: 257 columns; sacctmgr shows at most 256") {
		t.Errorf("error %v, want the column limit", err)
	}
	if _, err := sacctmgr.ParseCapture("x", []byte("Name"+strings.Repeat("|x", 255)+"\nq"+strings.Repeat("|", 255)+"\n")); err != nil {
		t.Errorf("256 columns: %v", err)
	}
	var dump strings.Builder
	dump.WriteString("QOS - 'q'")
	for i := range 300 {
		fmt.Fprintf(&dump, ":k%d=v", i)
	}
	if _, err := sacctmgr.ParseCapture("x", []byte(dump.String()+"\n")); err == nil || !strings.Contains(err.Error(), "more than 256 fields") {
		t.Errorf("a dump line of 300 fields: error %v, want the limit", err)
	}
}

// TestScriptHeaderEscapesFileName: the accounting file's name (the spec's
// name, which a pull request chooses, with .accounting.yaml) is written
// in a comment of both scripts; a name holding a line break ended the
// comment and ran the next line as the Slurm administrator.
func TestScriptHeaderEscapesFileName(t *testing.T) {
	f := loadFile(t, "../../examples/accounting/a4-training.accounting.yaml")
	name := "a\ntouch pwned\n#.accounting.yaml"
	p, err := sacctmgr.Compare(capture(t), sacctmgr.Declared(f))
	if err != nil {
		t.Fatal(err)
	}
	f.Name = "dir/" + name
	for what, script := range map[string][]byte{"apply.sh": sacctmgr.Script(f), "plan script": p.Script(name)} {
		for _, line := range strings.Split(string(script), "\n") {
			if strings.Contains(line, "touch pwned") && !strings.HasPrefix(line, "#") {
				t.Errorf("%s runs %q", what, line)
			}
		}
		if !bytes.Contains(script, []byte(`a\ntouch pwned\n#.accounting.yaml`)) {
			t.Errorf("%s does not name the file escaped:\n%s", what, script)
		}
	}
}

// TestPlanScriptComments: the comment about an account-wide association
// heads only that removal; a plan of removals alone starts with its
// "Removals." section (the first of two users' removals was labelled as
// the association).
func TestPlanScriptComments(t *testing.T) {
	cur, err := sacctmgr.ParseCapture("x", hostileCapture(t, "User|Def Acct|Admin\nzed|ops|None\nzoe|ops|None\n"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := sacctmgr.Compare(cur, sacctmgr.Declared(loadFile(t, "../../examples/accounting/a4-training.accounting.yaml")))
	if err != nil {
		t.Fatal(err)
	}
	script := string(p.Script("a.yaml"))
	if strings.Contains(script, "An account-wide association") || !strings.Contains(script, "# Removals.\nrun delete user where name=zed\n") {
		t.Errorf("plan script of two users' removals:\n%s", script)
	}
}
