package fidelity

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// notShippedRE matches the catalog's warning for a plugin the release's
// Debian packages do not ship (schema/catalog, checker.value): "TLSType=
// tls/s2n: Debian's Slurm 26.05 packages do not ship this plugin
// (tls_s2n.so); ...". TestNotShippedWarning pins the wording to lint's.
var notShippedRE = regexp.MustCompile(`^(\w+)=(\S+): Debian's Slurm \S+ packages do not ship this plugin \(([\w.+-]+\.so)\)`)

// buildPlugin is a plugin a not-shipped warning is about.
type buildPlugin struct {
	// Key and Value are the setting and token the warning names, such
	// as TLSType and tls/s2n (JobSubmitPlugins and lua).
	Key, Value string
	// Library is the plugin's shared object, such as tls_s2n.so.
	Library string
}

// notShipped returns the plugin a lint warning says the release's Debian
// packages do not ship, or false for any other warning.
func notShipped(message string) (buildPlugin, bool) {
	m := notShippedRE.FindStringSubmatch(message)
	if m == nil {
		return buildPlugin{}, false
	}
	return buildPlugin{Key: m[1], Value: m[2], Library: m[3]}, true
}

// names returns the patterns of a Slurm line that names the plugin: its
// full name (type/name, such as tls/s2n or job_submit/lua, derived from
// the library for a bare value) or "<type> plugin", as Slurm's plugin
// loader words its errors ("cannot find tls plugin for tls/s2n", "Failed
// to initialize tls plugin").
func (p buildPlugin) names() []*regexp.Regexp {
	typ, full := "", p.Value
	if i := strings.LastIndex(p.Value, "/"); i >= 0 {
		typ = p.Value[:i]
	} else {
		typ = strings.TrimSuffix(strings.TrimSuffix(p.Library, ".so"), "_"+p.Value)
		full = typ + "/" + p.Value
	}
	out := []*regexp.Regexp{regexp.MustCompile(`(?i)(^|[^\w/])` + regexp.QuoteMeta(full) + `($|[^\w/])`)}
	if typ != "" && typ != strings.TrimSuffix(p.Library, ".so") {
		out = append(out, regexp.MustCompile(`(?i)(^|[^\w/])`+regexp.QuoteMeta(typ)+` plugin\b`))
	}
	return out
}

// namedBy reports whether a Slurm line names the plugin.
func (p buildPlugin) namedBy(line string) bool {
	for _, re := range p.names() {
		if re.MatchString(line) {
			return true
		}
	}
	return false
}

// pluginAbsent reports whether a plugin library is in none of the plugin
// directories (PluginDir, as slurmctld reports it, colon-separated) of the
// root file system a release runs from. It looks at the real files: a
// directory that is not there or not a directory, or a library it cannot
// tell about, is an error, never "absent".
func pluginAbsent(root, pluginDir, library string) (bool, error) {
	if library == "" || strings.ContainsAny(library, "/\x00") || library == "." || library == ".." {
		return false, fmt.Errorf("plugin library %q: not a file name", library)
	}
	if pluginDir == "" {
		return false, errors.New("slurmctld reports no PluginDir")
	}
	for _, d := range strings.Split(pluginDir, ":") {
		if !filepath.IsAbs(d) {
			return false, fmt.Errorf("PluginDir %q is not absolute", d)
		}
		dir := filepath.Join(root, d)
		st, err := os.Lstat(dir)
		if err != nil {
			return false, fmt.Errorf("plugin directory: %w", err)
		}
		if !st.IsDir() {
			return false, fmt.Errorf("plugin directory %s is not a directory", dir)
		}
		_, err = os.Lstat(filepath.Join(dir, library))
		switch {
		case err == nil:
			return false, nil
		case !errors.Is(err, fs.ErrNotExist):
			return false, fmt.Errorf("plugin library: %w", err)
		}
	}
	return true, nil
}
