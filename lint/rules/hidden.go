package rules

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/lint"
)

// hiddenRune names a character that a reviewer cannot see, or that
// reorders the text around it when displayed ("Trojan Source",
// CVE-2021-42574): bidirectional controls, zero-width characters, and C0
// and C1 control characters other than tab, newline and carriage return.
// It returns "" for every other character.
func hiddenRune(r rune) string {
	switch {
	case r == '\t' || r == '\n' || r == '\r':
		return ""
	case r < 0x20 || r == 0x7f:
		return "a control character"
	case r >= 0x80 && r <= 0x9f:
		return "a C1 control character"
	case r == 0x061c || r == 0x200e || r == 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069:
		return "a bidirectional control character, which reorders how the text around it is displayed"
	case r >= 0x200b && r <= 0x200d || r == 0x2060 || r == 0xfeff || r == 0x180e:
		return "a zero-width character"
	}
	return ""
}

// firstHidden returns the byte offset of the first hidden character of s,
// or -1.
func firstHidden(s string) int {
	for i, r := range s {
		if hiddenRune(r) != "" {
			return i
		}
	}
	return -1
}

// HiddenCharacter reports invisible and text-reordering characters
// anywhere in the spec.
var HiddenCharacter = &lint.Rule{
	ID:       "hidden-character",
	Severity: diag.Warning,
	Summary:  "A value, key or script holds an invisible or text-reordering character",
	Doc: doc("Bidirectional controls (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C) make a script or value "+
		"display differently from what bash and Slurm read (\"Trojan Source\"): a review sees one command and "+
		"slurmd runs another. Zero-width characters (U+200B-U+200D, U+2060, U+FEFF) and control characters "+
		"(C0 other than tab and newline, DEL, C1 U+0080-U+009F) are invisible too: a partition id or a path "+
		"that looks right does not match. Every string and key of the spec is checked; in a script the "+
		"position is the character's own line and column.",
		`prologBashScripts: ["#!/bin/bash\nif [ \"$USER\" != \"admin\u202e \u2066\" ]; then exit 0; fi"]`,
		`prologBashScripts: ["#!/bin/bash\nif [ \"$USER\" != \"admin\" ]; then exit 0; fi"]`),
	Check: func(p *lint.Pass) {
		doc := p.Cluster.Doc
		if doc == nil || doc.Root == nil {
			return
		}
		scriptAt := map[string]ir.Script{}
		for _, s := range scripts(p.Cluster) {
			scriptAt[s.Path] = s
		}
		report := func(pos diag.Pos, path, what, s string, i int) {
			r, _ := utf8.DecodeRuneInString(s[i:])
			if sc, ok := scriptAt[path]; ok {
				line := strings.Count(s[:i], "\n") + 1
				col := i - strings.LastIndexByte(s[:i], '\n')
				m := newScriptMap(doc, sc)
				at, note := m.at(line, col)
				p.Report(at, path, "remove it; write the script in plain text",
					"%s holds %U, %s%s", m.name(), r, hiddenRune(r), note)
				return
			}
			p.Report(pos, path, "remove it, or write it as a visible escape if it is meant",
				"%s holds %U, %s (character %d)", what, r, hiddenRune(r), utf8.RuneCountInString(s[:i])+1)
		}
		var walk func(n *load.Node, path load.Path)
		walk = func(n *load.Node, path load.Path) {
			switch n.Kind {
			case load.String:
				if i := firstHidden(n.Text); i >= 0 {
					ps := path.String()
					report(n.Pos, ps, fmt.Sprintf("the value of %s", ps), n.Text, i)
				}
			case load.Object:
				for _, f := range n.Fields {
					fp := path.Key(f.Name)
					if i := firstHidden(f.Written); i >= 0 {
						report(f.KeyPos, fp.String(), fmt.Sprintf("the key %q", f.Written), f.Written, i)
					}
					walk(f.Value, fp)
				}
			case load.Array:
				for i, it := range n.Items {
					walk(it, path.Index(i))
				}
			}
		}
		walk(doc.Root, nil)
	},
}
