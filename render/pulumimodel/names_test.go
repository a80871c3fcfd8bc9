package pulumimodel

import (
	"encoding/json"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// TestStateReadBack: inputs as a bridged provider's Check records them in
// state ("__defaults" at every level, pluralised list names) read back as
// the request body, and the body goes out under the provider's names.
func TestStateReadBack(t *testing.T) {
	body := map[string]any{
		"displayName": "x",
		"lustreExportConfig": map[string]any{
			"destinationBucket": "b",
			"daysOfWeek":        []any{"MONDAY"},
		},
		"nodePools": []any{map[string]any{"id": "a", "machineSpec": map[string]any{"machineType": "n2-standard-8"}}},
	}
	sent := ToPulumi(body)
	lec := sent["lustreExportConfig"].(map[string]any)
	if _, ok := lec["daysOfWeeks"]; !ok || lec["daysOfWeek"] != nil {
		t.Errorf("sent lustreExportConfig = %v, want daysOfWeeks", lec)
	}
	if _, ok := body["lustreExportConfig"].(map[string]any)["daysOfWeek"]; !ok {
		t.Error("ToPulumi changed its argument")
	}

	recorded := map[string]any{
		"__defaults":                []any{},
		"project":                   "acme-ml",
		"region":                    "us-central1",
		"modelDevelopmentClusterId": "c",
		"deletionPolicy":            "PREVENT",
		"displayName":               "x",
		"lustreExportConfig": map[string]any{
			"__defaults":        []any{"startTime"},
			"destinationBucket": "b",
			"daysOfWeeks":       []any{"MONDAY"},
		},
		"nodePools": []any{map[string]any{"__defaults": []any{}, "id": "a", "machineSpec": map[string]any{"__defaults": []any{}, "machineType": "n2-standard-8"}}},
	}
	spec, err := SpecFromInputs(recorded)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(spec), "__") || strings.Contains(string(spec), "daysOfWeeks") || strings.Contains(string(spec), "deletionPolicy") {
		t.Errorf("spec keeps provider-only keys:\n%s", spec)
	}
	var got map[string]any
	if err := json.Unmarshal(spec, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"name": "projects/acme-ml/locations/us-central1/modelDevelopmentClusters/c"}
	for k, v := range body {
		want[k] = v
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read back\n%v\nwant\n%v", got, want)
	}
}

func TestPaths(t *testing.T) {
	if got := PulumiPath("lustreExportConfig.daysOfWeek"); got != "lustreExportConfig.daysOfWeeks" {
		t.Errorf("PulumiPath = %s", got)
	}
	for _, p := range []string{"lustreExportConfig.daysOfWeek", "nodePools[].id", "labels"} {
		if got := RESTPath(PulumiPath(p)); got != p {
			t.Errorf("RESTPath(PulumiPath(%s)) = %s", p, got)
		}
	}
}

// TestResourceNamesStayDistinct: the network's firewalls, router and NAT
// are named base-role; past 63 characters the base is cut with a hash of
// the whole base, so the roles of one cluster and two clusters whose long
// names share a prefix never collide (a plain cut at 63 dropped the role).
func TestResourceNamesStayDistinct(t *testing.T) {
	gce := regexp.MustCompile(`^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$`)
	roles := []string{"internal", "iap-ssh", "router", "nat"}
	long := strings.Repeat("a", 40) + "-net-" + strings.Repeat("b", 30)
	bases := []string{"net-c1", long + "-cluster-one", long + "-cluster-two", strings.Repeat("x", 63)}
	seen := map[string]string{}
	for _, base := range bases {
		for _, role := range roles {
			got := resourceName(base, role)
			if !gce.MatchString(got) {
				t.Errorf("resourceName(%q, %q) = %q: not a Compute Engine name", base, role, got)
			}
			if !strings.HasSuffix(got, "-"+role) {
				t.Errorf("resourceName(%q, %q) = %q: lost its role", base, role, got)
			}
			if prev, dup := seen[got]; dup {
				t.Errorf("resourceName(%q, %q) = %q, the same as for %s", base, role, got, prev)
			}
			seen[got] = base + "/" + role
		}
	}
	if got := resourceName("net-c1", "nat"); got != "net-c1-nat" {
		t.Errorf("a short name changed: %q", got)
	}
}
