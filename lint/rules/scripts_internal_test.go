package rules

import (
	"errors"
	"strings"
	"testing"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"github.com/slurmspec/slurmspec/compiler/ir"
)

// A script within the size limits but nested 200,000 levels deep is
// refused before the shell parser sees it (which took 25 s and 1 GiB).
func TestDeepScriptIsNotParsed(t *testing.T) {
	for _, open := range []string{"(", "$(", "{ ", "[[ ", "\"$("} {
		text := "#!/bin/bash\n" + strings.Repeat(open, 200_000) + "true\n"
		start := time.Now()
		_, err := parseShell(text, syntax.LangBash)
		var deep *errTooDeep
		if !errors.As(err, &deep) || deep.line != 2 {
			t.Errorf("%q: %v", open, err)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("%q: took %v", open, d)
		}
	}
	// Quoted and commented brackets do not count; real nesting within the
	// bound parses.
	ok := "#!/bin/bash\necho '" + strings.Repeat("(", 500) + "' # " + strings.Repeat("{", 500) + "\n" +
		strings.Repeat("(", 50) + "true" + strings.Repeat(")", 50) + "\n"
	if _, err := parseShell(ok, syntax.LangBash); err != nil {
		t.Errorf("within the bound: %v", err)
	}
}

// The note of a script that is not a block scalar gives its column in
// characters, as every position does.
func TestScriptNoteColumnInCharacters(t *testing.T) {
	m := scriptMap{s: ir.Script{Text: "#!/bin/bash\necho \"é\" (\n", Path: "p"}}
	if _, note := m.at(2, len("echo \"é\" (")); note != " (script line 2, column 10)" {
		t.Errorf("note %q", note)
	}
}
