package catalog

import (
	"bytes"
	"os"
	"reflect"
	"sort"
	"testing"

	"github.com/slurmspec/slurmspec/schema/catalog/internal/gencore"
)

func TestGeneratedCatalogIsCurrent(t *testing.T) {
	want, err := gencore.Generate("data")
	if err != nil {
		t.Fatalf("regenerate catalog: %v", err)
	}
	got, err := os.ReadFile(gencore.OutputFile)
	if err != nil {
		t.Fatalf("read %s: %v", gencore.OutputFile, err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is stale: run `go generate ./schema/catalog` and commit the result", gencore.OutputFile)
	}
}

func TestGenerateIsDeterministic(t *testing.T) {
	a, err := gencore.Generate("data")
	if err != nil {
		t.Fatal(err)
	}
	b, err := gencore.Generate("data")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Fatal("two generator runs differ")
	}
}

func TestCatalogInvariants(t *testing.T) {
	c := Default()
	if c.Len() != len(c.keys) || c.Len() < 300 {
		t.Fatalf("catalog has %d entries, keys %d", c.Len(), len(c.keys))
	}
	if !sort.StringsAreSorted(c.keys) {
		t.Fatal("keys are not sorted")
	}
	for i := range c.params {
		p := &c.params[i]
		if p.Kind.String() == "invalid" || p.Scope.String() == "invalid" || p.Status.String() == "invalid" {
			t.Errorf("%s: invalid kind/scope/status %v/%v/%v", p.Name, p.Kind, p.Scope, p.Status)
		}
		if p.PresentIn.Empty() || !p.FirstSeen.Valid() || p.PresentIn.First() != p.FirstSeen {
			t.Errorf("%s/%s: PresentIn %v FirstSeen %v", p.Scope, p.Name, p.PresentIn, p.FirstSeen)
		}
		if (p.RemovedIn != 0) != (p.Status == StatusRemoved) {
			t.Errorf("%s: RemovedIn %v with status %v", p.Name, p.RemovedIn, p.Status)
		}
		if i > 0 && c.keys[i] == c.keys[i-1] && c.params[i].Scope <= c.params[i-1].Scope {
			t.Errorf("%s: duplicate or unsorted scope", p.Name)
		}
	}
}

func TestLookupCaseInsensitive(t *testing.T) {
	c := Default()
	for _, name := range []string{"PriorityType", "prioritytype", "PRIORITYTYPE", "pRiOrItYtYpE"} {
		p, ok := c.Lookup(ScopeGlobal, name)
		if !ok || p.Name != "PriorityType" {
			t.Errorf("Lookup(%q) = %v, %v", name, p, ok)
		}
	}
	if _, ok := c.Lookup(ScopeGlobal, "PriorityTypes"); ok {
		t.Error("Lookup found a key that does not exist")
	}
	if _, ok := c.Lookup(ScopeGlobal, ""); ok {
		t.Error("Lookup found the empty key")
	}
}

func TestScopes(t *testing.T) {
	c := Default()
	tests := []struct {
		name string
		want []Scope
	}{
		{"PriorityTier", []Scope{ScopePartition}},
		{"prioritytier", []Scope{ScopePartition}},
		{"PriorityType", []Scope{ScopeGlobal}},
		{"Features", []Scope{ScopeNode}},
		{"Feature", []Scope{ScopeNode, ScopeNodeSet}},
		{"Weight", []Scope{ScopeNode}},
		{"State", []Scope{ScopePartition, ScopeNode, ScopeDownNodes, ScopeFrontend}},
		{"SuspendTime", []Scope{ScopeGlobal, ScopePartition, ScopeNode}},
		{"Program", []Scope{ScopePowerAction}},
		{"NoSuchKey", nil},
	}
	for _, tc := range tests {
		if got := c.ScopesOf(tc.name); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ScopesOf(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
	if _, ok := c.Lookup(ScopeGlobal, "PriorityTier"); ok {
		t.Error("PriorityTier must not be a global key")
	}
	if _, ok := c.Lookup(ScopePartition, "PriorityType"); ok {
		t.Error("PriorityType must not be a partition key")
	}
	if p, ok := c.Lookup(ScopeNode, "Weight"); !ok || p.Kind != KindUint32 {
		t.Errorf("node Weight = %v, %v", p, ok)
	}
	if got := len(c.Params(ScopePartition)); got != 47 {
		t.Errorf("partition keys = %d, want 47", got)
	}
}

func TestSuggest(t *testing.T) {
	c := Default()
	tests := []struct {
		scope      Scope
		name, want string
	}{
		{ScopeGlobal, "PriortyType", "PriorityType"},
		{ScopeGlobal, "priorityweightfairshar", "PriorityWeightFairshare"},
		{ScopeGlobal, "prioritytype", "PriorityType"},
		{ScopeGlobal, "SelectTpye", "SelectType"},
		{ScopePartition, "PriortyTier", "PriorityTier"},
		{ScopePartition, "MaxTim", "MaxTime"},
		{ScopeNode, "Featurs", "Features"},
		{ScopeGlobal, "xyzzyplugh", ""},
		{ScopeGlobal, "", ""},
	}
	for _, tc := range tests {
		if got := c.Suggest(tc.scope, tc.name); got != tc.want {
			t.Errorf("Suggest(%v, %q) = %q, want %q", tc.scope, tc.name, got, tc.want)
		}
	}
}

func TestKinds(t *testing.T) {
	c := Default()
	tests := []struct {
		scope Scope
		name  string
		want  Kind
	}{
		{ScopeGlobal, "ClusterName", KindString},
		{ScopeGlobal, "UsePAM", KindBool},
		{ScopeGlobal, "TreeWidth", KindUint16},
		{ScopeGlobal, "PriorityWeightAge", KindUint32},
		{ScopeGlobal, "DefMemPerCPU", KindUint64},
		{ScopeGlobal, "PreemptExemptTime", KindTime},
		{ScopePartition, "MaxTime", KindTime},
		{ScopeGlobal, "PriorityUsageResetPeriod", KindEnum},
		{ScopeGlobal, "AccountingStorageEnforce", KindList},
		{ScopeGlobal, "SuspendExcStates", KindList},
		{ScopeGlobal, "SelectType", KindPlugin},
		{ScopeGlobal, "Prolog", KindArray},
		{ScopeGlobal, "NodeName", KindLine},
		{ScopeGlobal, "FrontendName", KindLine},
	}
	for _, tc := range tests {
		p, ok := c.Lookup(tc.scope, tc.name)
		if !ok {
			t.Errorf("no %v key %s", tc.scope, tc.name)
			continue
		}
		if p.Kind != tc.want {
			t.Errorf("%s kind = %v, want %v", tc.name, p.Kind, tc.want)
		}
	}
	p, _ := c.Lookup(ScopeGlobal, "Prolog")
	if p.Repeatable.Has(V2311) || !p.Repeatable.Has(V2405) {
		t.Errorf("Prolog repeatable in %v, want 24.05+", p.Repeatable)
	}
}

func TestVersions(t *testing.T) {
	if got := len(Versions()); got != 8 {
		t.Fatalf("Versions() has %d entries", got)
	}
	if Newest() != V2605 || Newest().String() != "26.05" || !V2205.Before(V2302) || V2605.Compare(V2205) != 1 {
		t.Fatal("version ordering is wrong")
	}
	good := map[string]Version{
		"22.05": V2205, "22.05.8": V2205, "slurm-22-05-8-1": V2205, "23.11.10": V2311,
		"v24.05.1": V2405, "slurm-26-05-3-1": V2605, " 25.11 ": V2511, "SLURM-25-05-0-1": V2505,
	}
	for in, want := range good {
		if got, err := ParseVersion(in); err != nil || got != want {
			t.Errorf("ParseVersion(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "21.08", "27.05", "foo", "22.5", "22.05x", "2205"} {
		if got, err := ParseVersion(in); err == nil {
			t.Errorf("ParseVersion(%q) = %v, want an error", in, got)
		}
	}
	s := VersionSetOf(V2205, V2302, V2505, V2511, V2605)
	if got := s.String(); got != "22.05-23.02, 25.05+" {
		t.Errorf("VersionSet.String() = %q", got)
	}
	if VersionSet(0).String() != "none" || AllVersions.String() != "22.05+" {
		t.Error("VersionSet.String() edge cases")
	}
}

func TestStatusIn(t *testing.T) {
	c := Default()
	tests := []struct {
		scope  Scope
		name   string
		v      Version
		status Status
		msg    string
	}{
		{ScopeGlobal, "TLSType", V2205, StatusNotAdded, "unknown in 22.05 (added in 24.05)"},
		{ScopeGlobal, "TLSType", V2405, StatusActive, "active"},
		{ScopeGlobal, "PreemptParameters", V2205, StatusNotAdded, "unknown in 22.05 (added in 23.02)"},
		{ScopeGlobal, "CoreSpecPlugin", V2311, StatusActive, "active"},
		{ScopeGlobal, "CoreSpecPlugin", V2405, StatusDefunct, "defunct since 24.05 (accepted, logged as an error and ignored)"},
		{ScopeGlobal, "ExtSensorsType", V2605, StatusDefunct, "defunct since 23.11 (accepted, logged as an error and ignored)"},
		{ScopeGlobal, "JobContainerType", V2511, StatusDeprecated, "deprecated since 25.11: use NamespaceType"},
		{ScopeGlobal, "ControlMachine", V2205, StatusDeprecated, "deprecated: use SlurmctldHost"},
		{ScopeGlobal, "CryptoType", V2605, StatusAlias, "alias of CredType"},
		{ScopeGlobal, "FastSchedule", V2205, StatusRemovedFatal, "accepted but fatal: use SlurmdParameters=config_overrides"},
		{ScopeGlobal, "AccountingStorageLoc", V2505, StatusRemovedFatal, "accepted but fatal"},
		{ScopeGlobal, "AccountingStorageLoc", V2511, StatusRemoved, "unknown in 25.11 (removed in 25.11)"},
		{ScopeGlobal, "SlurmctldPlugstack", V2205, StatusActive, "active"},
		{ScopeGlobal, "SlurmctldPlugstack", V2605, StatusRemoved, "unknown in 26.05 (removed in 23.02)"},
		{ScopeGlobal, "LaunchType", V2302, StatusUnused, "accepted but never read since 23.02"},
		{ScopeGlobal, "NodeName", V2205, StatusLine, "line key"},
		{ScopePartition, "ExclusiveUser", V2511, StatusActive, "active"},
		{ScopePartition, "ExclusiveUser", V2605, StatusDeprecated, "deprecated since 26.05: use Exclusive=USER"},
		{ScopeFrontend, "AllowGroups", V2411, StatusActive, "active"},
		{ScopeFrontend, "AllowGroups", V2505, StatusRemoved, "unknown in 25.05 (removed in 25.05)"},
	}
	for _, tc := range tests {
		p, ok := c.Lookup(tc.scope, tc.name)
		if !ok {
			t.Errorf("no %v key %s", tc.scope, tc.name)
			continue
		}
		st := p.StatusIn(tc.v)
		if st.Status != tc.status || st.String() != tc.msg {
			t.Errorf("%s.StatusIn(%v) = %v %q, want %v %q", tc.name, tc.v, st.Status, st.String(), tc.status, tc.msg)
		}
		if st.Known() != tc.status.Known() {
			t.Errorf("%s: Known() mismatch", tc.name)
		}
	}
	p, _ := c.Lookup(ScopeGlobal, "TLSType")
	if st := p.StatusIn(0); st.Version != Newest() || st.Severity() != SeverityWarning || st.Problem() {
		t.Errorf("StatusIn(0) = %+v", st)
	}
	if st := p.StatusIn(V2205); st.Severity() != SeverityError || !st.Problem() {
		t.Errorf("TLSType in 22.05 must be an error: %+v", st)
	}
}
