package importconf

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/slurmspec/slurmspec/compiler"
	"github.com/slurmspec/slurmspec/compiler/hostlist"
)

// TestSlurmSyntaxAndFixes: each import defect of issue #16 §3 and the
// bounds of #15.9, on one small file each.
func TestSlurmSyntaxAndFixes(t *testing.T) {
	conf := `ClusterName=fix
CryptoType=crypto/munge
SuspendExcNodes=gpu[1-2],ghost1
SuspendExcParts=Batch,gone
SuspendTime=600
NodeName=gpu[1-4] CPUs=224 \
   RealMemory=3943792 Gres=gpu:b200:8 Feature=b200 # a comment after a value
PartitionName=Batch Nodes=gpu[1-4] Default=YES MaxTime=24:00:00 Shared=NO
PartitionName=gone Nodes=nosuch1
`
	spec, notes, err := Import([]byte(conf), nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	body := specBody(spec)
	for _, w := range []string{
		"machineType: a4-highgpu-8g\n",     // the continued line was read whole
		`MaxTime: "24:00:00"`,              // YAML 1.1 would read 86400
		"Features: b200\n",                 // Feature is an alias
		"OverSubscribe: \"NO\"\n",          // Shared is an alias
		"SuspendExcNodes: fix-gpu-[0-1]\n", // renamed nodes
		"SuspendExcParts: batch\n",         // the kept partition, renamed
	} {
		if !strings.Contains(body, w) {
			t.Errorf("spec lacks %q\n%s", w, spec)
		}
	}
	for _, bad := range []string{"CryptoType", "CredType", "Feature:", "Shared", "ghost1", "gone"} {
		if strings.Contains(body, bad) {
			t.Errorf("spec holds %q\n%s", bad, body)
		}
	}
	for _, w := range []string{
		"CryptoType=crypto/munge dropped",
		"SuspendExcNodes names nodes no NodeName line defines: ghost1; left out",
		"SuspendExcParts names partitions the spec does not keep: gone; left out",
		"NodeName Feature is written as Features",
	} {
		if !hasNote(notes, w) {
			t.Errorf("no note %q", w)
		}
	}
	// Once decided, the spec compiles and renders the values Slurm read.
	fixed := decide(t, spec, map[string]string{"TODO-choose-login-machine-type": "n2-standard-8", "TODO-choose-SPOT-or-FLEX_START-or-RESERVATION": "SPOT"})
	c := compile(t, "fixed.yaml", fixed, compiler.Identity{})
	out := string(renderTo(t, c, t.TempDir()).Get("slurm.conf").Data)
	for _, w := range []string{"MaxTime=24:00:00", "SuspendExcNodes=fix-gpu-[0-1]\n", "SuspendExcParts=batch\n", "Features=b200"} {
		if !strings.Contains(out, w) {
			t.Errorf("rendered slurm.conf lacks %q\n%s", w, out)
		}
	}
}

func TestYAML11Quoting(t *testing.T) {
	for _, v := range []string{"24:00:00", "1:30", "0755", "0x1F", "1_000", "1e3", ".inf", "2026-01-02", "yes", "OFF", "~", "<<", "="} {
		if n := str(v); n.Style != yaml.DoubleQuotedStyle {
			t.Errorf("%q is not quoted", v)
		}
	}
	for _, v := range []string{"1-00:00:00", "00:10:00", "UNLIMITED", "cons_tres", "gpu:b200:8", "30-0"} {
		if n := str(v); n.Style != 0 {
			t.Errorf("%q is quoted", v)
		}
	}
}

// TestBounds: host lists are bounded across the whole input, not per list.
func TestBounds(t *testing.T) {
	var b strings.Builder
	b.WriteString("ClusterName=big\n")
	for i := 0; i < 20; i++ {
		fmt.Fprintf(&b, "NodeName=n%d-[0-99] CPUs=2\n", i)
	}
	if _, _, err := Import([]byte(b.String()), nil, Options{MaxHosts: 1999}); err == nil || !strings.Contains(err.Error(), "more than 1999 names") {
		t.Errorf("2000 names under a budget of 1999: %v", err)
	}
	if _, _, err := Import([]byte(b.String()), nil, Options{MaxHosts: 2000}); err != nil {
		t.Errorf("2000 names under a budget of 2000: %v", err)
	}
	// A NodeName line with a huge list fails fast, whatever the default.
	if _, _, err := Import([]byte("NodeName=n[0-999999999] CPUs=1\n"), nil, Options{}); err == nil {
		t.Error("a billion nodes accepted")
	}
	if _, _, err := Import(make([]byte, MaxInputBytes+1), nil, Options{}); err == nil {
		t.Error("oversized input accepted")
	}
}

func TestReadInput(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := ReadInput(fifo); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("FIFO: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ReadInput blocked on a FIFO")
	}
	if _, err := ReadInput(dir); err == nil {
		t.Error("a directory was read")
	}
	if _, err := ReadInput("/dev/zero"); err == nil {
		t.Error("/dev/zero was read")
	}
	big := filepath.Join(dir, "big.conf")
	if err := os.WriteFile(big, make([]byte, MaxInputBytes+1), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadInput(big); err == nil {
		t.Error("an oversized file was read")
	}
	ok := filepath.Join(dir, "slurm.conf")
	if err := os.WriteFile(ok, []byte("ClusterName=a\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if data, err := ReadInput(ok); err != nil || string(data) != "ClusterName=a\n" {
		t.Errorf("%q %v", data, err)
	}
}

func TestFamilies(t *testing.T) {
	var nodes []*node
	for _, list := range []string{"r[01-02]n[001-003]", "r50n[001-002]", "h100-[01-04]", "a100-[01-02]", "c-gpu-[0-7]", "research01-gpu-[0-1]", "login", "odd7", "compute-st-c5xlarge-[1-2]"} {
		names, err := hostlist.Expand(list, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range names {
			nodes = append(nodes, &node{name: n})
		}
	}
	fam := families(nodes)
	for name, want := range map[string]string{
		"r01n001": "r", "r50n002": "r", "h100-03": "h100", "a100-01": "a100", "c-gpu-5": "c-gpu",
		"research01-gpu-1": "research01-gpu", "login": "login", "odd7": "odd", "compute-st-c5xlarge-2": "compute-st-c5xlarge",
	} {
		if got := fam[nameKey(name)]; got != want {
			t.Errorf("family of %s = %q, want %q", name, got, want)
		}
	}
}

// TestSelectLinearIsADecision: select/linear refuses the service default
// SelectTypeParameters=CR_Core_Memory (slurmctld 22.05 is fatal), so the
// import leaves the choice to a person instead of writing a spec that
// lints clean and does not start.
func TestSelectLinearIsADecision(t *testing.T) {
	conf := "ClusterName=lin\nSelectType=select/linear\nNodeName=n[1-2] CPUs=16 RealMemory=63216\nPartitionName=p Nodes=n[1-2] Default=YES\n"
	spec, notes, err := Import([]byte(conf), nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(specBody(spec), "SelectType: TODO-choose-select/cons_tres-or-select/linear\n") || !hasNote(notes, "SelectType=select/linear does not run with the service default SelectTypeParameters=CR_Core_Memory") {
		t.Errorf("no decision for select/linear:\n%s\n%v", spec, notes)
	}
	// With SelectTypeParameters given, the user's choice stands.
	spec, _, err = Import([]byte(conf+"SelectTypeParameters=CR_Memory\n"), nil, Options{})
	if err != nil || !strings.Contains(specBody(spec), "SelectType: select/linear\n") {
		t.Errorf("select/linear with its parameters was changed (%v):\n%s", err, spec)
	}
}

// TestScriptsSkipLinks: a scripts directory's symbolic links and FIFOs are
// not read (a checkout could point them at any file).
func TestScriptsSkipLinks(t *testing.T) {
	dir := t.TempDir()
	pd := filepath.Join(dir, "prolog.d")
	if err := os.MkdirAll(pd, 0o755); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(dir, "secret")
	if err := os.WriteFile(secret, []byte("TOKEN=hunter2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(pd, "01-link.sh")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(pd, "02-fifo.sh"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pd, "03-real.sh"), []byte("#!/bin/bash\ntrue\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	conf := "ClusterName=a\nProlog=/etc/slurm/prolog.d/*\nNodeName=a-c-0 CPUs=16 RealMemory=63216\nPartitionName=p Nodes=a-c-0\n"
	spec, _, err := Import([]byte(conf), nil, Options{ScriptsDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(spec), "hunter2") || !strings.Contains(string(spec), "#!/bin/bash\n") {
		t.Errorf("scripts read wrongly:\n%s", spec)
	}
}

// TestIncludes: with IncludeDir, Include lines are followed to regular
// files of that directory (never through a link, never elsewhere), and
// notes name the included file's lines.
func TestIncludes(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("nodes.conf", "NodeName=n[1-2] CPUs=16 RealMemory=63216 Weight=2\nNodeName=n1 Weight=3\n")
	write("secret", "Token=hunter2\n")
	if err := os.Symlink(filepath.Join(dir, "secret"), filepath.Join(dir, "link.conf")); err != nil {
		t.Fatal(err)
	}
	conf := "ClusterName=inc\nInclude /etc/slurm/nodes.conf\nInclude link.conf\nInclude %c.conf\nInclude missing.conf\nPartitionName=p Nodes=n[1-2] Default=YES\n"
	spec, notes, err := Import([]byte(conf), nil, Options{IncludeDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(specBody(spec), "nodePoolIds: [\"n\"]") || strings.Contains(string(spec), "hunter2") {
		t.Errorf("includes read wrongly:\n%s", spec)
	}
	want := map[string]bool{
		"slurm.conf:2: Include /etc/slurm/nodes.conf followed":                                false,
		"slurm.conf:3: Include link.conf not followed":                                        false,
		"slurm.conf:4: Include %c.conf not followed":                                          false,
		"slurm.conf:5: Include missing.conf not followed":                                     false,
		"/etc/slurm/nodes.conf:2: node n1 is already defined on /etc/slurm/nodes.conf line 1": false,
	}
	for _, n := range notes {
		for w := range want {
			if strings.HasPrefix(n.String(), w) {
				want[w] = true
			}
		}
	}
	for w, ok := range want {
		if !ok {
			t.Errorf("no note %q in %v", w, notes)
		}
	}
	// Without IncludeDir nothing is read.
	if _, notes, err := Import([]byte(conf), nil, Options{}); err != nil || !hasNote(notes, "Include /etc/slurm/nodes.conf not followed") {
		t.Errorf("%v %v", notes, err)
	}
}

// TestStandIns: a slurm.conf whose nodes and partitions sit in an Include
// not followed imports to a spec with a stand-in pool and partition that a
// person decides, not to a spec the schema refuses for want of them.
func TestStandIns(t *testing.T) {
	spec, notes, err := Import([]byte("ClusterName=inc\ninclude cloud.conf\n"), nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"machineType: " + StandInMachinePlaceholder + " # TODO", "defaultPartitionId: batch\n", "- id: batch\n        nodePoolIds: [compute]\n"} {
		if !strings.Contains(specBody(spec), w) {
			t.Errorf("spec lacks %q:\n%s", w, spec)
		}
	}
	for _, w := range []string{`node pool "compute" (1 node) stands in`, `partition "batch" over every node pool stands in`} {
		if !hasNote(notes, w) {
			t.Errorf("no note %q", w)
		}
	}
	fixed := decide(t, spec, map[string]string{StandInMachinePlaceholder: "n2-standard-8", LoginMachinePlaceholder: "n2-standard-8"})
	compile(t, "fixed.yaml", fixed, compiler.Identity{})
}

// TestRepeatedKeys: a key a line gives twice, or under an alias and its
// key, becomes one config entry (the last, as Slurm reads it), never one
// YAML key twice.
func TestRepeatedKeys(t *testing.T) {
	conf := "ClusterName=rep\nNodeName=DEFAULT Features=x\nNodeName=n[1-2] CPUs=22 RealMemory=87072 Feature=a Weight=1 Weight=2\nPartitionName=p Nodes=n[1-2] Default=YES MaxTime=10 MaxTime=20 Shared=NO OverSubscribe=YES\n"
	spec, notes, err := Import([]byte(conf), nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	body := specBody(spec)
	for _, w := range []string{"Features: a\n", "Weight: \"2\"\n", "MaxTime: \"20\"\n", "OverSubscribe: \"YES\"\n"} {
		if !strings.Contains(body, w) {
			t.Errorf("spec lacks %q:\n%s", w, body)
		}
	}
	if !hasNote(notes, "MaxTime=10 dropped: the line sets MaxTime again (20)") || !hasNote(notes, "OverSubscribe=NO dropped") {
		t.Errorf("notes: %v", notes)
	}
	fixed := decide(t, spec, map[string]string{LoginMachinePlaceholder: "n2-standard-8", "TODO-choose-c3-standard-22-or-c3-standard-22-lssd": "c3-standard-22"})
	compile(t, "fixed.yaml", fixed, compiler.Identity{})
}

// TestSharedGresLeftOut: mps and shard leave GresTypes with a note (lint
// refuses them: gres-sharing-unsupported), the rest of the list stays
// (GresTypes=gpu is the service default, so it is not written), and a list
// of shared GRES only is dropped.
func TestSharedGresLeftOut(t *testing.T) {
	for _, c := range []struct{ value, want, note string }{
		{"gpu,mps", "", "GresTypes=gpu,mps: mps left out"}, // gpu is the service default
		{"shard,gpu,nic", "GresTypes: gpu,nic\n", "GresTypes=shard,gpu,nic: shard left out"},
		{"gpu,MPS,shard", "", "MPS and shard left out"},
		{"mps,shard", "", "GresTypes=mps,shard dropped"},
		{"gpu,nic", "GresTypes: gpu,nic\n", ""},
	} {
		conf := "ClusterName=g\nGresTypes=" + c.value + "\nNodeName=gpu[1-2] CPUs=224 RealMemory=3943792 Gres=gpu:b200:8\nPartitionName=p Nodes=gpu[1-2]\n"
		spec, notes, err := Import([]byte(conf), nil, Options{})
		if err != nil {
			t.Fatal(err)
		}
		body := specBody(spec)
		if c.want != "" && !strings.Contains(body, c.want) {
			t.Errorf("%s: spec lacks %q\n%s", c.value, c.want, body)
		}
		if c.want == "" && strings.Contains(body, "GresTypes") {
			t.Errorf("%s: spec keeps GresTypes\n%s", c.value, body)
		}
		if c.note != "" && !hasNote(notes, c.note) {
			t.Errorf("%s: no note %q in %v", c.value, c.note, notes)
		}
		if c.note == "" && hasNote(notes, "GresTypes") {
			t.Errorf("%s: a note about GresTypes: %v", c.value, notes)
		}
	}
}

// TestAllWithoutNodes: a partition over Nodes=ALL in a file that defines no
// nodes (a Kubernetes-hosted cluster whose slurmd pods register as dynamic
// nodes) holds the stand-in pool, and a note at its line says so: ALL no
// longer means the nodes that join.
func TestAllWithoutNodes(t *testing.T) {
	conf := "ClusterName=k8s\nMaxNodeCount=64\nNodeSet=pods Feature=pod\nPartitionName=pods Nodes=pods\nPartitionName=all Nodes=ALL Default=YES\n"
	spec, notes, err := Import([]byte(conf), nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(specBody(spec), "- id: all\n        nodePoolIds: [compute]\n") {
		t.Errorf("spec lacks partition all over the stand-in pool:\n%s", spec)
	}
	var found bool
	for _, n := range notes {
		if n.Line == 5 && strings.Contains(n.Message, `partition all: Nodes=ALL names no node slurm.conf defines`) && strings.Contains(n.Message, `stand-in node pool "compute"`) {
			found = true
		}
	}
	if !found || !hasNote(notes, "partition pods has no nodes the import knows; dropped") {
		t.Errorf("notes: %v", notes)
	}
}

// TestGresConfTypesPerNode: a NodeName line whose Gres= has no GPU type
// takes each node's type from gres.conf; nodes gres.conf gives different
// types become separate pools (the line's first node's type was given to
// all of them, silently: the T4 nodes were imported as L4 nodes).
func TestGresConfTypesPerNode(t *testing.T) {
	conf := "ClusterName=gt\nGresTypes=gpu\nNodeName=g[1-4] CPUs=12 RealMemory=47000 Gres=gpu:1\nPartitionName=p Nodes=g[1-4] Default=YES\n"
	gres := "NodeName=g[1-2] Name=gpu Type=l4 File=/dev/nvidia0\nNodeName=g[3-4] Name=gpu Type=t4 File=/dev/nvidia0\n"
	r, err := Convert([]byte(conf), []byte(gres), Options{})
	if err != nil {
		t.Fatal(err)
	}
	body := specBody(r.Spec)
	// t4 is not a catalog model: its pool matches on the count, and says so.
	if strings.Count(body, "machineType: g2-standard-12\n") != 2 || !hasNote(r.Notes, `pool "g-2": machine type g2-standard-12: RealMemory=47000 is within tolerance of g2-standard-12, which the service writes as RealMemory=47312; the GPU type "t4" is not a catalog model`) {
		t.Errorf("want an L4 pool and a T4 pool:\n%s\n%v", body, r.Notes)
	}
	if r.Nodes["g1"] == "" || r.Nodes["g3"] == "" || strings.TrimRight(r.Nodes["g1"], "0123456789") == strings.TrimRight(r.Nodes["g3"], "0123456789") {
		t.Errorf("g1 and g3 share a pool: %v", r.Nodes)
	}
	if !hasNote(r.Notes, "gres.conf gives the nodes of this NodeName line different GPU types (g[1-2]: l4; g[3-4]: t4)") {
		t.Errorf("notes: %v", r.Notes)
	}
	// Nodes gres.conf agrees on stay one group, without the note.
	r, err = Convert([]byte(conf), []byte("NodeName=g[1-4] Name=gpu Type=l4 File=/dev/nvidia0\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if hasNote(r.Notes, "different GPU types") || strings.Count(specBody(r.Spec), "machineType: g2-standard-12\n") != 1 {
		t.Errorf("one type, one pool expected:\n%s\n%v", r.Spec, r.Notes)
	}
}

// TestIncludeClusterName: Slurm reads %c in an Include path as the
// ClusterName, lower-cased (parse_config.c, _parse_for_format); the import
// follows such an Include to the file of that name. Another % stays
// unfollowed.
func TestIncludeClusterName(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "lab-nodes.conf"), []byte("NodeName=n[1-2] CPUs=16 RealMemory=63216\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	conf := "ClusterName=Lab\nInclude /etc/slurm/%c-nodes.conf\nInclude /etc/slurm/%x.conf\nPartitionName=p Nodes=n[1-2] Default=YES\n"
	spec, notes, err := Import([]byte(conf), nil, Options{IncludeDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(specBody(spec), "nodePoolIds: [\"n\"]") {
		t.Errorf("the nodes of lab-nodes.conf were not read:\n%s", spec)
	}
	if !hasNote(notes, "Include /etc/slurm/%c-nodes.conf followed") || !hasNote(notes, "Include /etc/slurm/%x.conf not followed") {
		t.Errorf("notes: %v", notes)
	}
}

// TestNonUTF8Values: a value in another encoding than UTF-8 (a Latin-1
// feature name; Slurm reads bytes) is dropped with a note instead of
// failing the import ("cannot marshal invalid UTF-8"), and no invalid byte
// reaches the spec, comments included.
func TestNonUTF8Values(t *testing.T) {
	conf := "ClusterName=enc\n# caf\xe9 cluster\nNodeName=n[1-2] CPUs=16 RealMemory=63216 Features=caf\xe9\nPartitionName=p Nodes=n[1-2] Default=YES MaxTime=1-0 AllowGroups=\xe9quipe\nSchedulerParameters=bf_continue\xa0\n"
	spec, notes, err := Import([]byte(conf), nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !utf8.Valid(spec) {
		t.Errorf("the spec is not UTF-8:\n%q", spec)
	}
	for _, n := range notes {
		if !utf8.ValidString(n.Message) {
			t.Errorf("note not UTF-8: %q", n.Message)
		}
	}
	for _, w := range []string{`NodeName Features="caf\xe9" dropped: the value is not UTF-8 text`, `PartitionName AllowGroups="\xe9quipe" dropped`, `slurm.conf SchedulerParameters="bf_continue\xa0" dropped`} {
		if !hasNote(notes, w) {
			t.Errorf("no note %q in %v", w, notes)
		}
	}
	if body := specBody(spec); !strings.Contains(body, "MaxTime: 1-0\n") {
		t.Errorf("the valid settings were lost:\n%s", body)
	}
}

// TestCPUsFromTopology: a NodeName line without CPUs= has the CPUs Slurm
// infers (read_config.c, _build_single_nodeline_info): Sockets is the
// node's total (Boards does not multiply it), SocketsPerBoard is per board
// and wins over Sockets, and without either each board has one socket.
func TestCPUsFromTopology(t *testing.T) {
	for _, tc := range []struct {
		keys string
		cpus int
	}{
		{"Boards=2 Sockets=4 CoresPerSocket=8 ThreadsPerCore=1", 32},
		{"Boards=1 SocketsPerBoard=2 CoresPerSocket=4 ThreadsPerCore=2", 16},
		{"Boards=2 SocketsPerBoard=2 CoresPerSocket=4", 16},
		{"Sockets=2 SocketsPerBoard=3 CoresPerSocket=2", 6},
		{"Sockets=2 CoresPerSocket=20 ThreadsPerCore=2", 80},
		{"Boards=2 CoresPerSocket=4", 8},
		{"CPUs=12 Sockets=2 CoresPerSocket=4", 12},
	} {
		conf := "ClusterName=topo\nNodeName=n[1-2] RealMemory=12345 " + tc.keys + "\nPartitionName=p Nodes=n[1-2] Default=YES\n"
		spec, _, err := Import([]byte(conf), nil, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf("machineType: TODO-cpus-%d-mem-12345 ", tc.cpus); !strings.Contains(specBody(spec), want) {
			t.Errorf("%s: spec lacks %q:\n%s", tc.keys, want, specBody(spec))
		}
	}
}

// TestAllocNodesRenamed: AllocNodes lists the hosts jobs may be submitted
// from; the import renames the nodes, so it rewrites AllocNodes to the new
// names, and leaves it out (with a note) when it names a host the service's
// cluster does not have, which would refuse every job
// (testdata/slurmconf/partexotic).
func TestAllocNodesRenamed(t *testing.T) {
	conf := `ClusterName=uni
NodeName=uni-login[1-2] CPUs=16 RealMemory=60000
NodeName=uni-c[01-04] CPUs=224 RealMemory=3943792 Gres=gpu:b200:8
PartitionName=short Nodes=uni-c[01-04] AllocNodes=uni-login[1-2]
PartitionName=gated Nodes=uni-c[01-04] AllocNodes=uni-login1,head01
PartitionName=open Nodes=uni-c[01-04] AllocNodes=ALL
`
	spec, notes, err := Import([]byte(conf), nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	body := specBody(spec)
	if !strings.Contains(body, "AllocNodes: uni-login-[0-1]\n") || !strings.Contains(body, "AllocNodes: ALL\n") {
		t.Errorf("AllocNodes not rewritten to the spec's names\n%s", body)
	}
	if strings.Count(body, "AllocNodes") != 2 || strings.Contains(body, "head01") {
		t.Errorf("AllocNodes naming a host the cluster lacks kept\n%s", body)
	}
	for _, w := range []string{
		"partition short: AllocNodes=uni-login[1-2] rewritten as uni-login-[0-1]",
		"partition gated: AllocNodes=uni-login1,head01 dropped: it names hosts the service's cluster does not have (head01)",
	} {
		if !hasNote(notes, w) {
			t.Errorf("no note %q", w)
		}
	}
}

// TestNodeReasonNote: a node's Reason goes with the state the service
// manages, not with its names and addresses (testdata/slurmconf/nodeexotic).
func TestNodeReasonNote(t *testing.T) {
	conf := `ClusterName=nl
NodeName=nl-c[09-10] NodeHostname=h[09-10] CPUs=224 RealMemory=3943792 Gres=gpu:b200:8 State=DRAIN Reason="bad DIMM, ticket 4411"
PartitionName=p Nodes=nl-c[09-10]
`
	_, notes, err := Import([]byte(conf), nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{
		"NodeHostname dropped: the service names and addresses the nodes",
		"Reason=bad DIMM, ticket 4411 dropped: the service manages node state",
	} {
		if !hasNote(notes, w) {
			t.Errorf("no note %q in %v", w, notes)
		}
	}
	if hasNote(notes, "Reason dropped: the service names") || hasNote(notes, "NodeHostname, Reason") {
		t.Errorf("Reason noted as a name or address: %v", notes)
	}
}
