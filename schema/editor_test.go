package schema

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Tests of the exported JSON Schema with the JavaScript tools editors use:
// ajv (a JSON Schema validator) and yaml-language-server (the YAML
// language server of VS Code and other editors), run by node. They are
// installed by .ci/run into ~/.cache/slurmspec/node (or the directory
// SLURMSPEC_NODE_MODULES names):
//
//	npm install --prefix ~/.cache/slurmspec/node yaml-language-server@1.25.0 ajv@8.20.0
//
// Without node or the packages the tests skip with one line, except under
// CI=true, where they fail. (No Python validator is tested: Python's
// package index is not reachable from this project's machines.)

// nodeModules returns the node binary and the node_modules directory that
// holds pkg, or skips the test.
func nodeModules(t *testing.T, pkg string) (node, dir string) {
	t.Helper()
	missing := func(what string) {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s (CI=true: the editor tools are required)", what)
		}
		t.Skipf("%s; install it to run this test", what)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node is not installed")
	}
	dir = os.Getenv("SLURMSPEC_NODE_MODULES")
	if dir == "" {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".cache", "slurmspec", "node", "node_modules")
	}
	if _, err := os.Stat(filepath.Join(dir, pkg, "package.json")); err != nil {
		missing("npm package " + pkg + " is not in " + dir)
	}
	return node, dir
}

// TestJSONSchemaWithAjv: ajv (2020-12 mode) and santhosh-tekuri/jsonschema
// give the same verdict on the examples, on broken specs and on slurm.conf
// entries of every kind; so does ajv in its default, strict mode with the
// strict flavour (StrictJSON, schema --strict), which it compiles without
// an error or a warning.
func TestJSONSchemaWithAjv(t *testing.T) {
	node, mods := nodeModules(t, "ajv")
	b, err := JSONSchema()
	if err != nil {
		t.Fatal(err)
	}
	good := asWritten(t, "../examples/a4-training.yaml").(map[string]any)
	var docs []any
	docs = append(docs, asWritten(t, "../examples/seed.jsonc"), good)
	for _, entry := range [][2]string{
		{"PreemptType", "preempt/qos"}, {"PreemptType", "preempt/bogus"}, {"preempttype", "preempt/qos"}, {"PreemptType", "PREEMPT/QOS"},
		{"PriorityTyep", "priority/multifactor"}, {"ClusterName", "x"}, {"PreemptMode", "REQUEUE,GANG"}, {"PreemptMode", "REQUEUE,BOGUS"},
		{"MaxJobCount", "10k0"}, {"MaxJobCount", "0x10"}, {"PreemptExemptTime", "1-00:00:00"}, {"PreemptExemptTime", "10m"},
		{"TaskPlugin", "affinity,cgroup"}, {"TaskPlugin", "TASK/affinity"}, {"SelectType", "select/cons_tres"}, {"UsePAM", "maybe"},
		{"PriorityTier", "1"}, {"DebugFlags", "Backfill,Gres"}, {"SlurmctldDebug", "7"}, {"SlurmctldDebug", "10"},
	} {
		m := asWritten(t, "../examples/a4-training.yaml").(map[string]any)
		slurm(m)["config"] = map[string]any{entry[0]: entry[1]}
		docs = append(docs, m)
	}
	for _, breakIt := range []func(m map[string]any){
		func(m map[string]any) { m["nodePoolz"] = []any{} },
		func(m map[string]any) { delete(m, "nodePools") },
		func(m map[string]any) { pool(m)["provisioningModel"] = "SPOTT" },
		func(m map[string]any) { pool(m)["provisioning_model"] = "SPOTT" },
		func(m map[string]any) { slurm(m)["config"] = map[string]any{"preempttype": "preempt/bogus"} },
		func(m map[string]any) { pool(m)["scalingSpec"].(map[string]any)["maxNodeCount"] = "4" },
		func(m map[string]any) { m["labels"] = map[string]any{"team": "ML"} },
		func(m map[string]any) { m["labels"] = map[string]any{"équipe": "ml"} },
	} {
		m := asWritten(t, "../examples/a4-training.yaml").(map[string]any)
		breakIt(m)
		docs = append(docs, m)
	}
	verdicts, warnings := ajvVerdicts(t, node, mods, b, docs, "{strict: false, allErrors: true}")
	if len(warnings) > 0 {
		t.Errorf("ajv warned: %q", warnings)
	}
	sameVerdicts(t, docs, verdicts)

	// The --strict flavour, in ajv's default (strict) mode: it compiles
	// without an error or a warning, and gives the same verdicts.
	strict, err := StrictJSON(b)
	if err != nil {
		t.Fatal(err)
	}
	verdicts, warnings = ajvVerdicts(t, node, mods, strict, docs, "{}")
	if len(warnings) > 0 {
		t.Errorf("ajv in strict mode warned about the strict schema: %q", warnings)
	}
	sameVerdicts(t, docs, verdicts)
}

// ajvVerdicts compiles schema with ajv's 2020-12 validator, constructed
// with the options opts (a JavaScript object literal) and a logger that
// collects its warnings, and validates each of docs. An error compiling
// the schema fails the test.
func ajvVerdicts(t *testing.T, node, mods string, schema []byte, docs []any, opts string) (verdicts []bool, warnings []string) {
	t.Helper()
	dir := t.TempDir()
	input, _ := json.Marshal(map[string]any{"schema": json.RawMessage(schema), "docs": docs})
	if err := os.WriteFile(filepath.Join(dir, "in.json"), input, 0o644); err != nil {
		t.Fatal(err)
	}
	script := `
const Ajv2020 = require(process.argv[2] + "/ajv/dist/2020").default;
const input = JSON.parse(require("fs").readFileSync(process.argv[3], "utf8"));
const warnings = [];
const logger = {log() {}, warn(...a) { warnings.push(a.join(" ")); }, error(...a) { warnings.push(a.join(" ")); }};
const ajv = new Ajv2020(Object.assign(` + opts + `, {logger}));
const validate = ajv.compile(input.schema);
console.log(JSON.stringify({verdicts: input.docs.map(d => validate(d)), warnings}));
`
	if err := os.WriteFile(filepath.Join(dir, "check.js"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, filepath.Join(dir, "check.js"), mods, filepath.Join(dir, "in.json")).CombinedOutput()
	if err != nil {
		t.Fatalf("ajv: %v\n%s", err, out)
	}
	var res struct {
		Verdicts []bool
		Warnings []string
	}
	if err := json.Unmarshal(out, &res); err != nil || len(res.Verdicts) != len(docs) {
		t.Fatalf("ajv printed %s (%v)", out, err)
	}
	return res.Verdicts, res.Warnings
}

// sameVerdicts checks ajv's verdicts on docs against
// santhosh-tekuri/jsonschema's with the exported schema.
func sameVerdicts(t *testing.T, docs []any, verdicts []bool) {
	t.Helper()
	s := compileJSONSchema(t)
	valid := 0
	for i, d := range docs {
		want := s.Validate(d) == nil
		if verdicts[i] != want {
			t.Errorf("document %d: ajv says valid=%v, santhosh-tekuri/jsonschema valid=%v", i, verdicts[i], want)
		}
		if want {
			valid++
		}
	}
	if valid < 5 || valid > len(docs)-10 {
		t.Errorf("%d of %d documents valid: the cases no longer test both ways", valid, len(docs))
	}
}

// lspClient speaks the language server protocol over a server's stdio.
type lspClient struct {
	t    *testing.T
	in   io.Writer
	out  *bufio.Reader
	next int
	// diagnostics holds the last publishDiagnostics per document.
	diagnostics map[string][]any
	log         []string
	// settings answer the server's workspace/configuration requests, by
	// section, as an editor's settings would.
	settings map[string]any
}

func (c *lspClient) send(msg map[string]any) {
	msg["jsonrpc"] = "2.0"
	b, _ := json.Marshal(msg)
	fmt.Fprintf(c.in, "Content-Length: %d\r\n\r\n%s", len(b), b)
}

func (c *lspClient) read() map[string]any {
	length := 0
	for {
		line, err := c.out.ReadString('\n')
		if err != nil {
			c.t.Fatalf("language server: %v", err)
		}
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			length, _ = strconv.Atoi(v)
		}
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(c.out, body); err != nil {
		c.t.Fatalf("language server: %v", err)
	}
	var msg map[string]any
	if err := json.Unmarshal(body, &msg); err != nil {
		c.t.Fatalf("language server sent %s: %v", body, err)
	}
	return msg
}

// call sends a request and returns its result, answering the server's
// own requests and keeping its notifications meanwhile.
func (c *lspClient) call(method string, params any) any {
	c.next++
	id := c.next
	c.send(map[string]any{"id": id, "method": method, "params": params})
	for {
		msg := c.read()
		if m, ok := msg["method"].(string); ok {
			if msg["id"] != nil { // a request from the server
				c.log = append(c.log, "request "+m+" "+fmt.Sprint(msg["params"]))
				var result any
				if m == "workspace/configuration" {
					items, _ := msg["params"].(map[string]any)["items"].([]any)
					res := make([]any, len(items))
					for i, it := range items {
						res[i] = map[string]any{}
						if section, _ := it.(map[string]any)["section"].(string); c.settings[section] != nil {
							res[i] = c.settings[section]
						}
					}
					result = res
				}
				c.send(map[string]any{"id": msg["id"], "result": result})
			} else if m == "window/logMessage" || m == "window/showMessage" {
				c.log = append(c.log, fmt.Sprint(msg["params"]))
			} else if m == "textDocument/publishDiagnostics" {
				p := msg["params"].(map[string]any)
				c.diagnostics[p["uri"].(string)], _ = p["diagnostics"].([]any)
			}
			continue
		}
		if n, _ := msg["id"].(float64); int(n) == id {
			if e := msg["error"]; e != nil {
				c.t.Fatalf("%s: %v", method, e)
			}
			return msg["result"]
		}
	}
}

// TestYAMLLanguageServer drives yaml-language-server as VS Code does, with
// the README's settings (yaml.schemas) and with its first-line form:
// completion after "PreemptType: " offers the three preemption plugins,
// completion of a key in config offers each key once, hover on a key
// shows its description, and a bad value is flagged.
func TestYAMLLanguageServer(t *testing.T) {
	node, mods := nodeModules(t, "yaml-language-server")
	b, err := JSONSchema()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	schemaFile := filepath.Join(dir, ".vscode", "cluster.schema.json")
	if err := os.MkdirAll(filepath.Dir(schemaFile), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(schemaFile, b, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, filepath.Join(mods, "yaml-language-server", "bin", "yaml-language-server"), "--stdio")
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		in.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
		}
	}()
	timer := time.AfterFunc(60*time.Second, func() { _ = cmd.Process.Kill() })
	defer timer.Stop()
	// The VS Code recipe of the README: .vscode/settings.json maps the
	// schema to the specs under clusters/.
	settings := map[string]any{"yaml": map[string]any{
		"schemas":    map[string]any{".vscode/cluster.schema.json": []string{"clusters/*.yaml"}},
		"completion": true, "hover": true, "validate": true,
	}}
	c := &lspClient{t: t, in: in, out: bufio.NewReader(out), diagnostics: map[string][]any{}, settings: settings}
	c.call("initialize", map[string]any{
		"processId": nil, "rootUri": "file://" + dir,
		"workspaceFolders": []any{map[string]any{"uri": "file://" + dir, "name": "specs"}},
		"capabilities": map[string]any{"workspace": map[string]any{"configuration": true, "didChangeConfiguration": map[string]any{"dynamicRegistration": false}}, "textDocument": map[string]any{
			"completion": map[string]any{"completionItem": map[string]any{"snippetSupport": false}},
			"hover":      map[string]any{"contentFormat": []string{"markdown", "plaintext"}},
		}},
	})
	c.send(map[string]any{"method": "initialized", "params": map[string]any{}})
	c.send(map[string]any{"method": "workspace/didChangeConfiguration", "params": map[string]any{"settings": settings}})
	text := "# a spec\norchestratorSpec:\n  slurmSpec:\n    config:\n      PreemptMode: REQUEUE\n      SelectType: select/bogus\n      PreemptType: \n      ClusterName: x\n"
	uri := "file://" + filepath.Join(dir, "clusters", "train.yaml")
	c.send(map[string]any{"method": "textDocument/didOpen", "params": map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "yaml", "version": 1, "text": text}}})
	labels := func(res any) []string {
		var items []any
		switch r := res.(type) {
		case map[string]any:
			items, _ = r["items"].([]any)
		case []any:
			items = r
		}
		var out []string
		for _, it := range items {
			out = append(out, fmt.Sprint(it.(map[string]any)["label"]))
		}
		return out
	}
	pos := func(line, char int) map[string]any {
		return map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": line, "character": char}}
	}
	// Diagnostics arrive asynchronously, once the server has pulled the
	// settings and read the schema; wait for them before asking more.
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) && len(c.diagnostics[uri]) == 0 {
		c.call("textDocument/hover", pos(4, 8))
		time.Sleep(200 * time.Millisecond)
	}
	db, _ := json.Marshal(c.diagnostics[uri])
	if !strings.Contains(string(db), `"line":5`) || !strings.Contains(string(db), "SelectType takes one of its plugins in Slurm 26.05") {
		t.Errorf("no diagnostic that says what SelectType takes: %s", db)
	}
	if !strings.Contains(string(db), "ClusterName is reserved: the service sets") {
		t.Errorf("no diagnostic that says why ClusterName is reserved: %s", db)
	}
	got := labels(c.call("textDocument/completion", pos(6, len("      PreemptType: "))))
	for _, want := range []string{"preempt/none", "preempt/partition_prio", "preempt/qos"} {
		if !contains(got, want) {
			t.Errorf("completion of PreemptType offers %v, not %s", got, want)
		}
	}
	if len(got) != 3 {
		t.Errorf("completion of PreemptType offers %d values, want the 3 plugins: %v", len(got), got)
	}
	// A new key in config: each key once, in its canonical spelling.
	text2 := strings.Replace(text, "      PreemptType: \n", "      Prio\n", 1)
	c.send(map[string]any{"method": "textDocument/didChange", "params": map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{map[string]any{"text": text2}}}})
	keys := labels(c.call("textDocument/completion", pos(6, len("      Prio"))))
	count := map[string]int{}
	for _, k := range keys {
		count[strings.ToLower(k)]++
	}
	if !contains(keys, "PriorityType") || count["prioritytype"] != 1 {
		t.Errorf("key completion offers PriorityType %d times (want once): %d keys", count["prioritytype"], len(keys))
	}
	hover := c.call("textDocument/hover", pos(4, 8))
	hb, _ := json.Marshal(hover)
	if !strings.Contains(string(hb), "preempted job") {
		t.Errorf("hover on PreemptMode does not show its description: %s", hb)
	}
	// The first-line form, for a spec the settings do not map.
	other := "file://" + filepath.Join(dir, "other.yaml")
	c.send(map[string]any{"method": "textDocument/didOpen", "params": map[string]any{"textDocument": map[string]any{
		"uri": other, "languageId": "yaml", "version": 1,
		"text": "# yaml-language-server: $schema=.vscode/cluster.schema.json\norchestratorSpec:\n  slurmSpec:\n    config:\n      PreemptType: \n"}}})
	got = labels(c.call("textDocument/completion", map[string]any{"textDocument": map[string]any{"uri": other}, "position": map[string]any{"line": 4, "character": len("      PreemptType: ")}}))
	if len(got) != 3 || !contains(got, "preempt/qos") {
		t.Errorf("with the modeline, completion of PreemptType offers %v", got)
	}
	if t.Failed() {
		t.Logf("server stderr:\n%s\nserver log:\n%s", stderr.String(), strings.Join(c.log, "\n"))
	}
}
