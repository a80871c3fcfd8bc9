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
				_, l := Bytes("a.cue", []byte(tc.src), Options{cueTimeout: 2 * time.Second})
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
