package gencore

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// copyData copies ../../data to a temporary directory, with releases.tsv
// replaced by releases.
func copyData(t *testing.T, releases string) string {
	t.Helper()
	dir := t.TempDir()
	files, err := filepath.Glob("../../data/*")
	if err != nil || len(files) == 0 {
		t.Fatalf("no data: %v", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Base(f) == "releases.tsv" && releases != "" {
			b = []byte(releases)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestANewReleaseIsOneRow: a row added to releases.tsv is a new Version
// constant and label in the generated catalog.
func TestANewReleaseIsOneRow(t *testing.T) {
	cur, err := os.ReadFile("../../data/releases.tsv")
	if err != nil {
		t.Fatal(err)
	}
	src, err := Generate(copyData(t, string(cur)+"27.05\t\t\t\tnext\n"))
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	for _, want := range []string{"\n\tV2705 ", "// 27.05 (next)\n)", `"26.05", "27.05"}`} {
		if !strings.Contains(string(src), want) {
			t.Errorf("the catalog does not hold %q", want)
		}
	}
}

// TestReleasesRefused: the release list is checked, with its Debian
// columns.
func TestReleasesRefused(t *testing.T) {
	const deb = "series\tdebian\tlab\tdebootstrap\tnote\n"
	for name, tc := range map[string]struct{ tsv, want string }{
		"out of order": {"series\tnote\n22.05\t\n26.05\t\n24.11\t\n", "does not come after 26.05"},
		"bad label":    {"series\tnote\n22.5\t\n", "not written as YY.MM"},
		"empty":        {"series\tnote\n", "lists no series"},
		"unknown":      {"series\tnote\n22.05\t\n", `unknown series "23.02"`},
		"too many": {"series\tnote\n" + func() string {
			var b strings.Builder
			for i := 10; i < 27; i++ {
				b.WriteString(string(rune('0'+i/10)) + string(rune('0'+i%10)) + ".05\t\n")
			}
			return b.String()
		}(), "VersionSet holds 16"},
		"lab without suite": {deb + "22.05\t\thost\t\t\n", "no Debian suite ships it"},
		"unknown lab":       {deb + "22.05\tbookworm\tchroot\t\t\n", `lab "chroot"`},
		"rootfs unbuilt":    {deb + "22.05\tbookworm\trootfs\t\t\n", "needs the debootstrap script"},
		"host built":        {deb + "22.05\tbookworm\thost\tbookworm\t\n", "builds no root file system"},
		"two hosts":         {deb + "22.05\tbookworm\thost\t\t\n23.02\ttrixie\thost\t\t\n", "the host runs one Slurm"},
		"suite twice":       {deb + "22.05\tbookworm\t\t\t\n23.02\tbookworm\t\t\t\n", "the one Debian bookworm ships"},
		"bad suite":         {deb + "22.05\tBook worm\t\t\t\n", "not a Debian suite"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Generate(copyData(t, tc.tsv))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Generate = %v, want an error with %q", err, tc.want)
			}
		})
	}
}

// TestArgRangeLit: overrides.tsv's arg_range settings and their mistakes.
func TestArgRangeLit(t *testing.T) {
	g := &generator{}
	got, err := g.argRangeLit("1..10800 also=-1 parse=strtol fatal unit=minutes why=slurmctld exits, twice")
	want := `{Min: 1, Max: 10800, Parse: ParseStrtol, Fatal: true, Unit: "minutes", Also: []int64{-1}, Why: "slurmctld exits, twice"}`
	if err != nil || got != want {
		t.Errorf("got %s, %v; want %s", got, err, want)
	}
	for _, bad := range []string{"", "5", "5..1", "1..x", "1..2 parse=atol", "1..2 also=x", "1..2 nosuch"} {
		if _, err := g.argRangeLit(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
