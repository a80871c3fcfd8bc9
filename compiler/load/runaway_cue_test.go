package load

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// The tests of this file leave abandoned CUE evaluations running: its name
// sorts it after the tests that measure allocations.

func TestCUEExpansionIsBounded(t *testing.T) {
	var dbl strings.Builder
	dbl.WriteString("s0: \"xxxxxxxxxxxxxxxx\"\n")
	for i := 1; i <= 21; i++ { // 32 MiB
		fmt.Fprintf(&dbl, "s%d: s%d + s%d\n", i, i-1, i-1)
	}
	for _, tc := range []struct{ name, src, want string }{
		{"label chain", strings.Repeat("a: ", 30000) + "1\n", "nesting deeper"},
		{"label chain over lines", strings.Repeat("a: {\n", 100) + strings.Repeat("}\n", 100), "nesting deeper"},
		{"parentheses", "a: " + strings.Repeat("(", 30000) + "1" + strings.Repeat(")", 30000) + "\n", "nesting deeper"},
		{"operator chain", "a: 1" + strings.Repeat(" + 1", 30000) + "\n", "CUE nesting deeper"},
		{"string doubling", dbl.String(), "expands to about"},
		{"string doubling by interpolation", "s0: \"xxxxxxxxxxxxxxxx\"\n" + interpolated(30), "expands to about"},
		{"list doubling", "l0: [1, 2]\n" + listDoubling(30), "expands to about"},
		{"range", "import \"list\"\na: list.Range(0, 2000000, 1)\n", "expands to about"},
		{"repeat", "import \"strings\"\na: strings.Repeat(\"x\", 100000000)\n", "expands to about"},
		{"comprehensions", "import \"list\"\nr: list.Range(0, 1000, 1)\na: [for x in r for y in r for z in r {x}]\n", "expands to about"},
		// What the estimate cannot see, the watchdog and the budget stop.
		{"range of a computed bound", "import \"list\"\nn: 2000 * 1000\na: list.Range(0, n, 1)\n", "values|abandoned"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d diag.Diagnostic
			// Evaluations the watchdog abandons keep running until the
			// process exits: only time is measured here.
			bounded(t, 4*time.Second, 1<<62, func() {
				_, l := Bytes("a.cue", []byte(tc.src), Options{CUE: NewCUEGate(2*time.Second, 0)})
				if len(l) > 0 {
					d = l[0]
				}
			})
			if d.Rule != RuleLimit || !regexp.MustCompile(tc.want).MatchString(d.Message) {
				t.Errorf("got %v, want %q", d, tc.want)
			}
		})
	}
}

func interpolated(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "s%d: \"\\(s%d)\\(s%d)\"\n", i, i-1, i-1)
	}
	return b.String()
}

func listDoubling(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "l%d: [l%d, l%d]\n", i, i-1, i-1)
	}
	return b.String()
}

func TestCUEWatchdog(t *testing.T) {
	block := make(chan int)
	if _, why := watch(block, 50*time.Millisecond, 1<<30); !strings.Contains(why, "longer than") {
		t.Errorf("timeout: %q", why)
	}
	stop := make(chan struct{})
	kept := make(chan [][]byte)
	defer func() { close(stop); <-kept }()
	go func() { // grows the heap until stopped
		var keep [][]byte
		for {
			select {
			case <-stop:
				kept <- keep
				return
			default:
				keep = append(keep, make([]byte, 1<<20))
				time.Sleep(100 * time.Microsecond)
			}
		}
	}()
	if _, why := watch(block, 10*time.Second, 64<<20); !strings.Contains(why, "more than 64 MiB") {
		t.Errorf("heap: %q", why)
	}
	done := make(chan int, 1)
	done <- 7
	if v, why := watch(done, time.Second, 1<<30); v != 7 || why != "" {
		t.Errorf("done: %v %q", v, why)
	}
}

// hostileCUE is a spec whose size the estimate before evaluation cannot
// see (the bound of the range is computed). Its evaluation takes far
// longer than a millisecond, the lowered time bound of the tests (a heap
// bound would depend on what the collector frees meanwhile), and then
// ends by itself at a few tens of MiB.
const hostileCUE = "import \"list\"\nn: 100 * 1000\nnodePools: list.Range(0, n, 1)\n"

// One budget per process: once an evaluation is abandoned, the gate
// evaluates no further CUE, and each later CUE spec says why, naming the
// abandoned one. Without it, every hostile file of a directory is
// evaluated and abandoned in turn, and all of them run on together.
func TestCUEGateRefusesAfterAbandon(t *testing.T) {
	gate := NewCUEGate(time.Millisecond, 0)
	var got []diag.Diagnostic
	for i := range 4 {
		_, l := Bytes(fmt.Sprintf("c%d.cue", i), []byte(hostileCUE), Options{CUE: gate})
		if len(l) != 1 {
			t.Fatalf("c%d.cue: got %v, want one diagnostic", i, l)
		}
		got = append(got, l[0])
	}
	if d := got[0]; d.Rule != RuleLimit || !strings.Contains(d.Message, "took longer than 1ms; abandoned") {
		t.Errorf("c0.cue: got %v, want the time bound", d)
	}
	for i, d := range got[1:] {
		want := "CUE not evaluated: the evaluation of c0.cue took longer than 1ms and was abandoned"
		if d.Rule != RuleLimit || !strings.Contains(d.Message, want) || d.Pos.Line != 1 || d.Pos.Col != 1 || d.Pos.File != fmt.Sprintf("c%d.cue", i+1) {
			t.Errorf("c%d.cue: got %v, want %q at 1:1", i+1, d, want)
		}
	}
	if n := gate.evaluations(); n != 1 {
		t.Errorf("%d evaluations, want 1: refused files must not be evaluated", n)
	}
	// What is refused before evaluation still says so: the gate is
	// consulted only for what would be evaluated.
	_, l := Bytes("bad.cue", []byte("a: {"), Options{CUE: gate})
	if len(l) == 0 || l[0].Rule != RuleSyntax {
		t.Errorf("syntax error after an abandoned evaluation: got %v", l)
	}
	// A gate of its own evaluates again.
	doc, l := Bytes("ok.cue", []byte("nodePools: [{name: \"a\"}]\n"), Options{CUE: NewCUEGate(0, 0)})
	if len(l) != 0 || doc.Root == nil {
		t.Errorf("fresh gate: %v", l)
	}
}

// Evaluations wait for the one under way; one abandoned meanwhile
// refuses the waiters too.
func TestCUEGateWaiterRefused(t *testing.T) {
	gate := NewCUEGate(0, 0)
	release, why := gate.acquire()
	if why != "" {
		t.Fatal(why)
	}
	res := make(chan diag.List)
	go func() {
		_, l := Bytes("b.cue", []byte("nodePools: []\n"), Options{CUE: gate})
		res <- l
	}()
	gate.abandon("a.cue", "took longer than 5s")
	release()
	l := <-res
	if len(l) != 1 || !strings.Contains(l[0].Message, "the evaluation of a.cue took longer than 5s and was abandoned") {
		t.Errorf("got %v", l)
	}
	if n := gate.evaluations(); n != 1 {
		t.Errorf("%d evaluations, want only the first", n)
	}
}

// Under ulimit -v the heap bound shrinks, so that an abandoned
// evaluation leaves the process the address space to report and exit.
func TestCUEHeapBound(t *testing.T) {
	for _, tc := range []struct{ as, want uint64 }{
		{0, CUEMaxHeap},
		{8 << 30, CUEMaxHeap},
		{3 << 30, CUEMaxHeap},
		{2 << 30, 256 << 20},
		{1 << 30, 64 << 20},
		{100 << 20, 64 << 20},
	} {
		if got := cueHeapBound(tc.as); got != tc.want {
			t.Errorf("address space %d MiB: bound %d MiB, want %d MiB", tc.as>>20, got>>20, tc.want>>20)
		}
	}
}
