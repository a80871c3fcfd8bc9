package rules_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/lint/rules"
	"github.com/slurmspec/slurmspec/schema/accounting"
)

// A rule's Doc ends with a "Bad:" and a "Good:" YAML example (doc in
// effective.go). Newcomers copy them, so TestDocExamples runs each one:
// the example is a fragment, placed into the small clean spec the rule
// cases use (spec.YAML), then linted by the whole pipeline.
//
// How a fragment is placed, by its top-level key:
//   - config, partitions, nodeSets, prologBashScripts, epilogBashScripts,
//     defaultPartitionId, loginNodePoolId, homeDirectoryStorage (or its
//     snake_case name): that field of orchestratorSpec.slurmSpec; config is
//     merged into the base's, the others replace it;
//   - nodePools, or a fragment that is itself a list: the cluster's node
//     pools. An item is the pool of that id; "..." in it stands for the
//     rest of the pool template of that id (docPools), without it only
//     scalingSpec and zone are filled in;
//   - machineSpec: the machineSpec of pool a4;
//   - qos, accounts, users: the accounting file.
//
// Comment lines steer the rest: "# --slurm-version X" runs the example on
// release X too, "# accounting file" or "# NAME.accounting.yaml" starts
// the accounting file, "# NAME.yaml" goes back to the spec. Every pool a
// partition, node set or the login pool names and the spec lacks is added
// from its template. A fragment the mapping cannot place fails the test,
// unless docExamplesUnplaced lists it with the reason.

// docExamplesUnplaced lists the examples, by rule id and "Bad" or "Good",
// that the mapping above cannot place, with the reason.
var docExamplesUnplaced = map[string]string{}

// docPools are the pool templates, by id.
var docPools = map[string]string{
	"cpu":   defaultPools,
	"login": defaultLogin,
	"a4":    a4Pool,
	"h200":  "- id: h200\n  machineSpec: {machineType: a3-ultragpu-8g}\n  provisioningModel: SPOT\n  scalingSpec: {minNodeCount: 0, maxNodeCount: 4}\n  bootDisk: {bootDiskType: hyperdisk-balanced}\n  zone: us-central1-a",
}

// slurmSpecKeys are the fragment keys that are fields of slurmSpec.
var slurmSpecKeys = map[string]bool{
	"config": true, "partitions": true, "nodeSets": true, "prologBashScripts": true, "epilogBashScripts": true,
	"defaultPartitionId": true, "loginNodePoolId": true, "homeDirectoryStorage": true, "home_directory_storage": true,
}

var (
	versionComment = regexp.MustCompile(`^#\s*--slurm-version\s+(\S+)\s*$`)
	acctComment    = regexp.MustCompile(`^#\s*(accounting file|\S+\.accounting\.yaml)\s*$`)
	specComment    = regexp.MustCompile(`^#\s*\S+\.yaml\s*$`)
	ellipsis       = regexp.MustCompile(`,\s*\.\.\.`)
)

// docExample is one example of a rule's Doc, placed.
type docExample struct {
	spec, acct string // YAML texts; acct is "" when there is none
	version    string // the release the example names, "" for none
}

// docBlocks matches a Doc's trailing Bad and Good blocks (YAML, or the
// API's JSON, which YAML reads too).
var docBlocks = regexp.MustCompile("(?s)\n\nBad:\n\n```(?:yaml|json)\n(.*?)\n```\n\nGood:\n\n```(?:yaml|json)\n(.*?)\n```\n$")

// docExampleTexts returns the Bad and Good blocks of a rule's Doc.
func docExampleTexts(doc string) (bad, good string, ok bool) {
	m := docBlocks.FindStringSubmatch(doc)
	if m == nil {
		return "", "", false
	}
	return m[1], m[2], true
}

// placeDocExample places a fragment into the base spec.
func placeDocExample(fragment string) (docExample, error) {
	var ex docExample
	var specText, acctText strings.Builder
	out := &specText
	for _, line := range strings.Split(fragment, "\n") {
		switch t := strings.TrimSpace(line); {
		case versionComment.MatchString(t):
			ex.version = versionComment.FindStringSubmatch(t)[1]
		case acctComment.MatchString(t):
			out = &acctText
		case specComment.MatchString(t):
			out = &specText
		default:
			out.WriteString(line + "\n")
		}
	}
	text := specText.String()
	elided := ellipsis.MatchString(text)
	text = ellipsis.ReplaceAllString(text, "")
	var frag any
	if err := yaml.Unmarshal([]byte(text), &frag); err != nil {
		return ex, fmt.Errorf("not YAML: %w", err)
	}
	var root map[string]any
	if err := yaml.Unmarshal([]byte(spec{}.YAML()), &root); err != nil {
		return ex, err
	}
	slurm := root["orchestratorSpec"].(map[string]any)["slurmSpec"].(map[string]any)
	var pools []any // the fragment's pools, nil when it names none
	acct := map[string]any{}
	if list, ok := frag.([]any); ok {
		frag, pools = map[string]any{}, list
	}
	fm, ok := frag.(map[string]any)
	if !ok && frag != nil {
		return ex, fmt.Errorf("a %T, neither a mapping nor a list", frag)
	}
	for k, v := range fm {
		switch {
		case k == "config":
			m, ok := v.(map[string]any)
			if !ok {
				return ex, fmt.Errorf("config is a %T", v)
			}
			cfg, _ := slurm["config"].(map[string]any)
			if cfg == nil {
				cfg = map[string]any{}
			}
			for ck, cv := range m {
				cfg[ck] = cv
			}
			slurm["config"] = cfg
		case k == "home_directory_storage":
			delete(slurm, "homeDirectoryStorage")
			slurm[k] = v
		case slurmSpecKeys[k]:
			slurm[k] = v
		case k == "nodePools":
			l, ok := v.([]any)
			if !ok {
				return ex, fmt.Errorf("nodePools is a %T", v)
			}
			pools = l
		case k == "machineSpec":
			p := poolTemplate("a4")
			p["machineSpec"] = v
			pools = append(pools, p)
		case k == "qos" || k == "accounts" || k == "users":
			acct[k] = v
		default:
			return ex, fmt.Errorf("top-level key %q has no place", k)
		}
	}
	if pools != nil {
		var err error
		if pools, err = fillPools(pools, elided); err != nil {
			return ex, err
		}
		root["nodePools"] = pools
	}
	root["nodePools"] = addNamedPools(root["nodePools"].([]any), slurm)
	b, err := yaml.Marshal(root)
	if err != nil {
		return ex, err
	}
	ex.spec = string(b)
	ex.acct = acctText.String()
	if len(acct) > 0 {
		if strings.TrimSpace(ex.acct) != "" {
			return ex, fmt.Errorf("accounting keys both in the spec part and after an accounting comment")
		}
		b, err := yaml.Marshal(acct)
		if err != nil {
			return ex, err
		}
		ex.acct = string(b)
	}
	return ex, nil
}

// poolTemplate returns a fresh copy of the template pool of an id.
func poolTemplate(id string) map[string]any {
	var l []map[string]any
	if err := yaml.Unmarshal([]byte(docPools[id]), &l); err != nil || len(l) != 1 {
		panic(fmt.Sprintf("pool template %q: %v", id, err))
	}
	return l[0]
}

// fillPools completes the fragment's pool items: with the whole template
// of their id when the fragment elides ("..."), else with its scalingSpec
// and zone only.
func fillPools(items []any, elided bool) ([]any, error) {
	out := make([]any, 0, len(items))
	for _, it := range items {
		p, ok := it.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("a pool is a %T", it)
		}
		id, _ := p["id"].(string)
		if docPools[id] == "" {
			return nil, fmt.Errorf("pool %q has no template", id)
		}
		t := poolTemplate(id)
		for k, v := range t {
			if _, set := p[k]; !set && (elided || k == "scalingSpec" || k == "zone") {
				p[k] = v
			}
		}
		out = append(out, p)
	}
	return out, nil
}

// addNamedPools adds the template of each pool slurmSpec names that the
// spec lacks.
func addNamedPools(pools []any, slurm map[string]any) []any {
	have := map[string]bool{}
	for _, p := range pools {
		if m, ok := p.(map[string]any); ok {
			have[fmt.Sprint(m["id"])] = true
		}
	}
	var named []string
	if l, ok := slurm["loginNodePoolId"].(string); ok {
		named = append(named, l)
	}
	parts, _ := slurm["partitions"].([]any)
	for _, p := range parts {
		m, _ := p.(map[string]any)
		ids, _ := m["nodePoolIds"].([]any)
		for _, id := range ids {
			named = append(named, fmt.Sprint(id))
		}
	}
	sets, _ := slurm["nodeSets"].([]any)
	for _, s := range sets {
		if m, ok := s.(map[string]any); ok {
			named = append(named, fmt.Sprint(m["nodePoolId"]))
		}
	}
	for _, id := range named {
		if !have[id] && docPools[id] != "" {
			have[id] = true
			pools = append(pools, poolTemplate(id))
		}
	}
	return pools
}

// lintDocExample runs the whole pipeline on a placed example.
func lintDocExample(t *testing.T, p *pipeline.Pipeline, ex docExample, version string) diag.List {
	t.Helper()
	sch, err := compiledSchema()
	if err != nil {
		t.Fatal(err)
	}
	var acct *accounting.File
	if ex.acct != "" {
		f, l := accounting.LoadBytes(acctFile, []byte(ex.acct))
		if f == nil {
			t.Fatalf("accounting file refused:\n%s\n%s", l, numbered(ex.acct))
		}
		acct = f
	}
	s := &pipeline.Settings{Lint: lint.Config{Options: lint.Options{SlurmVersion: version, Accounting: acct}}}
	r, err := p.Analyse(pipeline.Bytes("docexample.yaml", []byte(ex.spec)), pipeline.AnalyseOptions{Schema: sch, Settings: s})
	if err != nil {
		t.Fatal(err)
	}
	return r.Diags
}

// TestDocExamples checks every rule's Doc examples: the Bad one makes the
// rule report, the Good one keeps it silent and has no error of any rule,
// on the newest release and on the release the example names.
func TestDocExamples(t *testing.T) {
	p, err := pipeline.New(pipeline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	base, err := placeDocExample("")
	if err != nil {
		t.Fatal(err)
	}
	if l := lintDocExample(t, p, base, ""); len(l) != 0 {
		t.Fatalf("the base spec is not clean:\n%s\n%s", show(l, ""), numbered(base.spec))
	}
	used := map[string]bool{}
	for _, r := range rules.All() {
		bad, good, ok := docExampleTexts(r.Doc)
		if !ok {
			t.Errorf("%s: its Doc has no Bad and Good examples", r.ID)
			continue
		}
		for _, which := range []string{"Bad", "Good"} {
			text := bad
			if which == "Good" {
				text = good
			}
			key := r.ID + " " + which
			t.Run(key, func(t *testing.T) {
				ex, err := placeDocExample(text)
				if why, listed := docExamplesUnplaced[key]; listed {
					used[key] = true
					if err == nil {
						t.Errorf("listed as unplaced (%s), but it places: drop it from docExamplesUnplaced", why)
					}
					return
				}
				if err != nil {
					t.Fatalf("cannot place the example (%v): change the mapping or list it in docExamplesUnplaced\n%s", err, text)
				}
				if which == "Bad" {
					// The Bad example must fail where it says it does.
					l := lintDocExample(t, p, ex, ex.version)
					if len(positions(l, r.ID)) == 0 {
						t.Errorf("no %s finding on the Bad example (release %q)\nfindings:\n%s\n%s", r.ID, ex.version, show(l, ""), numbered(ex.spec+ex.acct))
					}
					return
				}
				versions := []string{""}
				if ex.version != "" {
					versions = append(versions, ex.version)
				}
				for _, v := range versions {
					l := lintDocExample(t, p, ex, v)
					for _, d := range l {
						if d.Rule == r.ID || d.Severity == diag.Error {
							t.Errorf("Good example, release %q: %s | %s | hint: %s\n%s", v, d, d.Path, d.Hint, numbered(ex.spec+ex.acct))
						}
					}
				}
			})
		}
	}
	for key := range docExamplesUnplaced {
		if !used[key] {
			t.Errorf("docExamplesUnplaced lists %q, which is no rule's example", key)
		}
	}
}
