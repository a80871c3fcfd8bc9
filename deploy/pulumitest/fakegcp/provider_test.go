package fakegcp

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/slurmspec/slurmspec/render/pulumimodel"
)

func TestSchema(t *testing.T) {
	data, err := Schema()
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Name, Version string
		Resources     map[string]struct {
			InputProperties map[string]any
			RequiredInputs  []string
			Properties      map[string]any
		}
		Types map[string]any
	}
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	if s.Name != "gcp" || s.Version != pulumimodel.ProviderVersion {
		t.Errorf("package %s %s", s.Name, s.Version)
	}
	c := s.Resources[pulumimodel.ClusterType]
	if want := []string{"modelDevelopmentClusterId", "nodePools", "orchestratorSpec", "project", "region"}; !reflect.DeepEqual(c.RequiredInputs, want) {
		t.Errorf("cluster required inputs %v, want %v", c.RequiredInputs, want)
	}
	if c.Properties["name"] == nil || c.InputProperties["name"] != nil {
		t.Error("name must be an output of the cluster, not an input")
	}
	if s.Resources[pulumimodel.FilestoreType].InputProperties["fileShares"] == nil {
		t.Error("no Filestore fileShares")
	}
	if s.Types["gcp:vertex/AiModelDevelopmentClusterSlurmSpec:AiModelDevelopmentClusterSlurmSpec"] == nil {
		t.Errorf("no slurmSpec type among %d types", len(s.Types))
	}
}
