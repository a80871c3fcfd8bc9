package buildinfo

import (
	"runtime/debug"
	"testing"
)

func TestOf(t *testing.T) {
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	const rev = "0123456789abcdef0123456789abcdef01234567"
	for _, tc := range []struct {
		name   string
		bi     *debug.BuildInfo
		ok     bool
		module string
		line   string
	}{
		{name: "no build info", ok: false, module: "(devel)", line: "(devel)"},
		{name: "go install at a tag", ok: true,
			bi:     &debug.BuildInfo{Main: debug.Module{Path: "github.com/slurmspec/slurmspec", Version: "v0.3.0", Sum: "h1:x"}},
			module: "v0.3.0", line: "v0.3.0"},
		{name: "clone at a tag", ok: true,
			bi:     &debug.BuildInfo{Main: debug.Module{Version: "v0.3.0"}, Settings: vcs(rev, "false")},
			module: "v0.3.0", line: "v0.3.0 (commit 0123456789ab)"},
		{name: "dirty clone between tags", ok: true,
			bi:     &debug.BuildInfo{Main: debug.Module{Version: "v0.3.1-0.20261201162900-0123456789ab+dirty"}, Settings: vcs(rev, "true")},
			module: "v0.3.1-0.20261201162900-0123456789ab+dirty", line: "v0.3.1-0.20261201162900-0123456789ab+dirty (commit 0123456789ab, modified)"},
		{name: "no VCS stamping", ok: true,
			bi:     &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}},
			module: "(devel)", line: "(devel)"},
		{name: "empty version", ok: true, bi: &debug.BuildInfo{}, module: "(devel)", line: "(devel)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := Of(tc.bi, tc.ok)
			if v.Module != tc.module {
				t.Errorf("module version %q, want %q", v.Module, tc.module)
			}
			if got := v.String(); got != tc.line {
				t.Errorf("line %q, want %q", got, tc.line)
			}
		})
	}
}

// TestStamp: a version stamped at link time (make release) is the module
// version whatever the toolchain recorded; unset, the recorded one stays.
func TestStamp(t *testing.T) {
	devel := Build{Module: "(devel)"}
	if got := stamp(devel, "v1.2.3").String(); got != "v1.2.3" {
		t.Errorf("stamped over (devel): %q, want v1.2.3", got)
	}
	vcs := Build{Module: "v1.2.3", Revision: "0123456789abcdef0123456789abcdef01234567"}
	if got := stamp(vcs, "v1.2.3").String(); got != "v1.2.3 (commit 0123456789ab)" {
		t.Errorf("stamped with VCS settings: %q", got)
	}
	if got := stamp(devel, "").String(); got != "(devel)" {
		t.Errorf("not stamped: %q, want (devel)", got)
	}
}
