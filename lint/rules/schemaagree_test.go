package rules_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"cuelang.org/go/cue"
	cueerrors "cuelang.org/go/cue/errors"
	cueyaml "cuelang.org/go/encoding/yaml"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/slurmspec/slurmspec/compiler/cuectx"
	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/managed"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/schema"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// The exported schemas (slurmspec schema --format cue|jsonschema) state the
// slurm.conf key and value errors that lint finds with the catalog. These
// tests generate config entries from the catalog (every key of every scope
// in several spellings, misspelt and reserved keys, each key's values and
// near misses), lint them in generated specs, and check that the exported
// CUE (on the whole specs, as cue vet -d '#Cluster' does, and on each
// entry), the exported JSON Schema (santhosh-tekuri/jsonschema, and ajv
// when node has it) flag exactly the entries lint flags.

// keyValueRules are lint's rules about one config entry on its own.
var keyValueRules = map[string]bool{
	"unknown-config-key": true, "config-key-scope": true, "config-key-version": true, "invalid-config-value": true,
	"reserved-key": true, "partition-default-key": true, "preempt-exempt-time": true,
	"schema-slurm-value": true, "schema-key": true,
}

type entry struct {
	scope      catalog.Scope
	key, value string
}

func (e entry) String() string { return fmt.Sprintf("%s %s=%s", e.scope, e.key, e.value) }

// candidateValues are values worth trying for p: its tokens in several
// spellings and with arguments, near misses, numbers, times and words.
func candidateValues(p *catalog.Param) []string {
	set := map[string]bool{}
	add := func(vs ...string) {
		for _, v := range vs {
			if v != "" && !strings.ContainsAny(v, " \t#\"'\\") {
				set[v] = true
			}
		}
	}
	numbers := []string{"0", "1", "2", "9", "+5", "-1", "-5", "-0", "007", "08", "0x1F", "0XffFF", "65535", "65536", "1k", "64K",
		"4294967295", "4294967296", "4194303k", "4194304k", "18446744073709551615", "18446744073709551616", "UNLIMITED", "infinite", "x"}
	switch p.Kind {
	case catalog.KindBool:
		add("yes", "NO", "True", "up", "0", "off", "maybe")
	case catalog.KindUint16, catalog.KindUint32, catalog.KindUint64, catalog.KindLong:
		add(numbers...)
	case catalog.KindTime:
		add("0", "1", "-1", "-5", "-0", "-00", "007", "UNLIMITED", "infinite", "x", "1-00:00:00", "2-", "-3", "00:10:00", "10:00",
			"1:2:3:4", "0:0", "0:30", "1-2:3", "5-6", ":5", "5:", "1-:2", "+5", "35791394", "35791395")
	case catalog.KindEnum, catalog.KindPlugin, catalog.KindList:
		add("x", "0", "9", "10", "-1", "+3", "a,b", ",")
	default:
		add("x", "1")
	}
	var toks []string
	step := max(1, len(p.Values)/10)
	for i := 0; i < len(p.Values); i += step {
		ev := p.Values[i]
		n := ev.Name
		if j := strings.IndexByte(n, '<'); j >= 0 {
			n = n[:j] + "gpu"
		}
		toks = append(toks, n)
		add(n, strings.ToUpper(n), strings.ToLower(n), n+"=1", n+":2", n+"x", n[:len(n)/2+1])
		if j := strings.IndexByte(n, '/'); j >= 0 {
			add(n[j+1:], strings.ToUpper(n[:j+1])+n[j+1:], "bogus/"+n[j+1:], n[j+1:]+"none")
		}
		for _, op := range p.OptionalPrefixes {
			add(op+n, strings.ToUpper(op)+n)
		}
	}
	for _, ev := range p.Values {
		// Numeric option arguments at the edges of their ranges, and
		// words atoi reads as 0.
		for _, r := range ev.ArgRanges {
			for _, n := range []int64{r.Min - 1, r.Min, r.Max, r.Max + 1} {
				add(ev.Name + "=" + strconv.FormatInt(n, 10))
			}
			add(ev.Name+"=", ev.Name+"=abc", ev.Name+"=+0", ev.Name+"=-0", ev.Name+"=5x", ev.Name+"=-1")
		}
		for _, a := range ev.ArgValues {
			add(ev.Name+"="+a+"imum", ev.Name+"="+a[:len(a)-1])
		}
	}
	for i := 0; i+1 < len(toks); i += 2 {
		add(toks[i]+","+toks[i+1], toks[i]+",,"+toks[i+1], toks[i]+",bogus")
	}
	out := make([]string, 0, len(set))
	for v := range set {
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}

// every keeps every n-th entry.
func every(entries []entry, n int) []entry {
	var out []entry
	for i := 0; i < len(entries); i += n {
		out = append(out, entries[i])
	}
	return out
}

// agreementEntries generates the entries of one scope.
func agreementEntries(scope catalog.Scope) []entry {
	cat := catalog.Default()
	var out []entry
	seen := map[string]bool{}
	addKey := func(key string, p *catalog.Param) {
		values := []string{"1", "YES", "x"}
		if p != nil {
			values = candidateValues(p)
		}
		for _, v := range values {
			e := entry{scope, key, v}
			if !seen[e.String()] {
				seen[e.String()] = true
				out = append(out, e)
			}
		}
	}
	for _, s := range []catalog.Scope{catalog.ScopeGlobal, catalog.ScopePartition, catalog.ScopeNode, catalog.ScopeNodeSet} {
		for _, p := range cat.Params(s) {
			own, _ := cat.Lookup(scope, p.Name)
			if own == nil {
				addKey(p.Name, nil) // a key of another scope
				continue
			}
			addKey(own.Name, own)
			addKey(strings.ToLower(own.Name), nil)
			addKey(strings.ToUpper(own.Name), nil)
			addKey(own.Name+"x", nil)
			if len(own.Name) > 4 {
				addKey(own.Name[:2]+own.Name[3:], nil)
			}
		}
	}
	for _, k := range managed.Reserved() {
		addKey(k.Name, nil)
		addKey(strings.ToLower(k.Name), nil)
	}
	addKey("Default", nil)
	return out
}

const agreeBase = `nodePools:
- id: cpu
  machineSpec: {machineType: n2-standard-8}
  scalingSpec: {minNodeCount: 1, maxNodeCount: 1}
- id: login
  machineSpec: {machineType: n2-standard-4}
  scalingSpec: {minNodeCount: 1, maxNodeCount: 1}
%sorchestratorSpec:
  slurmSpec:
    loginNodePoolId: login
    homeDirectoryStorage: projects/my-project/locations/us-central1-a/instances/home
    partitions:
    - {id: debug, nodePoolIds: [cpu]}
%s`

// lintFlags lints entries and returns, for each, whether a key/value
// rule reports an error on it, and the messages.
func lintFlags(t *testing.T, v catalog.Version, scope catalog.Scope, entries []entry, cluster cue.Value) (flagged map[int][]string, vetted map[int]bool) {
	t.Helper()
	flagged, vetted = map[int][]string{}, map[int]bool{}
	// Entries go into specs in batches; a key appears at most once per map.
	batch := 150
	if scope == catalog.ScopeGlobal {
		batch = len(entries)
	}
	for start := 0; start < len(entries); start += batch {
		chunk := entries[start:min(start+batch, len(entries))]
		var pools, body strings.Builder
		paths := map[string]int{}
		switch scope {
		case catalog.ScopeGlobal:
			lintGlobal(t, v, chunk, start, flagged, vetted, cluster)
			continue
		case catalog.ScopePartition:
			body.WriteString("    partitions:\n    - {id: debug, nodePoolIds: [cpu]}\n")
			for i, e := range chunk {
				fmt.Fprintf(&body, "    - {id: p%d, nodePoolIds: [cpu], config: {%q: %q}}\n", i, e.key, e.value)
				paths[fmt.Sprintf("orchestratorSpec.slurmSpec.partitions[%d].config.%s", i+1, e.key)] = start + i
			}
		case catalog.ScopeNode:
			body.WriteString("    nodeSets:\n")
			for i, e := range chunk {
				fmt.Fprintf(&pools, "- {id: n%d, machineSpec: {machineType: n2-standard-8}, scalingSpec: {maxNodeCount: 1}}\n", i)
				fmt.Fprintf(&body, "    - {nodePoolId: n%d, config: {%q: %q}}\n", i, e.key, e.value)
				paths[fmt.Sprintf("orchestratorSpec.slurmSpec.nodeSets[%d].config.%s", i, e.key)] = start + i
			}
		}
		src := fmt.Sprintf(agreeBase, pools.String(), body.String())
		src = strings.Replace(src, "    partitions:\n    - {id: debug, nodePoolIds: [cpu]}\n    partitions:\n", "    partitions:\n", 1)
		for _, d := range lintSpec(t, v, src) {
			if i, ok := paths[d.Path]; ok {
				flagged[i] = append(flagged[i], d.Rule+": "+d.Message)
			}
		}
		vetSpec(t, cluster, src, paths, vetted)
	}
	return flagged, vetted
}

// vetSpec validates a whole generated spec against the exported #Cluster,
// as cue vet -d '#Cluster' does, and marks the entries at the paths CUE
// flags. An error anywhere else fails the test.
func vetSpec(t *testing.T, cluster cue.Value, src string, paths map[string]int, vetted map[int]bool) {
	t.Helper()
	f, err := cueyaml.Extract("spec.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	data := cuectx.New().BuildFile(f) // values of separate contexts combine
	for _, e := range cueerrors.Errors(cluster.Unify(data).Validate(cue.Concrete(true))) {
		var b strings.Builder
		for _, el := range e.Path() {
			if el == "#Cluster" {
				continue
			}
			if _, err := strconv.Atoi(el); err == nil {
				b.WriteString("[" + el + "]")
				continue
			}
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(el)
		}
		i, ok := paths[b.String()]
		if !ok {
			t.Fatalf("cue vet flags %s, which is no generated entry: %v", b.String(), e)
		}
		vetted[i] = true
	}
}

// lintGlobal lints global entries: the one config map of a spec takes
// one entry per key (two spellings of a key would be a duplicate), so
// entries are dealt into as many specs as a key has entries.
func lintGlobal(t *testing.T, v catalog.Version, chunk []entry, start int, flagged map[int][]string, vetted map[int]bool, cluster cue.Value) {
	t.Helper()
	var specs []map[string]int
	for i, e := range chunk {
		k := strings.ToLower(e.key)
		placed := false
		for _, s := range specs {
			if _, dup := s[k]; !dup {
				s[k] = i
				placed = true
				break
			}
		}
		if !placed {
			specs = append(specs, map[string]int{k: i})
		}
	}
	for _, s := range specs {
		var body strings.Builder
		paths := map[string]int{}
		body.WriteString("    config:\n")
		for _, i := range s {
			fmt.Fprintf(&body, "      %q: %q\n", chunk[i].key, chunk[i].value)
			paths["orchestratorSpec.slurmSpec.config."+chunk[i].key] = start + i
		}
		src := fmt.Sprintf(agreeBase, "", body.String())
		for _, d := range lintSpec(t, v, src) {
			if i, ok := paths[d.Path]; ok {
				flagged[i] = append(flagged[i], d.Rule+": "+d.Message)
			}
		}
		vetSpec(t, cluster, src, paths, vetted)
	}
}

// lintSpec runs lint/pipeline (load, schema, compile and every rule) and
// returns the error-level findings of the key/value rules.
func lintSpec(t *testing.T, v catalog.Version, src string) []diag.Diagnostic {
	t.Helper()
	sch, err := compiledSchema()
	if err != nil {
		t.Fatal(err)
	}
	p, err := pipeline.New(pipeline.Options{SlurmVersion: v.String()})
	if err != nil {
		t.Fatal(err)
	}
	settings := &pipeline.Settings{Lint: lint.Config{Options: lint.Options{SlurmVersion: v.String()}}}
	r, err := p.Analyse(pipeline.Bytes("agree.yaml", []byte(src)), pipeline.AnalyseOptions{Schema: sch, Settings: settings})
	if err != nil {
		t.Fatal(err)
	}
	var out []diag.Diagnostic
	for _, d := range r.Diags {
		switch {
		case d.Severity != diag.Error:
		case keyValueRules[d.Rule]:
			out = append(out, d)
		case r.Cluster == nil:
			t.Fatalf("a generated spec fails to load, the schema or the compiler: %v\n%s", d, src)
		}
	}
	return out
}

// betweenTokens are fragments of the messages of slurmconf's rules between
// the tokens of one value (rules.go, data/constraints.md), and of a time
// string's overflow.
var betweenTokens = []string{
	"32-bit arithmetic overflows", "more than one base mode", "combines GANG", "needs GANG", "more than one resource unit",
	"cannot be combined", "may appear only once", "without EnableIPv6", "exclude each other", "must be the only value",
	"more than one binding unit", "more than one binding type", "more than one time format", "needs task/cgroup listed after it", "must be the whole value", "compares resource names case-sensitively",
	// SchedulerParameters' backfill options (catalog/rules.go schedulerRules).
	"max_job_bf is no longer supported", "without bf_node_space_size", "is not below bf_max_job_test", "with keepalivetime is outside Linux's",
	// UNLIMITED in a closed set of numbers (PropagatePrioProcess): the
	// schemas accept UNLIMITED for every integer key.
	"is not one of the accepted values",
}

// combination reports a list value whose tokens pass one by one: its
// error comes from a rule between tokens (data/constraints.md), which the
// exported schemas leave to lint; or a time string whose total overflows
// Slurm's 32-bit arithmetic, which they do not state either.
func combination(e entry, v catalog.Version, msgs []string) bool {
	for _, m := range msgs {
		for _, frag := range betweenTokens {
			if strings.Contains(m, frag) {
				return true
			}
		}
	}
	p, ok := catalog.Default().Lookup(e.scope, e.key)
	if ok && p.Status == catalog.StatusAlias && p.Kind == catalog.KindString {
		// lint checks an alias's value as the key it stands for
		// (AcctGatherInfinibandType as AcctGatherInterconnectType); the
		// exported schemas leave the alias a string.
		return true
	}
	if !ok || !strings.Contains(e.value, ",") {
		return false
	}
	for _, tok := range strings.Split(e.value, ",") {
		for _, pr := range catalog.CheckValue(p, v, tok) {
			if pr.Severity == catalog.SeverityError {
				return false
			}
		}
	}
	return true
}

var scopeDefs = map[catalog.Scope]string{catalog.ScopeGlobal: "#GlobalConfig", catalog.ScopePartition: "#PartitionConfig", catalog.ScopeNode: "#NodeConfig"}

func TestExportedSchemasAgreeWithLint(t *testing.T) {
	versions := []catalog.Version{catalog.V2205, catalog.Newest()}
	if testing.Short() {
		versions = versions[1:]
	}
	for _, v := range versions {
		t.Run(v.String(), func(t *testing.T) {
			src, err := schema.CUESourceFor(v)
			if err != nil {
				t.Fatal(err)
			}
			ctx := cuectx.New()
			root := ctx.CompileBytes(src, cue.Filename("cluster.cue"))
			if err := root.Err(); err != nil {
				t.Fatal(err)
			}
			js := compileExportedJSONSchema(t, v)
			for _, scope := range []catalog.Scope{catalog.ScopeGlobal, catalog.ScopePartition, catalog.ScopeNode} {
				entries := agreementEntries(scope)
				if testing.Short() {
					entries = every(entries, 4) // -short: a quarter of them
				}
				flagged, vetted := lintFlags(t, v, scope, entries, root.LookupPath(cue.ParsePath("#Cluster")))
				def := root.LookupPath(cue.ParsePath(scopeDefs[scope]))
				jdef := js[scope]
				var disagree, skipped, errs, fallbacks int
				var checked []entry
				var verdicts []bool
				cueFlags := cueFlagged(ctx, def, entries)
				for i, e := range entries {
					lintErr := len(flagged[i]) > 0
					if lintErr && combination(e, v, flagged[i]) {
						skipped++
						continue
					}
					if lintErr {
						errs++
					}
					cueErr := cueFlags[i]
					if cueErr != lintErr {
						// A batch may hide an error behind another (CUE
						// reports errors in rounds): ask about the entry alone.
						fallbacks++
						cueErr = def.Unify(ctx.Encode(map[string]string{e.key: e.value})).Validate(cue.Concrete(true)) != nil
					}
					if vetted[i] != lintErr {
						disagree++
						t.Errorf("%s: lint %v %q, cue vet of the whole spec %v", e, lintErr, flagged[i], vetted[i])
					}
					jsonErr := jdef.Validate(map[string]any{e.key: e.value}) != nil
					checked, verdicts = append(checked, e), append(verdicts, lintErr)
					if cueErr != lintErr || jsonErr != lintErr {
						disagree++
						if disagree <= 40 {
							t.Errorf("%s: lint %v %q, cue vet %v, JSON Schema %v", e, lintErr, flagged[i], cueErr, jsonErr)
						}
					}
				}
				t.Logf("Slurm %s %s: %d entries, %d errors, %d left to lint (rules between tokens, overflow); cue vet of the whole specs flags %d, %d checked alone",
					v, scope, len(entries), errs, skipped, len(vetted), fallbacks)
				if disagree > 0 {
					t.Errorf("%s: %d disagreements", scope, disagree)
				}
				ajvAgrees(t, v, scope, checked, verdicts)
				if errs == 0 || errs == len(entries) {
					t.Errorf("%s: degenerate case set (%d errors of %d)", scope, errs, len(entries))
				}
			}
		})
	}
}

// cueFlagged validates the entries against a config definition in batches
// of distinct keys and reports which entries CUE flags.
func cueFlagged(ctx *cue.Context, def cue.Value, entries []entry) map[int]bool {
	var batches []map[string]int
	for i, e := range entries {
		k := strings.ToLower(e.key)
		placed := false
		for _, b := range batches {
			if _, dup := b[k]; !dup {
				b[k] = i
				placed = true
				break
			}
		}
		if !placed {
			batches = append(batches, map[string]int{k: i})
		}
	}
	out := map[int]bool{}
	for _, b := range batches {
		data := map[string]string{}
		byKey := map[string]int{}
		for _, i := range b {
			data[entries[i].key] = entries[i].value
			byKey[entries[i].key] = i
		}
		err := def.Unify(ctx.Encode(data)).Validate(cue.Concrete(true))
		for _, e := range cueerrors.Errors(err) {
			if p := e.Path(); len(p) > 0 {
				if i, ok := byKey[p[len(p)-1]]; ok {
					out[i] = true
				}
			}
		}
	}
	return out
}

func compileExportedJSONSchema(t *testing.T, v catalog.Version) map[catalog.Scope]*jsonschema.Schema {
	t.Helper()
	b, err := schema.JSONSchemaFor(v)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(schema.JSONSchemaID, doc); err != nil {
		t.Fatal(err)
	}
	out := map[catalog.Scope]*jsonschema.Schema{}
	for scope, def := range scopeDefs {
		s, err := c.Compile(schema.JSONSchemaID + "#/$defs/" + strings.TrimPrefix(def, "#"))
		if err != nil {
			t.Fatal(err)
		}
		out[scope] = s
	}
	return out
}

// ajvAgrees checks the entries with ajv, the JavaScript validator, too,
// when node and ajv are installed (see schema/editor_test.go, which
// requires them under CI=true).
func ajvAgrees(t *testing.T, v catalog.Version, scope catalog.Scope, entries []entry, lintErr []bool) {
	t.Helper()
	node, err := exec.LookPath("node")
	mods := os.Getenv("SLURMSPEC_NODE_MODULES")
	if mods == "" {
		home, _ := os.UserHomeDir()
		mods = filepath.Join(home, ".cache", "slurmspec", "node", "node_modules")
	}
	if _, serr := os.Stat(filepath.Join(mods, "ajv", "package.json")); err != nil || serr != nil {
		t.Logf("ajv not installed: the JSON Schema is checked with santhosh-tekuri/jsonschema only")
		return
	}
	b, err := schema.JSONSchemaFor(v)
	if err != nil {
		t.Fatal(err)
	}
	docs := make([]map[string]string, len(entries))
	for i, e := range entries {
		docs[i] = map[string]string{e.key: e.value}
	}
	dir := t.TempDir()
	input, _ := json.Marshal(map[string]any{"schema": json.RawMessage(b), "def": strings.TrimPrefix(scopeDefs[scope], "#"), "docs": docs})
	script := `
const Ajv2020 = require(process.argv[2] + "/ajv/dist/2020").default;
const input = JSON.parse(require("fs").readFileSync(process.argv[3], "utf8"));
const ajv = new Ajv2020({strict: false});
ajv.addSchema(input.schema);
const validate = ajv.getSchema(input.schema["$id"] + "#/$defs/" + input.def);
console.log(JSON.stringify(input.docs.map(d => !validate(d))));
`
	for name, data := range map[string][]byte{"in.json": input, "check.js": []byte(script)} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, err := exec.Command(node, filepath.Join(dir, "check.js"), mods, filepath.Join(dir, "in.json")).Output()
	if err != nil {
		t.Fatalf("ajv: %v", err)
	}
	var flagged []bool
	if err := json.Unmarshal(out, &flagged); err != nil || len(flagged) != len(entries) {
		t.Fatalf("ajv printed %.200s (%v)", out, err)
	}
	bad := 0
	for i, e := range entries {
		if flagged[i] != lintErr[i] {
			bad++
			if bad <= 20 {
				t.Errorf("%s: lint %v, ajv %v", e, lintErr[i], flagged[i])
			}
		}
	}
	t.Logf("ajv: %d entries, %d disagreements", len(entries), bad)
}
