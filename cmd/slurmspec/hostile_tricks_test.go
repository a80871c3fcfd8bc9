package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"go.yaml.in/yaml/v3"
)

// hostileTrick is one trick of issue #28 a pull request can play on the
// checkout.
type hostileTrick struct {
	name  string
	plant func(t *testing.T, h *hostileRepo)
	// specs are values of the workflow's SPEC its lint commands run with,
	// besides "." (the whole checkout); each must be refused with an
	// error that names the link refused and says it is a link.
	specs   []string
	refused string
	// broken are parts of the names of committed specs with errors: every
	// run over the whole checkout and the hook's must exit non-zero and
	// name each.
	broken []string
	// addForce are paths committed with git add -f (tracked although
	// .gitignore matches them).
	addForce []string
}

// brokenSpecYAML is the A4 example with an invalid PreemptMode: a spec
// with errors.
func brokenSpecYAML(t *testing.T) string {
	t.Helper()
	spec, err := os.ReadFile(filepath.Join("..", "..", "examples", "a4-training.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(spec), "PreemptMode: REQUEUE", "PreemptMode: BANANA", 1)
	if bad == string(spec) {
		t.Fatal("examples/a4-training.yaml has no PreemptMode: REQUEUE to break")
	}
	return bad
}

// brokenSpecJSON is brokenSpecYAML as JSON.
func brokenSpecJSON(t *testing.T) string {
	t.Helper()
	var v any
	if err := yaml.Unmarshal([]byte(brokenSpecYAML(t)), &v); err != nil {
		t.Fatal(err)
	}
	data, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(data) + "\n"
}

// hostileTricks are the tricks of issue #28, each a subtest of
// TestHostileRepository, and all of them at once.
func hostileTricks(t *testing.T) []hostileTrick {
	includeJSON := func(t *testing.T, h *hostileRepo) {
		h.write(t, ".slurmspec.yaml", "include: [\"*.json\"]\n")
	}
	tricks := []hostileTrick{{
		name: "symlinked directory argument",
		plant: func(t *testing.T, h *hostileRepo) {
			includeJSON(t, h)
			h.link(t, filepath.Join(h.outside, "creds"), "clusters")
		},
		specs:   []string{"clusters", "clusters/"},
		refused: "clusters",
	}, {
		name: "argument below a linked parent directory",
		plant: func(t *testing.T, h *hostileRepo) {
			includeJSON(t, h)
			h.link(t, "../outside/creds", "team")
		},
		specs:   []string{"team/credentials.json", "team/credentials.yaml"},
		refused: "team",
	}, {
		name: "spec replaced by a link to a directory",
		plant: func(t *testing.T, h *hostileRepo) {
			includeJSON(t, h)
			h.link(t, filepath.Join(h.outside, "creds"), "cluster.yaml")
		},
		specs:   []string{"cluster.yaml"},
		refused: "cluster.yaml",
	}, {
		name: "include patterns and a linked directory with a secret",
		plant: func(t *testing.T, h *hostileRepo) {
			h.write(t, ".slurmspec.yaml", "include: [\"*.json\", \"data/*.json\", \"data/**\"]\n")
			h.link(t, filepath.Join(h.outside, "creds"), "data")
		},
	}, {
		name: "tracked spec with errors matched by a committed gitignore",
		plant: func(t *testing.T, h *hostileRepo) {
			h.write(t, ".gitignore", "specs/ignored.yaml\n")
			h.write(t, "specs/ignored.yaml", brokenSpecYAML(t))
		},
		addForce: []string{"specs/ignored.yaml"},
		broken:   []string{"ignored.yaml"},
	}, {
		name: "sniffer miss: YAML indented by one space",
		plant: func(t *testing.T, h *hostileRepo) {
			var b strings.Builder
			for line := range strings.Lines(brokenSpecYAML(t)) {
				b.WriteString(" " + line)
			}
			h.write(t, "specs/indented.yaml", b.String())
		},
		broken: []string{"indented.yaml"},
	}, {
		name: "sniffer miss: nodePools after 64 KiB of comments",
		plant: func(t *testing.T, h *hostileRepo) {
			comments := strings.Repeat("# a comment line that pads the spec past what a sniffer reads ....\n", 70<<10/64)
			h.write(t, "specs/late.yaml", comments+brokenSpecYAML(t))
		},
		broken: []string{"late.yaml"},
	}, {
		name: "sniffer miss: JSON keys spelled with escapes",
		plant: func(t *testing.T, h *hostileRepo) {
			spec := strings.NewReplacer(`"nodePools"`, `"\u006eodePools"`, `"orchestratorSpec"`, `"\u006frchestratorSpec"`).Replace(brokenSpecJSON(t))
			h.write(t, "specs/escaped.json", spec)
		},
		broken: []string{"escaped.json"},
	}, {
		name: "sniffer miss: CUE spec embedding a hidden struct",
		plant: func(t *testing.T, h *hostileRepo) {
			h.write(t, "specs/hidden.cue", "_spec: "+brokenSpecJSON(t)+"_spec\n")
		},
		broken: []string{"hidden.cue"},
	}, {
		name: "eight CUE list.Range files",
		plant: func(t *testing.T, h *hostileRepo) {
			for i := range 8 {
				h.write(t, fmt.Sprintf("specs/range/r%d.cue", i), "import \"list\"\nn: 2000 * 1000\nnodePools: list.Range(0, n, 1)\n")
			}
		},
		broken: []string{"r0.cue", "r1.cue", "r2.cue", "r3.cue", "r4.cue", "r5.cue", "r6.cue", "r7.cue"},
	}, {
		name: "report names committed as symlinks",
		plant: func(t *testing.T, h *hostileRepo) {
			h.link(t, filepath.Join(h.outside, "victim.txt"), "slurmspec.sarif")
			h.link(t, "/proc/self/environ", "slurmspec-diff.md")
			h.link(t, "../outside/victim.txt", "slurmspec-comment.md")
		},
	}, {
		name: "file names forging workflow commands",
		plant: func(t *testing.T, h *hostileRepo) {
			h.write(t, "specs/forge\n::error file=x::forged.yaml", brokenSpecYAML(t))
			h.write(t, "specs/stop\n::stop-commands::token.yaml", brokenSpecYAML(t))
		},
		broken: []string{"forged.yaml", "token.yaml"},
	}, {
		name: "15 MB spec of huge unknown keys",
		plant: func(t *testing.T, h *hostileRepo) {
			var b strings.Builder
			b.WriteString(`{"nodePools": []`)
			for _, c := range "xyz" {
				fmt.Fprintf(&b, ", %q: 1", strings.Repeat(string(c), 5_000_000))
			}
			b.WriteString("}\n")
			h.write(t, "specs/huge.json", b.String())
		},
		broken: []string{"huge.json"},
	}}
	// All at once, in one checkout.
	all := hostileTrick{name: "every trick in one checkout"}
	for _, tr := range tricks {
		all.specs = append(all.specs, tr.specs...)
		all.broken = append(all.broken, tr.broken...)
		all.addForce = append(all.addForce, tr.addForce...)
	}
	all.plant = func(t *testing.T, h *hostileRepo) {
		for _, tr := range tricks {
			tr.plant(t, h)
		}
		// The include patterns of both tricks that set them.
		h.write(t, ".slurmspec.yaml", "include: [\"*.json\", \"data/*.json\", \"data/**\"]\n")
	}
	return append(tricks, all)
}

// TestHostileRepository builds a pull request's checkout with each trick
// of issue #28 (and one with all of them) and runs over it every command
// of examples/ci/github-actions.yml (its run: steps, and its lint
// commands over the whole checkout and over the arguments a trick names)
// and the pre-commit hook's entry over the files pre-commit passes it.
// Every command: prints no secret planted outside the checkout (in files
// the links reach, and in its environment), writes nothing outside
// $RUNNER_TEMP, forges no workflow command, does not crash, peaks below
// 2 GiB RSS and prints at most 1 MiB. Every committed spec with errors is
// reported (non-zero exit, the file named); every argument through a
// link is refused, naming the link.
func TestHostileRepository(t *testing.T) {
	t.Parallel()
	bin := cliBinary(t)
	tricks := hostileTricks(t)
	// Each trick has a repository, an outside and a runner of its own: two
	// run at a time (a trick waits on git and slurmspec processes).
	todo := make(chan hostileTrick)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for tr := range todo {
				t.Run(tr.name, func(t *testing.T) { hostileTrickRun(t, bin, tr) })
			}
		}()
	}
	for _, tr := range tricks {
		todo <- tr
	}
	close(todo)
	wg.Wait()
}

// hostileTrickRun plants one trick in a repository of its own, runs
// everything on it and checks what TestHostileRepository says.
func hostileTrickRun(t *testing.T, bin string, tr hostileTrick) {
	h := newHostileRepo(t, bin)
	tr.plant(t, h)
	gitIn(t, h.checkout, "add", "-A")
	if len(tr.addForce) > 0 {
		gitIn(t, h.checkout, append([]string{"add", "-f", "--"}, tr.addForce...)...)
	}
	gitIn(t, h.checkout, "commit", "-q", "-m", tr.name)
	outside, checkout := fingerprint(t, h.outside), fingerprint(t, h.checkout)

	runs, steps := runAll(t, h, append([]string{"."}, tr.specs...))

	if got := fingerprint(t, h.outside); got != outside {
		t.Errorf("files outside the checkout changed:\nbefore:\n%s\nafter:\n%s", outside, got)
	}
	if got := fingerprint(t, h.checkout); got != checkout {
		t.Errorf("files in the checkout changed:\nbefore:\n%s\nafter:\n%s", checkout, got)
	}
	for _, r := range runs {
		checkRun(t, h, r.name, r.output, r.maxRSSKB)
		switch {
		case r.reports:
			if len(tr.broken) > 0 && r.code == 0 {
				t.Errorf("%s: exit 0 with committed specs with errors (%s):\n%.2000s", r.name, strings.Join(tr.broken, ", "), r.output)
			}
			for _, b := range tr.broken {
				if !strings.Contains(r.output, b) {
					t.Errorf("%s: does not report the committed spec with errors %s", r.name, b)
				}
			}
		case tr.refused != "":
			if r.code == 0 || !strings.Contains(r.output, tr.refused) || !strings.Contains(strings.ToLower(r.output), "link") {
				t.Errorf("%s: want an error naming the link %s, got exit %d:\n%.2000s", r.name, tr.refused, r.code, r.output)
			}
		}
	}
	for _, s := range steps {
		published := s.output + s.summary
		for _, k := range slices.Sorted(maps.Keys(s.outputs)) {
			published += "\n" + k + "=" + s.outputs[k]
		}
		checkRun(t, h, "workflow step "+s.name, published, s.maxRSSKB)
	}
}
