package format

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/url"
	"slices"
	"strings"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"

	"github.com/slurmspec/slurmspec/compiler/diag"
)

// Links used in SARIF output.
const (
	InformationURI = "https://github.com/slurmspec/slurmspec"
	rulesDocPath   = "/docs/rules.md"
)

// SARIF is the SARIF 2.1.0 format for code-scanning services: one run
// whose tool driver lists every rule, and one result per diagnostic with
// its file, line and column, the spec path as a logical location, and a
// partial fingerprint on the spec path so that findings keep their
// identity when lines move.
type SARIF struct {
	// BaseDir, when set, makes file names under it relative to it.
	BaseDir string
}

// Format implements Formatter.
func (s SARIF) Format(w io.Writer, r Run) error {
	return writeJSON(w, s.Report(r))
}

// Report builds the SARIF document of a run.
func (s SARIF) Report(r Run) *sarif.Report {
	files := sorted(r)
	rules, index := sarifRules(r, files)

	run := sarif.NewRunWithInformationURI("slurmspec", InformationURI)
	if r.ToolVersion != "" {
		run.Tool.Driver.WithVersion(r.ToolVersion)
	}
	run.Tool.Driver.WithRules(rules)
	// Columns count characters (Unicode code points), in every format.
	run.WithColumnKind("unicodeCodePoints")
	inv := sarif.NewInvocation()
	for _, f := range files {
		if f.Error {
			inv.AddToolExecutionNotification(s.unreadable(f))
		}
		for _, d := range f.Diags {
			run.AddResult(s.result(f, d, index))
		}
		for _, sd := range f.Suppressed {
			sup := sarif.NewSuppression().WithKind("inSource").WithJustification(sd.Justification)
			if file := fileOf(sd.Directive, f); file != "" {
				sup.WithLocation(sarif.NewLocation().WithPhysicalLocation(s.physical(file, sd.Directive)))
			}
			run.AddResult(s.result(f, sd.Diagnostic, index).AddSuppression(sup))
		}
	}
	for _, msg := range r.Failures {
		inv.AddToolExecutionNotification(sarif.NewNotification().WithLevel("error").WithMessage(sarif.NewTextMessage(msg)))
	}
	// Successful means every check ran on every file: an unreadable file
	// or a check that could not run leaves the results incomplete.
	inv.WithExecutionSuccessful(len(inv.ToolExecutionNotifications) == 0)
	run.AddInvocation(inv)
	return sarif.NewReport().AddRun(run)
}

// unreadable is the tool execution notification of a file that could not
// be read: its error diagnostics' messages, at the file.
func (s SARIF) unreadable(f File) *sarif.Notification {
	msg := f.Name + " could not be read"
	for _, d := range f.Diags {
		if d.Severity == diag.Error {
			msg += ": " + d.Message
			break
		}
	}
	n := sarif.NewNotification().WithLevel("error").WithMessage(sarif.NewTextMessage(msg))
	if f.Name != "" {
		n.WithLocations([]*sarif.Location{sarif.NewLocation().WithPhysicalLocation(
			sarif.NewPhysicalLocation().WithArtifactLocation(sarif.NewSimpleArtifactLocation(fileURI(slashName(f.Name, s.BaseDir)))))})
	}
	return n
}

func (s SARIF) result(f File, d diag.Diagnostic, index map[string]int) *sarif.Result {
	id := ruleID(d)
	text := d.Message
	if d.Hint != "" {
		text += "\nhint: " + d.Hint
	}
	res := sarif.NewRuleResult(id).
		WithRuleIndex(index[id]).
		WithLevel(sarifLevel(d.Severity)).
		WithMessage(sarif.NewTextMessage(text))

	loc := sarif.NewLocation()
	file := fileOf(d.Pos, f)
	if file != "" {
		loc.WithPhysicalLocation(s.physical(file, d.Pos))
	}
	if d.Path != "" {
		loc.AddLogicalLocation(sarif.NewLogicalLocation().WithFullyQualifiedName(d.Path))
		sum := sha256.Sum256([]byte(id + "\x00" + slashName(file, s.BaseDir) + "\x00" + d.Path))
		res.WithPartialFingerprints(map[string]string{"specPath/v1": hex.EncodeToString(sum[:16])})
	}
	if loc.PhysicalLocation != nil || len(loc.LogicalLocations) > 0 {
		res.AddLocation(loc)
	}
	for i, rel := range d.Related {
		rl := sarif.NewLocation().WithID(i).WithMessage(sarif.NewTextMessage(rel.Message))
		if file := fileOf(rel.Pos, f); file != "" {
			rl.WithPhysicalLocation(s.physical(file, rel.Pos))
		}
		if rel.Path != "" {
			rl.AddLogicalLocation(sarif.NewLogicalLocation().WithFullyQualifiedName(rel.Path))
		}
		res.AddRelatedLocation(rl)
	}

	props := sarif.NewPropertyBag()
	if d.Path != "" {
		props.Add("path", d.Path)
	}
	if d.Hint != "" {
		props.Add("hint", d.Hint)
	}
	if len(props.Properties) > 0 {
		res.WithProperties(props)
	}
	return res
}

// physical is the location of pos in file: never a made-up line when the
// position is unknown, only the file.
func (s SARIF) physical(file string, pos diag.Pos) *sarif.PhysicalLocation {
	pl := sarif.NewPhysicalLocation().
		WithArtifactLocation(sarif.NewSimpleArtifactLocation(fileURI(slashName(file, s.BaseDir))))
	if pos.IsValid() {
		reg := sarif.NewRegion().WithStartLine(pos.Line)
		if pos.Col > 0 {
			reg.WithStartColumn(pos.Col)
		}
		if e, ok := end(pos); ok {
			reg.WithEndLine(e.Line).WithEndColumn(e.Col)
		}
		pl.WithRegion(reg)
	}
	return pl
}

// fileURI turns a slash-separated file name into a URI reference: a
// relative one for relative names, a file: URI for absolute ones.
func fileURI(name string) string {
	u := url.URL{Path: name}
	switch {
	case strings.HasPrefix(name, "/"):
		u.Scheme = "file"
	case len(name) >= 2 && name[1] == ':' && (name[0]|0x20) >= 'a' && (name[0]|0x20) <= 'z':
		u.Scheme, u.Path = "file", "/"+name // a Windows drive letter
	}
	return u.String()
}

// sarifRules returns the driver's rules sorted by id, and the index of each
// id. Rule ids that diagnostics use but the catalog lacks (the loader's,
// the schema's and the compiler's checks) get a synthesized entry, so that
// every result's ruleId resolves.
func sarifRules(r Run, files []File) ([]*sarif.ReportingDescriptor, map[string]int) {
	known := map[string]RuleInfo{}
	for _, ri := range r.Rules {
		if _, dup := known[ri.ID]; !dup {
			known[ri.ID] = ri
		}
	}
	extra := map[string]diag.Severity{}
	for _, f := range files {
		all := f.Diags
		for _, sd := range f.Suppressed {
			all = append(all[:len(all):len(all)], sd.Diagnostic)
		}
		for _, d := range all {
			id := ruleID(d)
			if _, ok := known[id]; ok {
				continue
			}
			if sev, seen := extra[id]; !seen || d.Severity > sev {
				extra[id] = d.Severity
			}
		}
	}
	var ids []string
	for id := range known {
		ids = append(ids, id)
	}
	for id := range extra {
		ids = append(ids, id)
	}
	slices.Sort(ids)

	ref := docsRef(r.ToolVersion)
	out := make([]*sarif.ReportingDescriptor, 0, len(ids))
	index := make(map[string]int, len(ids))
	for i, id := range ids {
		index[id] = i
		rd := sarif.NewRule(id)
		if ri, ok := known[id]; ok {
			rd.WithShortDescription(sarif.NewMultiformatMessageString().WithText(ri.Summary))
			if ri.Doc != "" {
				rd.WithFullDescription(sarif.NewMultiformatMessageString().WithText(ri.Doc).WithMarkdown(ri.Doc))
				rd.WithHelp(sarif.NewMultiformatMessageString().WithText(ri.Doc).WithMarkdown(ri.Doc))
			}
			help := ri.HelpURI
			if help == "" {
				help = ruleDocURI(ref, id)
			}
			rd.WithHelpURI(help)
			rd.WithDefaultConfiguration(sarif.NewReportingConfiguration().WithLevel(sarifLevel(ri.Severity)))
		} else {
			rd.WithShortDescription(sarif.NewMultiformatMessageString().WithText(synthSummary(id)))
			rd.WithDefaultConfiguration(sarif.NewReportingConfiguration().WithLevel(sarifLevel(extra[id])))
		}
		out = append(out, rd)
	}
	return out, index
}

// RuleHelpURI is the link to a lint rule's documentation in docs/rules.md,
// at the docs of the given slurmspec version (a release's tag, a
// pseudo-version's commit, else main): the helpUri of SARIF output and of
// `slurmspec rules --format json`.
func RuleHelpURI(toolVersion, id string) string { return ruleDocURI(docsRef(toolVersion), id) }

func ruleDocURI(ref, id string) string {
	return InformationURI + "/blob/" + ref + rulesDocPath + "#" + id
}

// ruleID is the rule id of a diagnostic, never empty.
func ruleID(d diag.Diagnostic) string {
	if d.Rule == "" {
		return "unspecified"
	}
	return d.Rule
}

// synthSummary describes a check that is not in the rule catalog from its
// id: "schema-unknown-field" becomes "Schema check: unknown field".
func synthSummary(id string) string {
	kind, rest := "Check", id
	if after, ok := strings.CutPrefix(id, "schema-"); ok && after != "" {
		kind, rest = "Schema check", after
	} else if after, ok := strings.CutPrefix(id, "load-"); ok && after != "" {
		kind, rest = "Loader check", after
	}
	return kind + ": " + strings.ReplaceAll(rest, "-", " ")
}

func sarifLevel(s diag.Severity) string {
	switch s {
	case diag.Error:
		return sarif.LevelError
	case diag.Warning:
		return sarif.LevelWarning
	}
	return sarif.LevelNote
}

// docsRef is the git ref whose docs match version: the tag of a release,
// the commit of a pseudo-version, or "main".
func docsRef(version string) string {
	v, _, _ := strings.Cut(version, "+") // build metadata such as +dirty
	core, pre, hasPre := strings.Cut(strings.TrimPrefix(v, "v"), "-")
	if !strings.HasPrefix(v, "v") || !isSemverCore(core) || hasPre && pre == "" {
		return "main"
	}
	if pre == "" {
		return v
	}
	// Pseudo-versions end in -yyyymmddhhmmss-abcdefabcdef (with the time
	// possibly after "0." or "pre.0.").
	parts := strings.Split(pre, "-")
	if n := len(parts); n >= 2 && isHex(parts[n-1], 12) {
		ts := parts[n-2]
		if i := strings.LastIndexByte(ts, '.'); i >= 0 {
			ts = ts[i+1:]
		}
		if len(ts) == 14 && strings.Trim(ts, "0123456789") == "" {
			return parts[n-1]
		}
	}
	return v
}

func isSemverCore(s string) bool {
	parts := strings.Split(s, ".")
	if len(parts) != 3 {
		return false
	}
	for _, p := range parts {
		if p == "" || strings.Trim(p, "0123456789") != "" {
			return false
		}
	}
	return true
}

func isHex(s string, n int) bool {
	return len(s) == n && strings.Trim(s, "0123456789abcdef") == ""
}
