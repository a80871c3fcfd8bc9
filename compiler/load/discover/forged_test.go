package discover

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
)

// TestDirLoaderDecides: specs the content test over the first 64 KiB
// misses are found by the loader (#28.2), and files that only mention a
// marker (nested, in a comment, in a string) are still not specs.
func TestDirLoaderDecides(t *testing.T) {
	dir := t.TempDir()
	tree(t, dir, map[string]string{
		"indented.yaml":  " nodePools: []\n orchestratorSpec: {}\n",
		"late.yaml":      strings.Repeat("# padding padding padding padding\n", 2200) + "nodePools: []\n",
		"escaped.json":   `{"node\u0050ools": []}`,
		"snake.json":     `{"node\u005fpools": []}`,
		"embedded.cue":   "_base: {\n\tnodePools: []\n}\n_base\n",
		"computed.cue":   "(\"node\" + \"Pools\"): []\n",
		"nested.yaml":    "jobs:\n  nodePools: []\n",
		"comment.yaml":   "# nodePools: []\nname: x\n",
		"string.json":    `{"name": "nodePools"}`,
		"escapes.json":   `{"name": "a\tb"}`,
		"plain.yaml":     "name: x\n",
		"broken.yaml":    " nodePools: [\n",
		"late-list.yaml": strings.Repeat("# padding\n", 7000) + "- nodePools: []\n",
	})
	res, err := Dir(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"computed.cue", "embedded.cue", "escaped.json", "indented.yaml", "late.yaml", "snake.json"}
	if got := rel(t, dir, res.Specs); !reflect.DeepEqual(got, want) {
		t.Errorf("specs %q, want %q", got, want)
	}
	wantNot := []string{"broken.yaml", "comment.yaml", "escapes.json", "late-list.yaml", "nested.yaml", "plain.yaml", "string.json"}
	if got := rel(t, dir, res.NotSpecs); !reflect.DeepEqual(got, wantNot) {
		t.Errorf("not specs %q, want %q", got, wantNot)
	}
}

// TestContainsMarkerText: the scan that decides whether the loader runs
// never misses a marker, in any case, with '_' and '-' anywhere, after a
// partial match.
func TestContainsMarkerText(t *testing.T) {
	for _, s := range []string{"nodePools", "node_pools", "NODE-POOLS", "orchestratorSpec", "orchestrator_spec",
		"orchestratorchestratorSpec", "nnodePools", "nodenodePools", "x: orchestratorOrchestratorSpec"} {
		if !containsMarkerText([]byte(s)) {
			t.Errorf("containsMarkerText(%q) = false", s)
		}
	}
	for _, s := range []string{`"node\u0050ools"`, `"node\x50ools"`, `"node\U00000050ools"`, `"node\u005fpools"`,
		`"NODE\u002dPOOLS"`, "\"node\\\n    Pools\"", "\"node\\\r\n\tPools\"", `"orchestrator\u0053pec"`} {
		if !containsMarkerText([]byte(s)) {
			t.Errorf("containsMarkerText(%q) = false", s)
		}
	}
	for _, s := range []string{"node Pools", "nodePool", "orchestrator", "pools: node", `"node\\u0050ools"`,
		`"node\u0150ools"`, `"node\"Pools"`, `"node\FFFFFFFFPools"`, `"\UFFFFFFFF"`} {
		if containsMarkerText([]byte(s)) {
			t.Errorf("containsMarkerText(%q) = true", s)
		}
	}
}

// gitRepo makes dir a git repository and adds the paths to its index.
func gitRepo(t *testing.T, dir string, add ...string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("git is not installed")
		}
		t.Skip("git is not installed")
	}
	for _, args := range [][]string{{"init", "-q"}, append([]string{"add", "-f", "--"}, add...)} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

// TestDirTrackedIgnored: git never ignores a tracked file, so a committed
// spec that a committed .gitignore matches is found, in an ignored
// directory too; untracked ignored files stay skipped (#28.2).
func TestDirTrackedIgnored(t *testing.T) {
	for _, version := range []string{"2", "3", "4"} {
		t.Run("index-v"+version, func(t *testing.T) {
			dir := t.TempDir()
			tree(t, dir, map[string]string{
				".gitignore":           "*.local.yaml\nbuild/\n",
				"a.local.yaml":         spec,
				"b.local.yaml":         spec,
				"build/out/c.yaml":     spec,
				"build/untracked.yaml": spec,
				"scratch/d.yaml":       spec,
			})
			gitRepo(t, dir, "a.local.yaml", "build/out/c.yaml", "scratch/d.yaml")
			cmd := exec.Command("git", "update-index", "--index-version", version)
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git update-index: %v\n%s", err, out)
			}
			res, err := Dir(dir, opts)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := rel(t, dir, res.Specs), []string{"a.local.yaml", "build/out/c.yaml", "scratch/d.yaml"}; !reflect.DeepEqual(got, want) {
				t.Errorf("specs %q, want %q", got, want)
			}
			if len(res.Notes) > 0 {
				t.Errorf("notes %q", res.Notes)
			}
			// The ignored directory searched by itself.
			res, err = Dir(filepath.Join(dir, "build"), opts)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := rel(t, dir, res.Specs), []string{"build/out/c.yaml"}; !reflect.DeepEqual(got, want) {
				t.Errorf("specs of build %q, want %q (why %q)", got, want, res.Why)
			}
		})
	}
}

// TestDirUnreadableIndex: an index the decoder cannot read leaves ignored
// files skipped, and the walk says so.
func TestDirUnreadableIndex(t *testing.T) {
	dir := t.TempDir()
	tree(t, dir, map[string]string{".gitignore": "*.local.yaml\n", "a.local.yaml": spec, "b.yaml": spec, ".git/index": "DIRC garbage"})
	res, err := Dir(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rel(t, dir, res.Specs), []string{"b.yaml"}; !reflect.DeepEqual(got, want) {
		t.Errorf("specs %q, want %q", got, want)
	}
	if len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "cannot read the git index") {
		t.Errorf("notes %q, want one about the index", res.Notes)
	}
}

// TestDirNamesWhatItSkips: links, FIFOs and devices are skipped without
// being opened, and listed (#28: skipped silently before).
func TestDirNamesWhatItSkips(t *testing.T) {
	dir := t.TempDir()
	tree(t, dir, map[string]string{"a.yaml": spec, "notes.yaml": "name: x\n", "fifo.txt.keep": ""})
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.txt"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(t.TempDir(), filepath.Join(dir, "linkdir")); err != nil {
		t.Fatal(err)
	}
	res, err := Dir(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range res.NotRegular {
		r, _ := filepath.Rel(dir, s.Path)
		got = append(got, fmt.Sprintf("%s: %s", r, s.Kind))
	}
	if want := []string{"fifo.yaml: a FIFO", "linkdir: a symbolic link"}; !reflect.DeepEqual(got, want) {
		t.Errorf("not regular %q, want %q", got, want)
	}
	if got, want := rel(t, dir, res.NotSpecs), []string{"notes.yaml"}; !reflect.DeepEqual(got, want) {
		t.Errorf("not specs %q, want %q", got, want)
	}
}

// BenchmarkDirManyYAML: a walk over 10,000 small YAML files that are not
// specs: ConfigMaps without the marker text (the loader runs on none),
// and ConfigMaps with a nested nodePools key (the loader runs on each:
// the worst case of the content test).
func BenchmarkDirManyYAML(b *testing.B) {
	for _, c := range []struct{ name, key string }{{"plain", "key"}, {"nested-marker", "nodePools"}} {
		b.Run(c.name, func(b *testing.B) {
			dir := b.TempDir()
			for i := range 10000 {
				sub := filepath.Join(dir, fmt.Sprintf("d%03d", i/100))
				if err := os.MkdirAll(sub, 0o755); err != nil {
					b.Fatal(err)
				}
				body := fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-%d\ndata:\n  %s: value\n", i, c.key)
				if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("f%d.yaml", i)), []byte(body), 0o644); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			for b.Loop() {
				res, err := Dir(dir, opts)
				if err != nil || len(res.NotSpecs) != 10000 {
					b.Fatalf("%v, %d not specs", err, len(res.NotSpecs))
				}
			}
		})
	}
}
