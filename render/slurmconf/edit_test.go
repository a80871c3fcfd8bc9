package slurmconf

import (
	"strings"
	"testing"
)

// TestFormatPairRoundTrip: what FormatPair writes, Slurm's reader (Parse's
// SplitLines and ParsePairs) reads back as the same key and value.
func TestFormatPairRoundTrip(t *testing.T) {
	for _, v := range []string{"", "x", "a b", "a\tb", "#x", `a\b`, `a\#b`, "a # b", `trailing\`, "a=b,c=d", "ünï"} {
		s, err := FormatPair("Key", v)
		if err != nil {
			t.Fatalf("FormatPair(%q): %v", v, err)
		}
		lines := SplitLines([]byte(s + "\n"))
		if len(lines) != 1 {
			t.Fatalf("%q: %d logical lines", s, len(lines))
		}
		pairs, err := ParsePairs(lines[0].Text)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		if len(pairs) != 1 || pairs[0].Key != "Key" || pairs[0].Value != v {
			t.Errorf("FormatPair(%q) = %q, read back as %+v", v, s, pairs)
		}
	}
	for _, v := range []string{`a"b`, "a\nb", "a\rb", "\x00"} {
		if s, err := FormatPair("Key", v); err == nil {
			t.Errorf("FormatPair(%q) = %q, want an error", v, s)
		}
	}
	if s, err := FormatPair("Bad Key", "x"); err == nil {
		t.Errorf("FormatPair with a bad key = %q, want an error", s)
	}
}

// TestDocEdits: untouched lines stay as written, global keys are replaced
// case-insensitively or appended, keys on NodeName / PartitionName lines
// are replaced or added, and the naming pair is never changed.
func TestDocEdits(t *testing.T) {
	in := "# a comment\nClusterName=x   # trailing\nmintime=5\n" +
		"NodeName=n[1-2] CPUs=4 \\\n  State=CLOUD\nNodeName=m1 CPUs=2\n" +
		"PartitionName=p Nodes=n[1-2] Default=YES\nInclude nodes.conf\n"
	d, err := ParseDoc([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	d.SetGlobal("MinTime", "a b")
	d.SetGlobal("NewKey", "")
	if n := d.SetOn(KindNode, "cpus", "8"); n != 2 {
		t.Errorf("SetOn(KindNode) changed %d lines, want 2", n)
	}
	d.SetOn(KindPartition, "MaxTime", "1-0")
	if n := d.SetOn(KindPartition, "PartitionName", "q"); n != 0 {
		t.Errorf("SetOn set the naming key on %d lines", n)
	}
	out, err := d.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	want := "# a comment\nClusterName=x   # trailing\nMinTime=\"a b\"\n" +
		"NodeName=n[1-2] cpus=8 State=CLOUD\nNodeName=m1 cpus=8\n" +
		"PartitionName=p Nodes=n[1-2] Default=YES MaxTime=1-0\nInclude nodes.conf\nNewKey=\"\"\n"
	if string(out) != want {
		t.Errorf("edited:\n%s\nwant:\n%s", out, want)
	}
	f, err := Parse(out)
	if err != nil {
		t.Fatalf("the edited file does not parse: %v", err)
	}
	if v, _ := f.GetGlobal("MINTIME"); v != "a b" {
		t.Errorf("MinTime read back as %q", v)
	}
	if got := f.Nodes[0].Name(); got != "n[1-2]" {
		t.Errorf("node line renamed: %q", got)
	}
	if _, err := ParseDoc([]byte("NodeName=a b\n")); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("a bad line: %v, want an error naming line 1", err)
	}
}
