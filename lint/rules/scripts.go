package rules

import (
	"errors"
	"fmt"
	"path"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/compiler/ir"
	"github.com/slurmspec/slurmspec/compiler/load"
	"github.com/slurmspec/slurmspec/lint"
)

// Prolog and epilog scripts: each becomes an executable file that slurmd
// runs, so each is parsed as bash and its positions are mapped back into
// the spec.

// scripts returns every prolog and epilog script.
func scripts(c *ir.Cluster) []ir.Script {
	out := make([]ir.Script, 0, len(c.Slurm.Prolog)+len(c.Slurm.Epilog))
	out = append(out, c.Slurm.Prolog...)
	return append(out, c.Slurm.Epilog...)
}

// scriptMap maps a script's own line and column to the spec file.
type scriptMap struct {
	s ir.Script
	// block is set when the script is a YAML literal block scalar, whose
	// line N is file line s.Pos.Line+N, indented by indent runes.
	block  bool
	indent int
}

// newScriptMap works out how a script's text lies in the spec file.
func newScriptMap(doc *load.Document, s ir.Script) scriptMap {
	m := scriptMap{s: s}
	if doc == nil || doc.Format != load.FormatYAML || !s.Pos.IsValid() {
		return m
	}
	lines := strings.Split(string(doc.Source), "\n")
	if s.Pos.Line > len(lines) {
		return m
	}
	head := []rune(lines[s.Pos.Line-1])
	if s.Pos.Col < 1 || s.Pos.Col > len(head) || head[s.Pos.Col-1] != '|' {
		return m
	}
	for i, sl := range strings.Split(s.Text, "\n") {
		if strings.TrimSpace(sl) == "" {
			continue
		}
		n := s.Pos.Line + i + 1
		if n > len(lines) {
			return m
		}
		fl := strings.TrimRight(lines[n-1], "\r")
		if !strings.HasSuffix(fl, sl) {
			return m
		}
		m.block, m.indent = true, utf8.RuneCountInString(fl[:len(fl)-len(sl)])
		return m
	}
	return m
}

// at returns the file position of the script's line and byte column (both
// 1-based) and, when the script is not a block scalar, a " (script line N,
// column C)" note for the message, whose column counts characters.
func (m scriptMap) at(line, col int) (diag.Pos, string) {
	text := strings.Split(m.s.Text, "\n")
	if m.block && line >= 1 && line <= len(text) {
		l := text[line-1]
		col = min(max(col, 1), len(l)+1)
		return diag.Pos{File: m.s.Pos.File, Line: m.s.Pos.Line + line, Col: m.indent + utf8.RuneCountInString(l[:col-1]) + 1}, ""
	}
	if line >= 1 && line <= len(text) && col >= 1 && col <= len(text[line-1])+1 {
		col = utf8.RuneCountInString(text[line-1][:col-1]) + 1 // characters, as every column
	}
	return m.s.Pos, fmt.Sprintf(" (script line %d, column %d)", line, col)
}

// name describes a script for messages: "prologBashScripts[0]".
func (m scriptMap) name() string {
	if i := strings.LastIndex(m.s.Path, "."); i >= 0 {
		return m.s.Path[i+1:]
	}
	return m.s.Path
}

// shebang returns the interpreter named by a script's first line ("bash",
// "sh", "python3") and whether there is a #! line.
func shebang(text string) (string, bool) {
	first, _, _ := strings.Cut(text, "\n")
	first = strings.TrimRight(first, "\r")
	if !strings.HasPrefix(first, "#!") {
		return "", false
	}
	f := strings.Fields(first[2:])
	if len(f) == 0 {
		return "", true
	}
	prog := path.Base(f[0])
	if prog == "env" {
		for _, a := range f[1:] {
			if !strings.HasPrefix(a, "-") {
				return path.Base(a), true
			}
		}
		return "", true
	}
	return prog, true
}

// posixShells are interpreters parsed with POSIX rules.
var posixShells = map[string]bool{"sh": true, "dash": true, "ash": true}

// ScriptSyntax reports prolog and epilog scripts that bash cannot parse.
var ScriptSyntax = &lint.Rule{
	ID:       "script-syntax",
	Severity: diag.Error,
	Summary:  "A prolog or epilog script has a shell syntax error",
	Doc: doc("Each script is parsed as bash (as POSIX sh when its #! line names sh or dash). A script that does "+
		"not parse fails on every job, and a failing prolog drains the node. In a YAML block scalar (|) the "+
		"error is reported at its own line; elsewhere at the string, with the script's line and column.",
		"prologBashScripts:\n- |\n  #!/bin/bash\n  if [ -d /scratch ]; then\n    mkdir -p /scratch/$SLURM_JOB_ID\n",
		"prologBashScripts:\n- |\n  #!/bin/bash\n  if [ -d /scratch ]; then\n    mkdir -p /scratch/$SLURM_JOB_ID\n  fi\n"),
	Check: func(p *lint.Pass) {
		for _, s := range scripts(p.Cluster) {
			if strings.TrimSpace(s.Text) == "" {
				continue
			}
			interp, _ := shebang(s.Text)
			lang := syntax.LangBash
			switch {
			case posixShells[interp]:
				lang = syntax.LangPOSIX
			case interp != "" && interp != "bash":
				continue // script-shebang reports it; not a shell script
			}
			err := parseScript(s.Text, lang)
			if err == nil {
				continue
			}
			m := newScriptMap(p.Cluster.Doc, s)
			var pe syntax.ParseError
			var le syntax.LangError
			var deep *errTooDeep
			switch {
			case errors.As(err, &deep):
				pos, note := m.at(deep.line, deep.col)
				p.Report(pos, s.Path, "split the script into functions; a prolog nests a few levels", "%s %v%s", m.name(), err, note)
			case errors.As(err, &pe):
				pos, note := m.at(int(pe.Pos.Line()), int(pe.Pos.Col()))
				p.Report(pos, s.Path, "fix the shell syntax; check it with bash -n", "%s: %s%s", m.name(), pe.Text, note)
			case errors.As(err, &le):
				pos, note := m.at(int(le.Pos.Line()), int(le.Pos.Col()))
				p.Report(pos, s.Path, "use #!/bin/bash, or write it in POSIX sh",
					"%s uses %s, a bash feature, but runs with %s%s", m.name(), le.Feature, interp, note)
			default:
				p.Report(s.Pos, s.Path, "fix the shell syntax", "%s: %v", m.name(), err)
			}
		}
	},
}

// parseScript parses a script, ignoring carriage returns (script-crlf
// reports them).
func parseScript(text string, lang syntax.LangVariant) error {
	_, err := parseShell(text, lang)
	return err
}

// maxScriptNesting bounds how deeply a script's parentheses, braces and
// brackets may nest. The shell parser's time grows with the square of the
// nesting: 100,000 nested subshells in a file within the size limit take
// it minutes and a GiB. Real prolog scripts nest a handful of levels.
const maxScriptNesting = 100

// errTooDeep is reported for a script nested beyond maxScriptNesting.
type errTooDeep struct{ line, col int }

func (e *errTooDeep) Error() string {
	return fmt.Sprintf("nests parentheses, braces or brackets deeper than %d levels; not parsed", maxScriptNesting)
}

// parseShell parses a script as the given shell, ignoring carriage
// returns, after checking its nesting.
func parseShell(text string, lang syntax.LangVariant) (*syntax.File, error) {
	text = strings.ReplaceAll(text, "\r", "")
	if line, col, deep := scriptTooDeep(text); deep {
		return nil, &errTooDeep{line, col}
	}
	f, err := syntax.NewParser(syntax.Variant(lang)).Parse(strings.NewReader(text), "")
	if err != nil {
		return nil, fmt.Errorf("parse script: %w", err)
	}
	return f, nil
}

// scriptTooDeep reports whether (, {, [ and backquotes nest deeper than
// maxScriptNesting outside single-quoted strings and comments, and the
// line and byte column of the first one beyond. It over-counts rather
// than under-counts: a bracket inside a double-quoted string counts.
func scriptTooDeep(text string) (line, col int, deep bool) {
	depth, backquote := 0, false
	line, lineStart := 1, 0
	for i := 0; i < len(text); i++ {
		switch c := text[i]; c {
		case '\n':
			line, lineStart = line+1, i+1
		case '\\':
			i++
		case '\'':
			if j := strings.IndexByte(text[i+1:], '\''); j >= 0 {
				line += strings.Count(text[i:i+1+j], "\n")
				if k := strings.LastIndexByte(text[i:i+1+j], '\n'); k >= 0 {
					lineStart = i + k + 1
				}
				i += j + 1
			}
		case '#':
			if i == 0 || text[i-1] == ' ' || text[i-1] == '\t' || text[i-1] == '\n' || text[i-1] == ';' {
				if j := strings.IndexByte(text[i:], '\n'); j >= 0 {
					i += j - 1
				} else {
					i = len(text)
				}
			}
		case '(', '{', '[', '`':
			if c == '`' && backquote {
				depth--
				backquote = false
				continue
			}
			if c == '`' {
				backquote = true
			}
			depth++
			if depth > maxScriptNesting {
				return line, i - lineStart + 1, true
			}
		case ')', '}', ']':
			depth = max(depth-1, 0)
		}
	}
	return 0, 0, false
}

// ScriptShebang reports scripts without a bash #! line.
var ScriptShebang = &lint.Rule{
	ID:       "script-shebang",
	Severity: diag.Warning,
	Summary:  "A prolog or epilog script does not start with a bash #! line",
	Doc: doc("slurmd executes each script file directly, so its first line must name the interpreter; the "+
		"field is prologBashScripts and slurmspec checks the scripts as bash.",
		"prologBashScripts:\n- \"mkdir -p /scratch/$SLURM_JOB_ID\"",
		"prologBashScripts:\n- \"#!/bin/bash\\nmkdir -p /scratch/$SLURM_JOB_ID\""),
	Check: func(p *lint.Pass) {
		for _, s := range scripts(p.Cluster) {
			if strings.TrimSpace(s.Text) == "" {
				continue
			}
			m := newScriptMap(p.Cluster.Doc, s)
			interp, ok := shebang(s.Text)
			pos, note := m.at(1, 1)
			switch {
			case !ok:
				p.Report(pos, s.Path, "start the script with #!/bin/bash", "%s has no #! line%s", m.name(), note)
			case interp != "bash":
				p.Report(pos, s.Path, "use #!/bin/bash (or #!/usr/bin/env bash)", "%s runs with %q, not bash%s", m.name(), interp, note)
			}
		}
	},
}

// ScriptCRLF reports carriage returns, which bash reads as part of words.
var ScriptCRLF = &lint.Rule{
	ID:       "script-crlf",
	Severity: diag.Error,
	Summary:  "A prolog or epilog script has CRLF (Windows) line endings",
	Doc: doc("bash does not strip \\r: it becomes part of the last word of each line, so commands and paths are "+
		"not found (\"/bin/bash^M: bad interpreter\").",
		`prologBashScripts: ["#!/bin/bash\r\necho start\r\n"]`,
		`prologBashScripts: ["#!/bin/bash\necho start\n"]`),
	Check: func(p *lint.Pass) {
		for _, s := range scripts(p.Cluster) {
			i := strings.IndexByte(s.Text, '\r')
			if i < 0 {
				continue
			}
			line := strings.Count(s.Text[:i], "\n") + 1
			col := i - strings.LastIndexByte(s.Text[:i], '\n')
			m := newScriptMap(p.Cluster.Doc, s)
			pos, note := m.at(line, col)
			p.Report(pos, s.Path, "convert the line endings to LF (\\n)", "%s has a carriage return (CRLF line endings)%s", m.name(), note)
		}
	},
}

// ScriptEmpty reports scripts that do nothing.
var ScriptEmpty = &lint.Rule{
	ID:       "script-empty",
	Severity: diag.Warning,
	Summary:  "A prolog or epilog script is empty or has no commands",
	Doc: doc("An empty script still becomes a file that slurmd runs for every job, and an empty file with no "+
		"#! line fails to execute.",
		`epilogBashScripts: ["#!/bin/bash\n# TODO"]`,
		`epilogBashScripts: ["#!/bin/bash\nrm -rf /scratch/$SLURM_JOB_ID"]`),
	Check: func(p *lint.Pass) {
		for _, s := range scripts(p.Cluster) {
			m := newScriptMap(p.Cluster.Doc, s)
			if strings.TrimSpace(s.Text) == "" {
				p.Report(s.Pos, s.Path, "remove the entry, or write the script", "%s is empty", m.name())
				continue
			}
			interp, _ := shebang(s.Text)
			if interp != "" && interp != "bash" && !posixShells[interp] {
				continue
			}
			f, err := parseShell(s.Text, syntax.LangBash)
			if err == nil && len(f.Stmts) == 0 {
				p.Report(s.Pos, s.Path, "remove the entry, or add the commands", "%s has no commands", m.name())
			}
		}
	},
}
