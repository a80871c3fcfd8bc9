package slurmconf_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/slurmspec/slurmspec/render/slurmconf"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// TestParseSlurmSyntax: what Slurm's own reader (parse_config.c) accepts,
// read the same way.
func TestParseSlurmSyntax(t *testing.T) {
	src := "# header\r\n" +
		"ClusterName=alpha   # comment after a value\n" +
		"  SlurmctldHost = head01(10.0.0.1)\n" + // white space around '=' and before the key
		"MailProg=\"/usr/bin/mail -s\"\n" +
		"Weird=a\\#b\n" + // an escaped '#' is not a comment
		"Path=c:\\\\d # two backslashes are one, then a comment\n" +
		"NodeName=n[1-4] CPUs=8 \\\n" +
		"   RealMemory=1000 \\   \n" + // continuation with trailing blanks
		"  Features=\"a,b\"\n" +
		"Include /etc/slurm/extra.conf\n" +
		"include\tnodes.conf\n" +
		"PartitionName=p Nodes=n[1-4] Default=YES\n" +
		"DownNodes=n3 State=DOWN Reason=\"bad dimm\"\n"
	f, err := slurmconf.Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	wantGlobal := []slurmconf.Pair{{"ClusterName", "alpha"}, {"SlurmctldHost", "head01(10.0.0.1)"}, {"MailProg", "/usr/bin/mail -s"}, {"Weird", "a#b"}, {"Path", `c:\d`}}
	if d := cmp.Diff(wantGlobal, f.Global); d != "" {
		t.Errorf("global (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]int{2, 3, 4, 5, 6}, f.GlobalLines); d != "" {
		t.Errorf("global lines (-want +got):\n%s", d)
	}
	wantNode := slurmconf.Line{Num: 7, Pairs: []slurmconf.Pair{{"NodeName", "n[1-4]"}, {"CPUs", "8"}, {"RealMemory", "1000"}, {"Features", "a,b"}}}
	if len(f.Nodes) != 1 || !cmp.Equal(wantNode, f.Nodes[0]) {
		t.Errorf("nodes: %+v", f.Nodes)
	}
	if d := cmp.Diff([]slurmconf.Include{{Num: 10, Path: "/etc/slurm/extra.conf"}, {Num: 11, Path: "nodes.conf"}}, f.Includes); d != "" {
		t.Errorf("includes (-want +got):\n%s", d)
	}
	if len(f.Partitions) != 1 || f.Partitions[0].Num != 12 || len(f.Other) != 1 {
		t.Errorf("partitions %+v other %+v", f.Partitions, f.Other)
	}
	if v, _ := f.Other[0].Get("Reason"); v != "bad dimm" {
		t.Errorf("Reason = %q", v)
	}
	if f.GlobalLine("slurmctldhost") != 3 {
		t.Errorf("GlobalLine = %d", f.GlobalLine("slurmctldhost"))
	}
}

// TestParseIncluding: included lines take their place (a DEFAULT line
// before the Include applies to them; a global after it wins), numbered
// by file; a file that cannot be read stays an unfollowed Include.
func TestParseIncluding(t *testing.T) {
	files := map[string]string{
		"/etc/slurm/nodes.conf": "NodeName=n[1-2] CPUs=4\nInclude more.conf\nMaxJobCount=5\n",
		"more.conf":             "PartitionName=p Nodes=n[1-2]\n",
	}
	read := func(path string) ([]byte, error) {
		if d, ok := files[path]; ok {
			return []byte(d), nil
		}
		return nil, errors.New("no such file")
	}
	src := "NodeName=DEFAULT RealMemory=100\nInclude /etc/slurm/nodes.conf\nMaxJobCount=9\nInclude missing.conf\nNodeName=m1 CPUs=1\n"
	f, err := slurmconf.ParseIncluding([]byte(src), read)
	if err != nil {
		t.Fatal(err)
	}
	var nodes []string
	for _, l := range f.Nodes {
		nodes = append(nodes, f.Where(l.Num)+" "+l.Name())
	}
	if d := cmp.Diff([]string{"line 1 DEFAULT", "/etc/slurm/nodes.conf line 1 n[1-2]", "line 5 m1"}, nodes); d != "" {
		t.Errorf("nodes (-want +got):\n%s", d)
	}
	if v, _ := f.GetGlobal("MaxJobCount"); v != "9" {
		t.Errorf("MaxJobCount = %s, want the later 9", v)
	}
	if len(f.Partitions) != 1 || f.Where(f.Partitions[0].Num) != "more.conf line 1" {
		t.Errorf("partitions %+v", f.Partitions)
	}
	if len(f.Includes) != 3 || !f.Includes[0].Followed || f.Includes[2].Followed || f.Includes[2].Err == nil {
		t.Errorf("includes %+v", f.Includes)
	}
	// A file that includes itself stops at the nesting bound.
	loop := func(string) ([]byte, error) { return []byte("Include self.conf\n"), nil }
	f, err = slurmconf.ParseIncluding([]byte("Include self.conf\n"), loop)
	if err != nil || len(f.Files) > 8 {
		t.Errorf("self include: %d files, %v", len(f.Files), err)
	}
}

func TestParseRefuses(t *testing.T) {
	for name, src := range map[string]string{
		"two globals":   "A=1 B=2\n",
		"no value":      "A=\n",
		"no equals":     "NodeName=n1 CPUs\n",
		"operator":      "NodeName=n1 CPUs+=2\n",
		"bad key":       "A_B=1\n",
		"open quote":    "NodeName=n1 Features=\"a\n",
		"quote in word": "A=x\"y\n",
	} {
		if f, err := slurmconf.Parse([]byte(src)); err == nil {
			t.Errorf("%s: accepted %+v", name, f)
		}
	}
}

func TestSplitLines(t *testing.T) {
	got := slurmconf.SplitLines([]byte("A=1 \\\\\nB=2\\\n\\\nC=3 # x\\\n"))
	want := []slurmconf.LogicalLine{
		{Num: 1, Count: 1, Raw: `A=1 \\`, Text: `A=1 \`},
		{Num: 2, Count: 3, Raw: "B=2\\\n\\\nC=3 # x\\", Text: "B=2C=3 "},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestParseGres(t *testing.T) {
	got, err := slurmconf.ParseGres("gpu:h100:8(S:0,1),nvme:2,gpu:1,shard:x:no_consume,mps:4K")
	if err != nil {
		t.Fatal(err)
	}
	want := []slurmconf.Gres{
		{Name: "gpu", Type: "h100", Count: 8, Raw: "gpu:h100:8(S:0,1)"},
		{Name: "nvme", Count: 2, Raw: "nvme:2"},
		{Name: "gpu", Count: 1, Raw: "gpu:1"},
		{Name: "shard", Type: "x", Count: 1, Raw: "shard:x:no_consume"},
		{Name: "mps", Count: 4096, Raw: "mps:4K"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if g, err := slurmconf.ParseGres("(null)"); err != nil || g != nil {
		t.Errorf("(null): %v %v", g, err)
	}
	for _, bad := range []string{"gpu:a:b:c", "gpu:a:x", ":4", "gpu(S:0"} {
		if _, err := slurmconf.ParseGres(bad); err == nil {
			t.Errorf("ParseGres(%q): no error", bad)
		}
	}
}

func TestParseGresConf(t *testing.T) {
	lines, err := slurmconf.ParseGresConf([]byte("AutoDetect=off # c\nNodeName=g[1-2] Name=gpu Type=h100 \\\n File=/dev/nvidia[0-7]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 2 || lines[1].Num != 2 {
		t.Fatalf("%+v", lines)
	}
	if v, _ := lines[1].Get("file"); v != "/dev/nvidia[0-7]" {
		t.Errorf("File = %q", v)
	}
	if _, err := slurmconf.ParseGresConf([]byte("Include x\n")); err == nil {
		t.Error("Include accepted in gres.conf")
	}
}

func TestCanonicalKey(t *testing.T) {
	for _, tc := range []struct {
		scope     catalog.Scope
		key, want string
		known     bool
	}{
		{catalog.ScopeNode, "feature", "Features", true},
		{catalog.ScopeNode, "Procs", "CPUs", true},
		{catalog.ScopePartition, "shared", "OverSubscribe", true},
		{catalog.ScopePartition, "Priority", "Priority", true}, // two replacements: kept
		{catalog.ScopeGlobal, "CRYPTOTYPE", "CredType", true},
		{catalog.ScopeGlobal, "selecttype", "SelectType", true},
		{catalog.ScopeGlobal, "FooBar", "FooBar", false},
	} {
		if got, known := slurmconf.CanonicalKey(tc.scope, tc.key); got != tc.want || known != tc.known {
			t.Errorf("CanonicalKey(%v, %q) = %q, %v; want %q, %v", tc.scope, tc.key, got, known, tc.want, tc.known)
		}
	}
}
