package sacctmgr_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/escape"
	"github.com/slurmspec/slurmspec/render/sacctmgr"
)

// FuzzCapture reads arbitrary captures (sacctmgr show -P and dump output)
// and plans the A4 example's accounting file against those it accepts.
// Invariants: no panic; every line of the plan's script that runs sacctmgr
// is one simple command of literal words (a capture's names cannot run
// anything); the plan's text holds no hidden character but line breaks.
func FuzzCapture(f *testing.F) {
	for _, name := range []string{"testdata/a4.current.txt", "testdata/a4-changed.dump-22.05.txt", "testdata/a4-changed.dump-26.05.txt"} {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{
		"Name|Priority\nx;id|0\n",
		"Name|Priority|\nx$(id)|0|\n",
		"User|Def Acct|Admin\n`id`|ops|None\n",
		"Parent - 'root'\nAccount - 'a':Description='x:y':GrpTRES=cpu=1,mem=2G\n",
		"Cluster|Account|User|Partition|ParentName|GrpTRES|MaxWall\n|ops|u|p||cpu=99999999999P|99999999999-00:00:00\n",
		"QOS - 'q':Preempt='a,b':MaxWallDurationPerJob=1:Flags='DenyOnLimit'\n",
	} {
		f.Add([]byte(s))
	}
	want := sacctmgr.Declared(loadFile(f, "../../examples/accounting/a4-training.accounting.yaml"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cur, err := sacctmgr.ParseCapture("f", data)
		if err != nil {
			return
		}
		p, err := sacctmgr.Compare(cur, want)
		if err != nil {
			return
		}
		for _, line := range strings.Split(string(p.Script("a.yaml")), "\n") {
			if strings.HasPrefix(line, "run ") {
				runWords(t, line)
			}
		}
		var b bytes.Buffer
		if err := p.Text(&b); err != nil {
			t.Fatal(err)
		}
		if strings.ContainsFunc(b.String(), func(r rune) bool { return r != '\n' && escape.Hidden(r) }) {
			t.Errorf("plan text holds a hidden character: %q", b.String())
		}
	})
}
