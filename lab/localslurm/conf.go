package localslurm

import (
	"fmt"
	"net"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/hostlist"
	"github.com/slurmspec/slurmspec/render/slurmconf"
)

// Override is one change the harness made to the rendered slurm.conf (or one
// file it added next to it) so that the rendered cluster can run on this host.
// Everything not listed in Cluster.Overrides is tested exactly as rendered.
type Override struct {
	// Key is the slurm.conf key as spelled in the rendered file (or the
	// canonical spelling when the rendered file did not set it), or the name
	// of a file the harness added, such as "gres.conf".
	Key string
	// Rendered is the rendered value; empty when the rendered file did not
	// set the key.
	Rendered string
	// Value is the value the harness runs with; empty when the harness
	// removed the key.
	Value string
	// Reason says why the override is needed.
	Reason string
}

// String formats the override as one line for logs and reports.
func (o Override) String() string {
	rendered := o.Rendered
	if rendered == "" {
		rendered = "(unset)"
	}
	value := o.Value
	if value == "" {
		value = "(removed)"
	}
	return fmt.Sprintf("%s: %s -> %s (%s)", o.Key, rendered, value, o.Reason)
}

// confLine is one logical line of slurm.conf (continuations joined).
type confLine struct {
	text  string   // the line as written (comments included)
	pairs []kvPair // key=value pairs with comments stripped
	note  string   // harness comment written above the line, if any
}

type kvPair struct {
	key, value string
}

// conf is a slurm.conf kept line by line so that everything the harness does
// not override is written back exactly as rendered.
type conf struct {
	lines     []confLine
	overrides []Override
}

// parseConf splits slurm.conf text into logical lines and key=value pairs,
// with render/slurmconf's reader (comments, continuations and escapes as
// Slurm reads them). Each line keeps its text as written, so that lines the
// harness does not override are written back unchanged.
func parseConf(text string) (*conf, error) {
	c := &conf{}
	for _, ll := range slurmconf.SplitLines([]byte(text)) {
		if _, ok := slurmconf.IncludeDirective(ll.Text); ok {
			return nil, fmt.Errorf("slurm.conf line %d: Include is not supported by localslurm", ll.Num)
		}
		pairs, err := slurmconf.ParsePairs(ll.Text)
		if err != nil {
			return nil, fmt.Errorf("slurm.conf line %d: %w", ll.Num, err)
		}
		line := confLine{text: ll.Raw}
		for _, p := range pairs {
			line.pairs = append(line.pairs, kvPair{key: p.Key, value: p.Value})
		}
		c.lines = append(c.lines, line)
	}
	return c, nil
}

// isSimple reports whether the line is a single global Key=Value setting.
func (l confLine) isSimple() bool { return len(l.pairs) == 1 }

// firstKey returns the line's first key, or "" for blank and comment lines.
func (l confLine) firstKey() string {
	if len(l.pairs) == 0 {
		return ""
	}
	return l.pairs[0].key
}

// setPair sets key on a multi-pair line (such as a NodeName line), adding
// it when absent, rewrites the line's text, and returns the old value.
func (l *confLine) setPair(key, value string) string {
	old := ""
	found := false
	for i := range l.pairs {
		if strings.EqualFold(l.pairs[i].key, key) {
			old, found = l.pairs[i].value, true
			l.pairs[i].value = value
		}
	}
	if !found {
		l.pairs = append(l.pairs, kvPair{key: key, value: value})
	}
	parts := make([]string, len(l.pairs))
	for i, p := range l.pairs {
		v := p.value
		if strings.ContainsAny(v, " \t") {
			v = `"` + v + `"`
		}
		parts[i] = p.key + "=" + v
	}
	l.text = strings.Join(parts, " ")
	return old
}

// get returns the value of the last global setting of key (Slurm keys are
// case-insensitive) and whether it was set.
func (c *conf) get(key string) (string, bool) {
	for i := len(c.lines) - 1; i >= 0; i-- {
		l := c.lines[i]
		if l.isSimple() && strings.EqualFold(l.firstKey(), key) {
			return l.pairs[0].value, true
		}
	}
	return "", false
}

// set overrides a global key, records the override, and appends the key when
// the rendered file did not set it. Setting a key to its rendered value is not
// an override and records nothing.
func (c *conf) set(key, value, reason string) {
	rendered, ok := c.get(key)
	if ok && rendered == value {
		return
	}
	name := key
	found := false
	for i := len(c.lines) - 1; i >= 0; i-- {
		l := &c.lines[i]
		if l.isSimple() && strings.EqualFold(l.firstKey(), key) {
			name = l.firstKey()
			l.pairs[0].value = value
			l.text = name + "=" + value
			l.note = "localslurm override (rendered: " + rendered + "): " + reason
			found = true
			break
		}
	}
	if !found {
		c.lines = append(c.lines, confLine{
			text:  key + "=" + value,
			pairs: []kvPair{{key: key, value: value}},
			note:  "localslurm addition: " + reason,
		})
	}
	c.overrides = append(c.overrides, Override{Key: name, Rendered: rendered, Value: value, Reason: reason})
}

// remove deletes every global setting of key and records the override.
func (c *conf) remove(key, reason string) {
	rendered, ok := c.get(key)
	if !ok {
		return
	}
	name := key
	kept := c.lines[:0]
	for _, l := range c.lines {
		if l.isSimple() && strings.EqualFold(l.firstKey(), key) {
			name = l.firstKey()
			continue
		}
		kept = append(kept, l)
	}
	c.lines = kept
	c.overrides = append(c.overrides, Override{Key: name, Rendered: rendered, Reason: reason})
}

// String renders the file, with a comment above each overridden line.
func (c *conf) String() string {
	var b strings.Builder
	for _, l := range c.lines {
		if l.note != "" {
			b.WriteString("# " + l.note + "\n")
		}
		b.WriteString(l.text + "\n")
	}
	return b.String()
}

// nodeDef is one NodeName line with its names expanded.
type nodeDef struct {
	names    []string
	gres     string
	hostname []string // NodeHostname values, expanded
	addr     []string // NodeAddr values, expanded
}

// nodes returns the expanded NodeName lines. NodeName=DEFAULT lines only
// provide a default Gres for later lines.
func (c *conf) nodes() ([]nodeDef, error) {
	var defs []nodeDef
	defaultGres := ""
	for _, l := range c.lines {
		if len(l.pairs) == 0 || !strings.EqualFold(l.firstKey(), "NodeName") {
			continue
		}
		var d nodeDef
		gres, hasGres := "", false
		for _, p := range l.pairs[1:] {
			switch strings.ToLower(p.key) {
			case "gres":
				gres, hasGres = p.value, true
			case "nodehostname":
				h, err := hostlist.Expand(p.value, nil)
				if err != nil {
					return nil, fmt.Errorf("NodeHostname=%s: %w", p.value, err)
				}
				d.hostname = h
			case "nodeaddr":
				a, err := hostlist.Expand(p.value, nil)
				if err != nil {
					return nil, fmt.Errorf("NodeAddr=%s: %w", p.value, err)
				}
				d.addr = a
			}
		}
		if strings.EqualFold(l.pairs[0].value, "DEFAULT") {
			if hasGres {
				defaultGres = gres
			}
			continue
		}
		if !hasGres {
			gres = defaultGres
		}
		names, err := hostlist.Expand(l.pairs[0].value, nil)
		if err != nil {
			return nil, fmt.Errorf("NodeName=%s: %w", l.pairs[0].value, err)
		}
		d.names = names
		d.gres = gres
		defs = append(defs, d)
	}
	return defs, nil
}

// controllerHosts returns the host names of SlurmctldHost (or the legacy
// ControlMachine) lines in order; the first is the primary controller.
func (c *conf) controllerHosts() []string {
	var hosts []string
	for _, l := range c.lines {
		if !l.isSimple() {
			continue
		}
		switch strings.ToLower(l.firstKey()) {
		case "slurmctldhost", "controlmachine", "backupcontroller":
			name, addr := splitHostAddr(l.pairs[0].value)
			hosts = append(hosts, name)
			if addr != "" && net.ParseIP(addr) == nil {
				hosts = append(hosts, addr)
			}
		}
	}
	return hosts
}

// splitHostAddr splits SlurmctldHost's "name(addr)" form.
func splitHostAddr(v string) (name, addr string) {
	if i := strings.IndexByte(v, '('); i >= 0 && strings.HasSuffix(v, ")") {
		return v[:i], v[i+1 : len(v)-1]
	}
	return v, ""
}
