package localslurm

import (
	"fmt"
	"net"
	"strconv"
	"strings"
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

// parseConf splits slurm.conf text into logical lines and key=value pairs.
func parseConf(text string) (*conf, error) {
	c := &conf{}
	var pending strings.Builder
	physical := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	for i, raw := range physical {
		if strings.HasSuffix(raw, "\\") && !strings.HasSuffix(raw, "\\\\") {
			pending.WriteString(strings.TrimSuffix(raw, "\\"))
			continue
		}
		pending.WriteString(raw)
		full := pending.String()
		pending.Reset()
		if i == len(physical)-1 && full == "" {
			break
		}
		pairs, err := splitPairs(stripComment(full))
		if err != nil {
			return nil, fmt.Errorf("slurm.conf line %d: %w", i+1, err)
		}
		if len(pairs) > 0 && strings.EqualFold(pairs[0].key, "Include") {
			return nil, fmt.Errorf("slurm.conf line %d: Include is not supported by localslurm", i+1)
		}
		c.lines = append(c.lines, confLine{text: full, pairs: pairs})
	}
	return c, nil
}

// stripComment removes a '#' comment, honouring the "\#" escape.
func stripComment(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '#' && (i == 0 || s[i-1] != '\\') {
			return s[:i]
		}
	}
	return s
}

// splitPairs splits "A=1 B=2" into pairs; a quoted value may hold spaces.
func splitPairs(s string) ([]kvPair, error) {
	var pairs []kvPair
	s = strings.TrimSpace(s)
	for s != "" {
		eq := strings.IndexByte(s, '=')
		sp := strings.IndexAny(s, " \t")
		if eq < 0 || (sp >= 0 && sp < eq) {
			return nil, fmt.Errorf("expected Key=Value, got %q", s)
		}
		key := s[:eq]
		rest := s[eq+1:]
		var value string
		if strings.HasPrefix(rest, `"`) {
			end := strings.IndexByte(rest[1:], '"')
			if end < 0 {
				return nil, fmt.Errorf("unterminated quote in %q", s)
			}
			value = rest[1 : end+1]
			rest = rest[end+2:]
		} else if sp := strings.IndexAny(rest, " \t"); sp >= 0 {
			value, rest = rest[:sp], rest[sp:]
		} else {
			value, rest = rest, ""
		}
		pairs = append(pairs, kvPair{key: key, value: value})
		s = strings.TrimSpace(rest)
	}
	return pairs, nil
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
				h, err := expandHostlist(p.value)
				if err != nil {
					return nil, fmt.Errorf("NodeHostname=%s: %w", p.value, err)
				}
				d.hostname = h
			case "nodeaddr":
				a, err := expandHostlist(p.value)
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
		names, err := expandHostlist(l.pairs[0].value)
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

// expandHostlist expands a Slurm hostlist such as "seed-a4-[0-1],login0"
// or "r[1-2]n[01-03]" into host names.
func expandHostlist(s string) ([]string, error) {
	var out []string
	for _, item := range splitTopLevel(s) {
		if item == "" {
			continue
		}
		names, err := expandHost(item)
		if err != nil {
			return nil, err
		}
		out = append(out, names...)
	}
	return out, nil
}

// splitTopLevel splits on commas that are not inside brackets.
func splitTopLevel(s string) []string {
	var parts []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '[':
			depth++
		case ']':
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, s[start:])
}

// expandHost expands every bracket group of a single hostlist item.
func expandHost(item string) ([]string, error) {
	open := strings.IndexByte(item, '[')
	if open < 0 {
		if strings.ContainsRune(item, ']') {
			return nil, fmt.Errorf("unbalanced ']' in %q", item)
		}
		return []string{item}, nil
	}
	closing := strings.IndexByte(item[open:], ']')
	if closing < 0 {
		return nil, fmt.Errorf("unbalanced '[' in %q", item)
	}
	closing += open
	prefix, body, suffix := item[:open], item[open+1:closing], item[closing+1:]
	rest, err := expandHost(suffix)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, r := range strings.Split(body, ",") {
		lo, hi, isRange := strings.Cut(r, "-")
		if !isRange {
			hi = lo
		}
		a, err := strconv.Atoi(lo)
		if err != nil {
			return nil, fmt.Errorf("bad range %q in %q", r, item)
		}
		b, err := strconv.Atoi(hi)
		if err != nil || b < a {
			return nil, fmt.Errorf("bad range %q in %q", r, item)
		}
		if b-a > 100000 {
			return nil, fmt.Errorf("range %q in %q is too large", r, item)
		}
		for n := a; n <= b; n++ {
			num := fmt.Sprintf("%0*d", len(lo), n)
			for _, s := range rest {
				out = append(out, prefix+num+s)
			}
		}
	}
	return out, nil
}

// gresEntry is one element of a node's Gres= list, such as gpu:b200:8.
type gresEntry struct {
	name, typ string
	count     int
}

// parseGres parses a node's Gres= value ("gpu:b200:8,nic:2").
func parseGres(v string) ([]gresEntry, error) {
	var out []gresEntry
	if v == "" || strings.EqualFold(v, "(null)") {
		return nil, nil
	}
	for _, item := range strings.Split(v, ",") {
		fields := strings.Split(item, ":")
		// Drop flags such as no_consume.
		for len(fields) > 1 && strings.EqualFold(fields[len(fields)-1], "no_consume") {
			fields = fields[:len(fields)-1]
		}
		e := gresEntry{name: fields[0], count: 1}
		switch len(fields) {
		case 1:
		case 2:
			if n, err := parseCount(fields[1]); err == nil {
				e.count = n
			} else {
				e.typ = fields[1]
			}
		case 3:
			e.typ = fields[1]
			n, err := parseCount(fields[2])
			if err != nil {
				return nil, fmt.Errorf("gres %q: %w", item, err)
			}
			e.count = n
		default:
			return nil, fmt.Errorf("gres %q: too many fields", item)
		}
		out = append(out, e)
	}
	return out, nil
}

// parseCount parses a GRES count with an optional K/M/G suffix.
func parseCount(s string) (int, error) {
	mult := 1
	switch {
	case strings.HasSuffix(s, "K"), strings.HasSuffix(s, "k"):
		mult, s = 1024, s[:len(s)-1]
	case strings.HasSuffix(s, "M"), strings.HasSuffix(s, "m"):
		mult, s = 1024*1024, s[:len(s)-1]
	case strings.HasSuffix(s, "G"), strings.HasSuffix(s, "g"):
		mult, s = 1024*1024*1024, s[:len(s)-1]
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("bad count %q: %w", s, err)
	}
	return n * mult, nil
}
