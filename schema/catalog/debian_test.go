package catalog

import (
	"slices"
	"testing"
)

// TestLabVersions: the lab runs the host's bookworm 22.05 and the trixie
// and forky root file systems (data/releases.tsv).
func TestLabVersions(t *testing.T) {
	if got := LabVersions(); !slices.Equal(got, []Version{V2205, V2411, V2605}) {
		t.Errorf("LabVersions() = %v", got)
	}
	if d := V2205.Debian(); d != (Debian{Suite: "bookworm", Lab: LabHost}) {
		t.Errorf("22.05: %+v", d)
	}
	if d := V2605.Debian(); d != (Debian{Suite: "forky", Lab: LabRootFS, Debootstrap: "sid"}) {
		t.Errorf("26.05: %+v", d)
	}
	if V2302.Debian() != (Debian{}) || Version(0).Debian() != (Debian{}) {
		t.Error("a series no suite ships has Debian facts")
	}
}
