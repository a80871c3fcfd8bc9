package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/slurmspec/slurmspec/compiler/load"
)

// One CUE budget per process (issue #28.3): of the hostile CUE files one
// run streams, however many workers read them at once, one is evaluated
// and abandoned and every other one is refused unevaluated, naming it.
// The time bound is lowered to a millisecond, which each file's
// evaluation exceeds many times over; abandoned, it ends by itself at a
// few tens of MiB.
func TestStreamSharesOneCUEBudget(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for _, name := range []string{"a.cue", "b.cue", "c.cue", "d.cue", "e.cue"} {
		f := filepath.Join(dir, name)
		src := "import \"list\"\nn: 100 * 1000\nnodePools: list.Range(0, n, 1)\n"
		if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	p, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	p.cue = load.NewCUEGate(time.Millisecond, 0)
	var abandoned []string
	refused := map[string]string{}
	err = p.Stream(files, nil, func(r *Result) error {
		if len(r.Diags) != 1 || r.Diags[0].Rule != load.RuleLimit {
			t.Errorf("%s: got %v, want one %s", r.File, r.Diags, load.RuleLimit)
			return nil
		}
		switch msg := r.Diags[0].Message; {
		case strings.Contains(msg, "took longer than 1ms; abandoned"):
			abandoned = append(abandoned, r.File)
		case strings.HasPrefix(msg, "CUE not evaluated: "):
			refused[r.File] = msg
		default:
			t.Errorf("%s: %s", r.File, msg)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(abandoned) != 1 || len(refused) != len(files)-1 {
		t.Fatalf("abandoned %v, refused %d of %d: want one evaluation in the run", abandoned, len(refused), len(files))
	}
	for f, msg := range refused {
		if !strings.Contains(msg, "the evaluation of "+abandoned[0]+" took longer than 1ms and was abandoned") {
			t.Errorf("%s: %q does not name %s", f, msg, abandoned[0])
		}
	}
}
