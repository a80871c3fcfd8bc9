package discover

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"
)

const spec = "nodePools: []\n"

// tree writes files (path: content) under dir.
func tree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func rel(t *testing.T, dir string, paths []string) []string {
	t.Helper()
	out := []string{}
	for _, p := range paths {
		r, err := filepath.Rel(dir, p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, filepath.ToSlash(r))
	}
	return out
}

var opts = Options{ConfigName: ".slurmspec.yaml", OutputMarker: ".slurmspec-manifest"}

// TestDirRegularOnly: a walk takes regular files only; a FIFO (which would
// hang the read), a symbolic link to a file (which would read outside the
// directory) and a symbolic link to a directory are neither opened nor
// entered.
func TestDirRegularOnly(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	tree(t, dir, map[string]string{"a.yaml": spec, "b/c.json": `{"nodePools": []}`, ".hidden/d.yaml": spec, "e.txt": spec})
	tree(t, outside, map[string]string{"secret.yaml": spec, "sub/f.yaml": spec})
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.yaml"), 0o644); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.yaml"), filepath.Join(dir, "link.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "sub"), filepath.Join(dir, "linkdir")); err != nil {
		t.Fatal(err)
	}
	res, err := Dir(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rel(t, dir, res.Specs), []string{"a.yaml", "b/c.json"}; !reflect.DeepEqual(got, want) {
		t.Errorf("specs %q, want %q", got, want)
	}
}

// TestDirChoosesSpecs: the tree of a repository that keeps specs beside
// other YAML: only the specs are found.
func TestDirChoosesSpecs(t *testing.T) {
	dir := t.TempDir()
	tree(t, dir, map[string]string{
		".slurmspec.yaml":              "disable: [placeholder]\n",
		".pre-commit-config.yaml":      "repos: []\n",
		".github/workflows/ci.yml":     "on: push\njobs: {}\n",
		"ci/workflow.yml":              "name: ci\non: push\njobs:\n  nodePools: {}\n",
		"cluster.yaml":                 spec,
		"clusters/nested/b.jsonc":      "// b\n{\"orchestrator_spec\": {}}\n",
		"clusters/c.cue":               "orchestratorSpec: slurmSpec: {}\n",
		"clusters/.slurmspec.yaml":     "{}\n",
		"rendered/.slurmspec-manifest": "",
		"rendered/cluster.json":        `{"nodePools": []}`,
		"rendered/pulumi/Pulumi.yaml":  "name: x\n",
		"docs/notes.md":                spec,
	})
	res, err := Dir(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rel(t, dir, res.Specs), []string{"cluster.yaml", "clusters/c.cue", "clusters/nested/b.jsonc"}; !reflect.DeepEqual(got, want) {
		t.Errorf("specs %q, want %q", got, want)
	}
	if res.Candidates != 5 {
		t.Errorf("%d candidates, want 5 (.pre-commit-config.yaml, cluster.yaml, ci/workflow.yml, two under clusters/)", res.Candidates)
	}
	res, err = Dir(filepath.Join(dir, "rendered"), opts)
	if err != nil || len(res.Specs) != 0 || !strings.Contains(res.Why, "rendered") {
		t.Errorf("a rendered directory named: %+v, %v", res, err)
	}
}

// TestDirGitignore: inside a repository, what .gitignore (at the root and
// below, with negations) and .git/info/exclude ignore is not found; the
// same tree outside a repository ignores nothing.
func TestDirGitignore(t *testing.T) {
	dir := t.TempDir()
	tree(t, dir, map[string]string{
		".gitignore":            "build/\n*.local.yaml\n",
		".git/info/exclude":     "scratch.yaml\n",
		"build/a.yaml":          spec,
		"dev.local.yaml":        spec,
		"scratch.yaml":          spec,
		"keep.yaml":             spec,
		"sub/.gitignore":        "*.yaml\n!wanted.yaml\n",
		"sub/wanted.yaml":       spec,
		"sub/unwanted.yaml":     spec,
		"sub/deep/x.local.yaml": spec,
	})
	res, err := Dir(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rel(t, dir, res.Specs), []string{"keep.yaml", "sub/wanted.yaml"}; !reflect.DeepEqual(got, want) {
		t.Errorf("specs %q, want %q", got, want)
	}
	if res.Candidates != 2 {
		t.Errorf("%d candidates, want 2: ignored files are not counted", res.Candidates)
	}
	// From a subdirectory, the root's .gitignore still applies.
	res, err = Dir(filepath.Join(dir, "sub"), opts)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rel(t, dir, res.Specs), []string{"sub/wanted.yaml"}; !reflect.DeepEqual(got, want) {
		t.Errorf("from sub/: specs %q, want %q", got, want)
	}
	res, err = Dir(filepath.Join(dir, "build"), opts)
	if err != nil || len(res.Specs) != 0 || !strings.Contains(res.Why, ".gitignore") {
		t.Errorf("an ignored directory named: %+v, %v", res, err)
	}
	if err := os.RemoveAll(filepath.Join(dir, ".git")); err != nil {
		t.Fatal(err)
	}
	res, err = Dir(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Specs) != 7 {
		t.Errorf("outside a repository: specs %q, want all 7", rel(t, dir, res.Specs))
	}
}

// TestGitignoreAgreesWithGit: the files found are those git does not
// ignore (git check-ignore is the oracle).
func TestGitignoreAgreesWithGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	files := map[string]string{
		".gitignore":     "*.gen.yaml\n/top.yaml\nlogs/\n**/tmp/*.yaml\n!keep.gen.yaml\n",
		"a.gen.yaml":     spec,
		"keep.gen.yaml":  spec,
		"top.yaml":       spec,
		"x/top.yaml":     spec,
		"logs/l.yaml":    spec,
		"x/logs/l.yaml":  spec,
		"x/tmp/t.yaml":   spec,
		"x/y/tmp/t.yaml": spec,
		"x/.gitignore":   "!a.gen.yaml\n[ab].yaml\n",
		"x/a.gen.yaml":   spec,
		"x/a.yaml":       spec,
		"x/c.yaml":       spec,
		"x/y/b.yaml":     spec,
		"x/y/c.yaml":     spec,
	}
	tree(t, dir, files)
	if out, err := exec.Command("git", "-C", dir, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	res, err := Dir(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	for _, p := range rel(t, dir, res.Specs) {
		found[p] = true
	}
	for name := range files {
		if strings.HasSuffix(name, ".gitignore") {
			continue
		}
		cmd := exec.Command("git", "-C", dir, "check-ignore", "-q", "--no-index", "--", name)
		err := cmd.Run()
		ignored := err == nil
		if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
			t.Fatalf("git check-ignore %s: %v", name, err)
		}
		if found[name] == ignored {
			t.Errorf("%s: git says ignored=%v, discover found=%v", name, ignored, found[name])
		}
	}
}

// TestDirPatterns: a project configuration's include patterns add files
// the content test misses, its exclude patterns drop files and whole
// directories, and exclude wins.
func TestDirPatterns(t *testing.T) {
	dir := t.TempDir()
	tree(t, dir, map[string]string{
		"cluster.yaml":          spec,
		"skeleton.yaml":         "name: projects/p/locations/r/modelDevelopmentClusters/c\n",
		"templates/t.tmpl.yaml": "{{ .X }}\n",
		"templates/u.tmpl.yaml": "{{ .X }}\n",
		"testdata/bad.yaml":     spec,
		"other.yaml":            "a: 1\n",
	})
	o := opts
	var asked []string
	o.Patterns = func(d string) (Patterns, error) {
		asked = append(asked, d)
		return Patterns{Dir: dir, Include: []string{"skeleton.yaml", "templates/*.tmpl.yaml"}, Exclude: []string{"testdata/", "u.tmpl.yaml"}}, nil
	}
	res, err := Dir(dir, o)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rel(t, dir, res.Specs), []string{"cluster.yaml", "skeleton.yaml", "templates/t.tmpl.yaml"}; !reflect.DeepEqual(got, want) {
		t.Errorf("specs %q, want %q", got, want)
	}
	if asked = slices.Compact(asked); len(asked) != 2 { // the root and templates/; testdata/ is never entered
		t.Errorf("patterns asked for %q, want the root and templates/", asked)
	}
	res, err = Dir(filepath.Join(dir, "testdata"), o)
	if err != nil || len(res.Specs) != 0 || !strings.Contains(res.Why, "exclude pattern") {
		t.Errorf("an excluded directory named: %+v, %v", res, err)
	}
	for file, want := range map[string]bool{"skeleton.yaml": true, "other.yaml": false, "testdata/bad.yaml": false, "cluster.yaml": true} {
		if got, err := Keep(filepath.Join(dir, file), o); got != want || err != nil {
			t.Errorf("Keep(%s) = %v, %v; want %v", file, got, err, want)
		}
	}
}

// TestKeep: of the files a hook passes, the specs are kept; the tool's own
// files, rendered output and other YAML are not; a missing file is kept
// for the loader to report.
func TestKeep(t *testing.T) {
	dir := t.TempDir()
	tree(t, dir, map[string]string{
		"cluster.yaml":            spec,
		".slurmspec.yaml":         "{}\n",
		"wf.yml":                  "on: push\n",
		"out/.slurmspec-manifest": "",
		"out/cluster.json":        `{"nodePools": []}`,
		"out/pulumi/Pulumi.yaml":  "nodePools: []\n",
	})
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.yaml"), 0o644); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	if err := os.Symlink("cluster.yaml", filepath.Join(dir, "link.yaml")); err != nil {
		t.Fatal(err)
	}
	for file, want := range map[string]bool{
		"cluster.yaml": true, "missing.yaml": true,
		".slurmspec.yaml": false, "wf.yml": false, "out/cluster.json": false, "out/pulumi/Pulumi.yaml": false,
		"fifo.yaml": false, "link.yaml": false,
	} {
		if got, err := Keep(filepath.Join(dir, file), opts); got != want || err != nil {
			t.Errorf("Keep(%s) = %v, %v; want %v", file, got, err, want)
		}
	}
}

// TestDirHostileIgnoreFiles: a .gitignore that is a symbolic link (to a
// file outside, which would ignore the specs) or a FIFO is not read, and
// ignore files larger than the walk's budget in all are an error, not an
// unbounded read.
func TestDirHostileIgnoreFiles(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	tree(t, dir, map[string]string{".git/HEAD": "", "a/x.yaml": spec, "b/y.yaml": spec})
	tree(t, outside, map[string]string{"ignore-all": "*\n"})
	if err := os.Symlink(filepath.Join(outside, "ignore-all"), filepath.Join(dir, "a", ".gitignore")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "b", ".gitignore"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Dir(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rel(t, dir, res.Specs), []string{"a/x.yaml", "b/y.yaml"}; !reflect.DeepEqual(got, want) {
		t.Errorf("specs %q, want %q", got, want)
	}

	half := strings.Repeat("# padding\n", MaxIgnoreBytes/20+1) // just over half the budget each
	tree(t, dir, map[string]string{".gitignore": half, "c/.gitignore": half, "c/z.yaml": spec})
	if _, err := Dir(dir, opts); err == nil || !strings.Contains(err.Error(), "in all") {
		t.Errorf("ignore files over the budget: %v, want an error", err)
	}
	if _, err := Dir(filepath.Join(dir, "a"), opts); err != nil {
		t.Errorf("one file within the budget: %v", err)
	}
}

// TestKeepLooksNoHigherThanTheWorkingDirectory: for a relative path, the
// rendered-directory test looks at the file's directory and its parent,
// never above the working directory.
func TestKeepLooksNoHigherThanTheWorkingDirectory(t *testing.T) {
	parent := t.TempDir()
	tree(t, parent, map[string]string{".slurmspec-manifest": "", "wd/cluster.yaml": spec, "wd/sub/c.yaml": spec})
	t.Chdir(filepath.Join(parent, "wd"))
	for file, want := range map[string]bool{"cluster.yaml": true, "sub/c.yaml": true, "./sub/c.yaml": true} {
		if got, err := Keep(file, opts); got != want || err != nil {
			t.Errorf("Keep(%s) = %v, %v; want %v", file, got, err, want)
		}
	}
	if got, _ := Keep(filepath.Join(parent, "wd", "cluster.yaml"), opts); got {
		t.Error("an absolute path's parent directory holds the manifest, yet kept")
	}
}

// TestDirBoundsEntries: a walk that lists more entries than its bound
// stops with an error instead of running on.
func TestDirBoundsEntries(t *testing.T) {
	d := t.TempDir()
	files := map[string]string{}
	for i := range 30 {
		files[fmt.Sprintf("d%d/f%d.txt", i%3, i)] = "x"
	}
	tree(t, d, files)
	if _, err := dir(d, opts, 33); err != nil { // 3 directories and 30 files
		t.Errorf("33 entries within a bound of 33: %v", err)
	}
	if _, err := dir(d, opts, 32); err == nil || !strings.Contains(err.Error(), "files and directories") {
		t.Errorf("33 entries over a bound of 32: %v, want an error", err)
	}
}

// TestDirForeignIgnoreFile: a .gitignore above the directory searched that
// another user owns (a shared directory made to look like a repository,
// hiding specs) is refused, as a foreign .slurmspec.yaml is; in the
// directory searched it is the tree's own and is used; root's is used.
func TestDirForeignIgnoreFile(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give a file to another user")
	}
	shared := t.TempDir()
	tree(t, shared, map[string]string{".git/HEAD": "", ".gitignore": "prod.yaml\n", "alice/prod.yaml": spec})
	planted := filepath.Join(shared, ".gitignore")
	if err := os.Chown(planted, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if _, err := Dir(filepath.Join(shared, "alice"), opts); err == nil || !strings.Contains(err.Error(), "belongs to another user") {
		t.Errorf("a foreign .gitignore above the directory: %v, want it refused", err)
	}
	if res, err := Dir(shared, opts); err != nil || len(res.Specs) != 0 {
		t.Errorf("the directory's own .gitignore: %q, %v; want it used", res.Specs, err)
	}
	if err := os.Chown(planted, 0, 0); err != nil {
		t.Fatal(err)
	}
	if res, err := Dir(filepath.Join(shared, "alice"), opts); err != nil || len(res.Specs) != 0 {
		t.Errorf("a root-owned .gitignore above: %q, %v; want it used", res.Specs, err)
	}
}
