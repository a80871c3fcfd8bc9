package cuectx

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"
	"github.com/google/go-cmp/cmp"
)

// TestEvaluatesAsCuecontext checks that a context from New evaluates CUE,
// builtins included, as one from cuecontext.New does.
func TestEvaluatesAsCuecontext(t *testing.T) {
	const src = `
import (
	"strings"
	"list"
	"math"
	"regexp"
	"strconv"
	"encoding/json"
	"encoding/yaml"
	"net"
	"time"
	"struct"
)

a: strings.ToUpper("a4-highgpu-8g")
b: list.Sum([1, 2, 3])
c: math.Floor(2.5)
d: regexp.Match("^[a-z]+$", "abc")
e: strconv.Atoi("42")
f: json.Marshal({x: 1})
g: yaml.Marshal({y: [1, 2]})
h: net.ParseIP("10.0.0.1")
i: time.Parse(time.RFC3339, "2026-11-30T00:00:00Z")
j: struct.MaxFields(3) & {p: 1}
k: strings.MaxRunes(3) & "abc"
`
	want := cuecontext.New().CompileString(src)
	got := New().CompileString(src)
	if err := got.Err(); err != nil {
		t.Fatalf("compile with cuectx.New: %v", err)
	}
	if err := got.Validate(cue.Concrete(true)); err != nil {
		t.Fatalf("validate: %v", err)
	}
	wj, err := want.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	gj, err := got.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(wj), string(gj)); diff != "" {
		t.Errorf("cuectx.New evaluates differently from cuecontext.New (-cuecontext +cuectx):\n%s", diff)
	}
	// Errors are reported, not swallowed.
	if err := New().CompileString(`x: strings.MaxRunes(1) & "ab"` + "\n" + `import "strings"`).Err(); err == nil {
		t.Errorf("an invalid file compiled without error")
	}
	if err := New().CompileString("import \"strings\"\nx: strings.MaxRunes(1) & \"ab\"").Validate(); err == nil {
		t.Errorf("a constraint violation validated")
	}
}

// TestValuesCombine checks that values of different contexts unify, as
// the schema's one-off contexts need.
func TestValuesCombine(t *testing.T) {
	schema := New().CompileString(`#A: {n: int & <=2}`).LookupPath(cue.ParsePath("#A"))
	if err := schema.Unify(New().CompileString(`n: 2`)).Validate(cue.Concrete(true)); err != nil {
		t.Errorf("valid data: %v", err)
	}
	if err := schema.Unify(New().CompileString(`n: 3`)).Validate(cue.Concrete(true)); err == nil {
		t.Errorf("n: 3 unified with n <= 2 without error")
	}
}

// TestBuiltins checks that this package registers every builtin package
// of the CUE module in use except tool/..., which only `cue cmd` runs.
func TestBuiltins(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "cuelang.org/go").Output()
	if err != nil {
		t.Fatalf("go list -m cuelang.org/go: %v", err)
	}
	reg, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "pkg", "register.go"))
	if err != nil {
		t.Fatal(err)
	}
	own, err := os.ReadFile("cuectx.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(reg), "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, `_ "cuelang.org/go/pkg/`) {
			continue
		}
		tool := strings.HasPrefix(line, `_ "cuelang.org/go/pkg/tool`)
		if has := strings.Contains(string(own), line); has == tool {
			if tool {
				t.Errorf("cuectx.go imports %s, a tool package only `cue cmd` runs", line)
			} else {
				t.Errorf("cuectx.go lacks the builtin package import %s", line)
			}
		}
	}
}

// TestLinksNoInjection checks the point of the package: it links neither
// cuecontext nor the encoders its @embed injection brings.
func TestLinksNoInjection(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		switch {
		case pkg == "cuelang.org/go/cue/cuecontext", pkg == "cuelang.org/go/cue/inject/embed",
			strings.HasPrefix(pkg, "google.golang.org/protobuf/"), strings.HasPrefix(pkg, "cuelang.org/go/pkg/tool"):
			t.Errorf("cuectx links %s", pkg)
		}
	}
}
