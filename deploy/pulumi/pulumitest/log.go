package pulumitest

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"

	"github.com/slurmspec/slurmspec/deploy/pulumi/pulumitest/fakegcp"
)

// Calls reads the provider test double's log. Calls returns every call;
// Env.Since returns those after a mark from Env.Mark.
func (e *Env) Calls(t *testing.T) []fakegcp.Call {
	t.Helper()
	f, err := os.Open(e.Log)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var calls []fakegcp.Call
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var c fakegcp.Call
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("provider log: %v", err)
		}
		calls = append(calls, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return calls
}

// Mark returns the number of calls logged so far.
func (e *Env) Mark(t *testing.T) int { return len(e.Calls(t)) }

// Since returns the calls logged after mark, optionally only those of the
// given methods.
func (e *Env) Since(t *testing.T, mark int, methods ...string) []fakegcp.Call {
	t.Helper()
	all := e.Calls(t)
	if mark > len(all) {
		mark = len(all)
	}
	var out []fakegcp.Call
	for _, c := range all[mark:] {
		if len(methods) == 0 || contains(methods, c.Method) {
			out = append(out, c)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}
