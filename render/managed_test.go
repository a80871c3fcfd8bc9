package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/compiler/managed"
	"github.com/slurmspec/slurmspec/lint/pipeline/pipelinetest"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// TestRenderRefusesManagedKeys renders specs that set managed keys without
// running lint (as --disable reserved-key once allowed): the renderer
// itself refuses each, in every config map, in any case (#15.3).
func TestRenderRefusesManagedKeys(t *testing.T) {
	base := func(global, part, nodeSet string) string {
		return `
nodePools:
- {id: cpu, machineSpec: {machineType: n2-standard-8}, scalingSpec: {maxNodeCount: 2}}
- {id: login, machineSpec: {machineType: n2-standard-8}, scalingSpec: {maxNodeCount: 1}}
orchestratorSpec:
  slurmSpec:
    loginNodePoolId: login
    homeDirectoryStorage: projects/acme-prod/locations/us-central1-a/instances/home
    partitions: [{id: cpu, nodePoolIds: [cpu], config: {` + part + `}}]
    nodeSets: [{nodePoolId: cpu, config: {` + nodeSet + `}}]
    config: {` + global + `}
`
	}
	for _, c := range []struct{ name, global, part, nodeSet, key string }{
		{"SlurmUser", "SlurmUser: root", "", "", "SlurmUser"},
		{"lower case", "slurmuser: root", "", "", "slurmuser"},
		{"Prolog", "Prolog: /tmp/evil.sh", "", "", "Prolog"},
		{"second controller", "SlurmctldHost: evil", "", "", "SlurmctldHost"},
		{"alias of SlurmctldHost", "ControlMachine: evil", "", "", "ControlMachine"},
		{"alias of CredType", "CryptoType: crypto/none", "", "", "CryptoType"},
		{"Include", "Include: /etc/passwd", "", "", "Include"},
		{"in a partition", "", "AuthType: auth/none", "", "AuthType"},
		{"in a node set", "", "", "ResumeProgram: /bin/evil", "ResumeProgram"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cl := pipelinetest.Compile(t, "s.yaml", base(c.global, c.part, c.nodeSet))
			set, l := Render(cl, Options{SlurmVersion: "26.05"})
			if set != nil {
				t.Fatalf("rendered:\n%s", set.Get("slurm.conf").Data)
			}
			if len(l) != 1 || l[0].Rule != RuleManaged || !strings.Contains(l[0].Message, c.key) || l[0].Pos.Line == 0 || l[0].Path == "" || l[0].Hint == "" {
				t.Errorf("diagnostics: %+v", l)
			}
		})
	}
	// The same spec without the key renders.
	cl := pipelinetest.Compile(t, "s.yaml", base("SelectTypeParameters: CR_Core_Memory", "MaxTime: \"1:00:00\"", "Weight: \"1\""))
	if set, l := Render(cl, Options{SlurmVersion: "26.05"}); len(l) > 0 || !bytes.Contains(set.Get("slurm.conf").Data, []byte("SlurmUser=slurm")) {
		t.Errorf("a clean spec did not render: %v", l)
	}
}

// TestAliasesOfManagedKeysAreManaged: every catalog key that is another
// spelling of a managed key (alias or deprecated form) is managed too, so
// the reserved-key rule and the renderer, which both read
// compiler/managed, refuse it.
func TestAliasesOfManagedKeysAreManaged(t *testing.T) {
	n := 0
	for _, s := range catalog.Scopes() {
		for _, p := range catalog.Default().Params(s) {
			target, _, _ := strings.Cut(p.Replacement, "=")
			if _, ok := managed.Lookup(target); !ok || target == "" {
				continue
			}
			n++
			if _, ok := managed.Lookup(p.Name); !ok {
				t.Errorf("%s is another spelling of the managed key %s (%v) but is not managed", p.Name, target, p.Status)
			}
		}
	}
	if n < 5 {
		t.Errorf("only %d aliases of managed keys found; the catalog lookup is broken", n)
	}
}
