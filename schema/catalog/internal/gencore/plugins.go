package gencore

// The plugin libraries the Debian packages ship (debian_plugins.tsv).

import (
	"fmt"
	"slices"
	"strings"
)

// libraryPrefix is the shared-object prefix of keys whose values are bare
// plugin names ("lua" for JobSubmitPlugins is job_submit_lua.so).
var libraryPrefix = map[string]string{"JobSubmitPlugins": "job_submit_", "MpiDefault": "mpi_"}

// noneBuiltIn is the series from which Slurm has no "none" plugins:
// read_config.c unsets a plugin type that names none.
const noneBuiltIn = "23.11"

// loadDebianPlugins reads debian_plugins.tsv, the shared objects that the
// Debian slurm packages of some series ship, and marks every plugin value
// present in such a series whose library is not among them.
func (g *generator) loadDebianPlugins() error {
	rows, err := g.readTSV("debian_plugins.tsv")
	if err != nil {
		return err
	}
	fromNone, err := g.rel.index(noneBuiltIn)
	if err != nil {
		return fmt.Errorf("releases.tsv: %w", err)
	}
	shipped := map[int]map[string]bool{}
	pkgOf := map[string]string{}
	for _, r := range rows {
		pkgOf[r["library"]], _, _ = strings.Cut(r["debian_package"], "=")
		i, err := g.rel.index(r["series"])
		if err != nil {
			return fmt.Errorf("%s: %w", r["#where"], err)
		}
		if shipped[i] == nil {
			shipped[i] = map[string]bool{}
		}
		shipped[i][r["library"]] = true
	}
	for _, p := range g.params {
		if p.scope != "global" || p.name == "GresTypes" {
			continue // any GRES name may be declared, with or without a plugin
		}
		for _, v := range p.values {
			if v.library == "" && !contains(v.source, "plugin") && p.kind != "plugin" {
				continue
			}
			libs := strings.Split(v.library, "|")
			switch {
			case v.library == "builtin":
				continue
			case v.library != "":
			case strings.Contains(v.name, "/"):
				libs = []string{strings.ReplaceAll(v.name, "/", "_") + ".so"}
			case libraryPrefix[p.name] != "":
				libs = []string{libraryPrefix[p.name] + v.name + ".so"}
			default:
				continue
			}
			v.library = libs[0]
			if pkg := pkgOf[v.library]; pkg != "" && pkg != "slurm-wlm-basic-plugins" {
				v.pkg = pkg
			}
			for i, have := range shipped {
				if v.presentIn&(1<<i) == 0 || slices.ContainsFunc(libs, func(l string) bool { return have[l] }) {
					continue
				}
				if i >= fromNone && (v.name == "none" || strings.HasSuffix(v.name, "/none")) {
					continue
				}
				v.notShipped |= 1 << i
			}
		}
	}
	return nil
}
