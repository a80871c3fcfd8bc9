package localslurm

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/slurmspec/slurmspec/lab/localslurm/slurmtest"
	"github.com/slurmspec/slurmspec/schema/catalog"
)

// pluginsTSV is the catalog's list of the plugin libraries each release's
// Debian packages ship; the generator turns it into EnumValue.NotShipped
// and EnumValue.Package.
const pluginsTSV = "../../schema/catalog/data/debian_plugins.tsv"

// pluginRow is one row of debian_plugins.tsv: a plugin library that a
// Debian package (pkg is "name=version") installs for a release series.
type pluginRow struct{ series, pkg, lib string }

func (r pluginRow) String() string { return r.series + "\t" + r.pkg + "\t" + r.lib }

// readPluginTSV reads debian_plugins.tsv, refusing a malformed row, a
// series the harness does not know and a library listed twice for one
// series.
func readPluginTSV(p string) ([]pluginRow, error) {
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, fmt.Errorf("read plugin list: %w", err)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) == 0 || lines[0] != "series\tdebian_package\tlibrary" {
		return nil, fmt.Errorf("%s:1: header is not series, debian_package, library", p)
	}
	var rows []pluginRow
	seen := map[string]int{}
	for i, l := range lines[1:] {
		f := strings.Split(l, "\t")
		if len(f) != 3 || !strings.Contains(f[1], "=") || !strings.HasSuffix(f[2], ".so") {
			return nil, fmt.Errorf("%s:%d: %q is not <series> <package>=<version> <library>.so", p, i+2, l)
		}
		if !slices.Contains(Releases(), f[0]) {
			return nil, fmt.Errorf("%s:%d: series %s is not one the harness runs (%s)", p, i+2, f[0], strings.Join(Releases(), ", "))
		}
		if at, dup := seen[f[0]+" "+f[2]]; dup {
			return nil, fmt.Errorf("%s:%d: %s %s is listed on line %d too", p, i+2, f[0], f[2], at)
		}
		seen[f[0]+" "+f[2]] = i + 2
		rows = append(rows, pluginRow{f[0], f[1], f[2]})
	}
	return rows, nil
}

// installedPackages reads a dpkg status file: the version of every
// package whose status is "install ok installed", by name.
func installedPackages(statusFile string) (map[string]string, error) {
	f, err := os.Open(statusFile)
	if err != nil {
		return nil, fmt.Errorf("dpkg status: %w", err)
	}
	defer f.Close()
	out := map[string]string{}
	var name, version, status string
	flush := func() {
		if name != "" && status == "install ok installed" {
			out[name] = version
		}
		name, version, status = "", "", ""
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		l := sc.Text()
		switch {
		case l == "":
			flush()
		case strings.HasPrefix(l, "Package: "):
			name = strings.TrimPrefix(l, "Package: ")
		case strings.HasPrefix(l, "Version: "):
			version = strings.TrimPrefix(l, "Version: ")
		case strings.HasPrefix(l, "Status: "):
			status = strings.TrimPrefix(l, "Status: ")
		}
	}
	flush()
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("dpkg status %s: %w", statusFile, err)
	}
	return out, nil
}

// shippedPlugins lists the plugin libraries (*.so) in root's Slurm plugin
// directories (/usr/lib/<triplet>/slurm-wlm) as rows of series, each with
// the installed Debian package that owns it (from dpkg's file lists; pkg
// is "" for a file no package owns). missing names the libraries a
// package's file list has in a plugin directory that are not on disk.
func shippedPlugins(root, series string) (rows []pluginRow, missing []string, err error) {
	usrLib, err := rootPath(root, "/usr/lib")
	if err != nil {
		return nil, nil, fmt.Errorf("%s: /usr/lib: %w", root, err)
	}
	dirs, _ := filepath.Glob(filepath.Join(usrLib, "*-linux-gnu*", "slurm-wlm"))
	if len(dirs) == 0 {
		return nil, nil, fmt.Errorf("%s: no Slurm plugin directory /usr/lib/*-linux-gnu*/slurm-wlm", root)
	}
	inRoot := map[string]string{} // plugin directory inside root -> on the host
	for _, d := range dirs {
		inRoot["/usr/lib/"+filepath.Base(filepath.Dir(d))+"/slurm-wlm"] = d
	}
	dpkg, err := rootPath(root, "/var/lib/dpkg")
	if err != nil {
		return nil, nil, fmt.Errorf("%s: /var/lib/dpkg: %w", root, err)
	}
	installed, err := installedPackages(filepath.Join(dpkg, "status"))
	if err != nil {
		return nil, nil, err
	}
	lists, err := os.ReadDir(filepath.Join(dpkg, "info"))
	if err != nil {
		return nil, nil, fmt.Errorf("dpkg file lists: %w", err)
	}
	owner := map[string]string{} // library path inside root -> "package=version"
	for _, e := range lists {
		pkg, ok := strings.CutSuffix(e.Name(), ".list")
		if !ok || !e.Type().IsRegular() {
			continue
		}
		pkg, _, _ = strings.Cut(pkg, ":") // multi-arch: name:arch.list
		version, ok := installed[pkg]
		if !ok {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dpkg, "info", e.Name()))
		if err != nil {
			return nil, nil, fmt.Errorf("dpkg file list: %w", err)
		}
		for _, p := range strings.Split(string(data), "\n") {
			if _, ok := inRoot[path.Dir(p)]; ok && strings.HasSuffix(p, ".so") {
				owner[p] = pkg + "=" + version
			}
		}
	}
	for d, host := range inRoot {
		entries, err := os.ReadDir(host)
		if err != nil {
			return nil, nil, fmt.Errorf("plugin directory: %w", err)
		}
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".so") {
				rows = append(rows, pluginRow{series, owner[path.Join(d, e.Name())], e.Name()})
			}
		}
	}
	for p, pkg := range owner {
		if _, err := os.Lstat(filepath.Join(inRoot[path.Dir(p)], path.Base(p))); errors.Is(err, fs.ErrNotExist) {
			missing = append(missing, p+" ("+pkg+")")
		}
	}
	slices.SortFunc(rows, func(a, b pluginRow) int { return strings.Compare(a.lib, b.lib) })
	slices.Sort(missing)
	return rows, missing, nil
}

// diffPlugins compares one series' rows of debian_plugins.tsv with the
// libraries its packages really install, and returns the edits that make
// the list right, one line each.
func diffPlugins(listed, shipped []pluginRow) []string {
	byLib := func(rows []pluginRow) map[string]pluginRow {
		m := map[string]pluginRow{}
		for _, r := range rows {
			m[r.lib] = r
		}
		return m
	}
	want, got := byLib(listed), byLib(shipped)
	var libs []string
	for l := range want {
		libs = append(libs, l)
	}
	for l := range got {
		if _, ok := want[l]; !ok {
			libs = append(libs, l)
		}
	}
	slices.Sort(libs)
	var out []string
	for _, l := range libs {
		w, listedOK := want[l]
		g, realOK := got[l]
		switch {
		case !realOK:
			out = append(out, "remove "+w.String()+" (no such file in the plugin directory)")
		case g.pkg == "":
			out = append(out, "no Debian package owns "+l+" in the plugin directory (listed as "+orNone(w.pkg)+")")
		case !listedOK:
			out = append(out, "add    "+g.String())
		case g.pkg != w.pkg:
			out = append(out, "change "+w.String()+" -> "+g.pkg)
		}
	}
	return out
}

// requireRoot returns the root file system a release runs from ("/" for
// the host's Slurm), when the real-Slurm tests are asked for and it is
// there (slurmtest.Require).
func requireRoot(t *testing.T, series string) string {
	t.Helper()
	var root string
	slurmtest.Require(t, func() (err error) {
		root, err = resolveRoot(series)
		return err
	})
	return root
}

// TestDebianPluginsMatchPackages checks schema/catalog/data/
// debian_plugins.tsv against the packages themselves: for each release
// (the host's Slurm and the root file systems of .ci/build-rootfs.sh), the
// *.so files in the Slurm plugin directory, the installed package that owns
// each (dpkg's file lists) and its version (dpkg's status) must be the
// release's rows of the list, row for row. It runs with the real-Slurm
// tests (slurmtest): asked for, a release whose root is not there fails.
func TestDebianPluginsMatchPackages(t *testing.T) {
	listed, err := readPluginTSV(pluginsTSV)
	if err != nil {
		t.Fatal(err)
	}
	for _, series := range Releases() {
		t.Run(series, func(t *testing.T) {
			root := requireRoot(t, series)
			shipped, missing, err := shippedPlugins(root, series)
			if err != nil {
				t.Fatal(err)
			}
			var mine []pluginRow
			for _, r := range listed {
				if r.series == series {
					mine = append(mine, r)
				}
			}
			t.Logf("Slurm %s (%s): %d plugin libraries, %d rows listed", series, root, len(shipped), len(mine))
			for _, m := range missing {
				t.Errorf("dpkg lists %s, but the file is not there", m)
			}
			if d := diffPlugins(mine, shipped); len(d) > 0 {
				t.Errorf("%s does not match the packages of Slurm %s in %s; fix these rows, then run make generate:\n%s",
					filepath.Base(pluginsTSV), series, root, strings.Join(d, "\n"))
			}
		})
	}
}

// TestShippedPluginsFakeRoot: the package and version come from dpkg's
// records of the root, not the host's; a library no package owns, one a
// package lists but that is gone, and a package not installed are each
// told apart.
func TestShippedPluginsFakeRoot(t *testing.T) {
	root := t.TempDir()
	write := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dir := "/usr/lib/x86_64-linux-gnu/slurm-wlm"
	write("var/lib/dpkg/status", "Package: slurm-wlm-basic-plugins\nStatus: install ok installed\nVersion: 24.11.5-4\n\n"+
		"Package: slurm-wlm-jwt-plugin\nStatus: install ok installed\nArchitecture: amd64\nVersion: 24.11.5-4\n\n"+
		"Package: slurm-wlm-rrd-plugin\nStatus: deinstall ok config-files\nVersion: 24.11.5-4\n")
	write("var/lib/dpkg/info/slurm-wlm-basic-plugins.list", "/usr\n"+dir+"\n"+dir+"/auth_munge.so\n"+dir+"/gone.so\n"+dir+"/README\n")
	write("var/lib/dpkg/info/slurm-wlm-jwt-plugin:amd64.list", dir+"/auth_jwt.so\n")
	write("var/lib/dpkg/info/slurm-wlm-rrd-plugin.list", dir+"/ext_sensors_rrd.so\n")
	for _, so := range []string{"auth_munge.so", "auth_jwt.so", "ext_sensors_rrd.so", "stray.so"} {
		write(dir[1:]+"/"+so, "")
	}
	write(dir[1:]+"/README", "")
	rows, missing, err := shippedPlugins(root, "24.11")
	if err != nil {
		t.Fatal(err)
	}
	want := []pluginRow{
		{"24.11", "slurm-wlm-jwt-plugin=24.11.5-4", "auth_jwt.so"},
		{"24.11", "slurm-wlm-basic-plugins=24.11.5-4", "auth_munge.so"},
		{"24.11", "", "ext_sensors_rrd.so"},
		{"24.11", "", "stray.so"},
	}
	if !slices.Equal(rows, want) {
		t.Errorf("rows:\n%v\nwant\n%v", rows, want)
	}
	if wantMissing := []string{dir + "/gone.so (slurm-wlm-basic-plugins=24.11.5-4)"}; !slices.Equal(missing, wantMissing) {
		t.Errorf("missing = %q, want %q", missing, wantMissing)
	}
	if _, _, err := shippedPlugins(t.TempDir(), "24.11"); err == nil {
		t.Error("a root without a plugin directory gave no error")
	}
}

// TestDiffPlugins: every kind of difference gives the row to fix, and
// equal lists give none.
func TestDiffPlugins(t *testing.T) {
	basic, jwt := "slurm-wlm-basic-plugins=26.05.5-1", "slurm-wlm-jwt-plugin=26.05.5-1"
	listed := []pluginRow{
		{"26.05", basic, "auth_munge.so"},
		{"26.05", basic, "tls_s2n.so"},
		{"26.05", basic, "auth_jwt.so"},
		{"26.05", "slurm-wlm-basic-plugins=26.05.4-1", "cred_munge.so"},
		{"26.05", basic, "stray.so"},
	}
	shipped := []pluginRow{
		{"26.05", basic, "auth_munge.so"},
		{"26.05", jwt, "auth_jwt.so"},
		{"26.05", basic, "cred_munge.so"},
		{"26.05", basic, "tls_none.so"},
		{"26.05", "", "stray.so"},
	}
	want := []string{
		"change 26.05\t" + basic + "\tauth_jwt.so -> " + jwt,
		"change 26.05\tslurm-wlm-basic-plugins=26.05.4-1\tcred_munge.so -> " + basic,
		"no Debian package owns stray.so in the plugin directory (listed as " + basic + ")",
		"add    26.05\t" + basic + "\ttls_none.so",
		"remove 26.05\t" + basic + "\ttls_s2n.so (no such file in the plugin directory)",
	}
	if got := diffPlugins(listed, shipped); !slices.Equal(got, want) {
		t.Errorf("diffPlugins:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := diffPlugins(shipped[:4], shipped[:4]); len(got) != 0 {
		t.Errorf("equal lists differ: %q", got)
	}
}

// overridesTSV holds the catalog's overrides, among them the libraries of
// plugin values whose shared object is not named after the value.
const overridesTSV = "../../schema/catalog/data/overrides.tsv"

// libraryAlternatives reads the "library" overrides of global keys: the
// shared objects that provide a value ("job_container_tmpfs.so|
// namespace_tmpfs.so": any one of them), by "Key=value". The catalog's
// EnumValue.Library keeps only the first.
func libraryAlternatives(p string) (map[string][]string, error) {
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, fmt.Errorf("read overrides: %w", err)
	}
	out := map[string][]string{}
	for i, l := range strings.Split(string(data), "\n") {
		f := strings.Split(l, "\t")
		if i == 0 || len(f) < 5 || f[0] != "global" || f[3] != "library" {
			continue
		}
		out[f[1]+"="+f[2]] = strings.Split(f[4], "|")
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no library overrides", p)
	}
	return out, nil
}

// TestCatalogPluginsOnRealRoots checks what the generated catalog
// concludes about each plugin value against the release's real plugin
// directory: a value present in a release whose library the root has is
// not marked NotShipped, and names the package that really ships it
// (Package, "" for slurm-wlm-basic-plugins); a value whose library the
// root lacks is marked NotShipped, but for the "none" plugins, which
// Slurm has built in from 23.11. A real-Slurm test (slurmtest): asked
// for, a release whose root is not there fails.
func TestCatalogPluginsOnRealRoots(t *testing.T) {
	for _, series := range Releases() {
		t.Run(series, func(t *testing.T) {
			root := requireRoot(t, series)
			v, err := catalog.ParseVersion(series)
			if err != nil {
				t.Fatal(err)
			}
			noneBuiltIn, err := catalog.ParseVersion("23.11")
			if err != nil {
				t.Fatal(err)
			}
			shipped, _, err := shippedPlugins(root, series)
			if err != nil {
				t.Fatal(err)
			}
			pkgOf := map[string]string{}
			for _, r := range shipped {
				pkgOf[r.lib], _, _ = strings.Cut(r.pkg, "=")
			}
			alts, err := libraryAlternatives(overridesTSV)
			if err != nil {
				t.Fatal(err)
			}
			checked := 0
			for _, p := range catalog.Default().Params(catalog.ScopeGlobal) {
				for _, ev := range p.Values {
					if ev.Library == "" || ev.Library == "builtin" || !ev.PresentIn.Has(v) {
						continue
					}
					checked++
					libs := alts[p.Name+"="+ev.Name]
					if len(libs) == 0 {
						libs = []string{ev.Library}
					}
					var pkg string
					has := slices.ContainsFunc(libs, func(l string) bool { pkg = pkgOf[l]; return pkg != "" })
					builtinNone := (ev.Name == "none" || strings.HasSuffix(ev.Name, "/none")) && !v.Before(noneBuiltIn)
					switch {
					case has && ev.NotShipped.Has(v):
						t.Errorf("%s=%s: the catalog says Debian's %s packages do not ship %s, but %s has %s (%s)", p.Name, ev.Name, series, ev.Library, root, strings.Join(libs, " or "), pkg)
					case has && pkg != "slurm-wlm-basic-plugins" && ev.Package != pkg:
						t.Errorf("%s=%s: %s comes from %s, the catalog says %q", p.Name, ev.Name, ev.Library, pkg, ev.Package)
					case has && pkg == "slurm-wlm-basic-plugins" && ev.Package != "":
						t.Errorf("%s=%s: %s comes from slurm-wlm-basic-plugins, the catalog says %s", p.Name, ev.Name, ev.Library, ev.Package)
					case !has && !ev.NotShipped.Has(v) && !builtinNone:
						t.Errorf("%s=%s: %s is not in %s's plugin directory, but the catalog does not mark it NotShipped for %s", p.Name, ev.Name, strings.Join(libs, " or "), root, series)
					}
				}
			}
			t.Logf("Slurm %s: %d plugin values of the catalog checked against %s", series, checked, root)
			if checked == 0 {
				t.Error("no plugin value checked")
			}
		})
	}
}
