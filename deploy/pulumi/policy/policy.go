// Package policy decides what slurmspec-deploy may do to a cluster: which
// specs may be deployed, what an update does to the cluster a stack
// deployed (its impact, from `slurmspec diff`'s classes), which updates
// need the user's confirmation (--yes), and when an operation is refused.
// It decides and explains; cmd/slurmspec-deploy adapts its flags to it and
// prints.
package policy

import (
	"context"
	"fmt"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/diag"
	"github.com/slurmspec/slurmspec/deploy/artifacts"
	"github.com/slurmspec/slurmspec/lint"
	"github.com/slurmspec/slurmspec/lint/pipeline"
	"github.com/slurmspec/slurmspec/lint/rules"
	"github.com/slurmspec/slurmspec/render/diff"
)

// Op is an operation on a stack.
type Op string

// The operations.
const (
	Preview Op = "preview"
	Up      Op = "up"
	Destroy Op = "destroy"
	Refresh Op = "refresh"
)

// Refusal is an operation the policy does not allow as asked: the user
// must change the spec or confirm (the command exits 1).
type Refusal struct{ Msg string }

func (r *Refusal) Error() string { return r.Msg }

func refuse(format string, args ...any) error {
	return &Refusal{Msg: fmt.Sprintf(format, args...)}
}

// Gated is the impact from which an update needs confirmation: what
// pulumi-gcp replaces (the whole cluster; a pool alone is never replaced
// any more, but a replace-pool change would need it too). A restart of
// slurmctld or slurmd does not.
const Gated = diff.ReplacePool

// StrictPlaceholders makes the examples' placeholders (PROJECT_ID,
// REGION-ZONE, ...) errors in res, whatever severity the project config
// gives the rule, and when it is disabled: a spec that still holds one is
// never deployed. Call it before printing res's diagnostics.
func StrictPlaceholders(res *pipeline.Result) {
	found := false
	for _, d := range res.Diags {
		found = found || d.Rule == rules.Placeholder.ID
	}
	if !found && res.Cluster != nil {
		res.Diags = append(res.Diags, lint.Run(res.Cluster, []*lint.Rule{rules.Placeholder}, lint.Config{Options: lint.Options{SlurmVersion: res.Settings.SlurmVersion()}})...).Sort()
	}
	for i := range res.Diags {
		if res.Diags[i].Rule == rules.Placeholder.ID {
			res.Diags[i].Severity = diag.Error
		}
	}
}

// Spec decides whether op may use the checked spec res (after
// StrictPlaceholders): never one that did not compile; a spec with errors
// is never previewed or deployed, but a stack may be destroyed with it
// (the cluster's name is all destroy needs).
func Spec(op Op, file string, res *pipeline.Result) error {
	switch {
	case res.Cluster == nil:
		return refuse("%s: not deployed: %s", file, res.Summary())
	case op != Destroy && res.Failed():
		return refuse("%s: not deployed: %s (fix them, or see `slurmspec lint`)", file, res.Summary())
	}
	return nil
}

// DestroyConfirmed refuses a destroy the user did not confirm (--yes).
func DestroyConfirmed(yes bool, cluster, stack string) error {
	if yes {
		return nil
	}
	return refuse("destroy deletes cluster %s and every resource of stack %s: pass --yes", cluster, stack)
}

// Unmanaged refuses an up of a stack that has the cluster but not the
// resources named, which exist in Google Cloud already (a create would
// collide with them): `slurmspec deploy refresh` adopts them.
func Unmanaged(stack string, unmanaged []string) error {
	if len(unmanaged) == 0 {
		return nil
	}
	return refuse("stack %s has the cluster but not %s, which already exist in Google Cloud (the cluster uses them): run `slurmspec deploy refresh` with the same flags to adopt them, or leave out the options that create them", stack, strings.Join(unmanaged, ", "))
}

// DeployedReader reads the inputs a stack last deployed its cluster with
// (driver.Stack.Deployed); found is false when it has no cluster.
type DeployedReader interface {
	Deployed(ctx context.Context) (inputs map[string]any, found bool, err error)
}

// Impact is what an update does to the cluster a stack deployed, known
// before Pulumi plans it.
type Impact struct {
	// Deployed is false when the stack has no cluster yet (up creates it).
	Deployed bool
	// Unknown is why the impact is unknown: the inputs the stack
	// recorded cannot be rendered. Nil when known.
	Unknown error
	// Report compares the deployed cluster with the spec (nil when not
	// deployed, or unknown).
	Report *diff.Report
}

// Assess renders the cluster the stack deployed and the spec, and
// compares them as `slurmspec diff` does. name is the spec's cluster
// resource name (a changed name is a replacement).
func Assess(ctx context.Context, st DeployedReader, res *pipeline.Result, name string) (Impact, error) {
	inputs, found, err := st.Deployed(ctx)
	if err != nil || !found {
		return Impact{}, err
	}
	version := res.Settings.SlurmVersion()
	newSet, err := artifacts.Rendered(res.Cluster, version)
	if err != nil {
		return Impact{}, err
	}
	oldSet, oldName, err := artifacts.RenderDeployed(inputs, version)
	if err != nil {
		return Impact{Deployed: true, Unknown: err}, nil
	}
	report, err := diff.CompareWith(oldSet, newSet, diff.Options{SlurmVersion: version, Target: res.Settings.Target().String(), OldName: oldName, NewName: name})
	if err != nil {
		return Impact{}, err
	}
	return Impact{Deployed: true, Report: report}, nil
}

// Gate says whether up needs confirmation (--yes), and why.
type Gate struct {
	// Reasons are why, one clause each; none when up needs no
	// confirmation.
	Reasons []string
}

// Confirm is the gate of an update of impact imp whose plan replaces or
// deletes destroys resources (driver.Plan.Destroys): an unknown impact,
// an impact of Gated or more, and any resource Pulumi would replace or
// delete need confirmation.
func Confirm(imp Impact, destroys int) Gate {
	var g Gate
	switch {
	case imp.Unknown != nil:
		g.Reasons = append(g.Reasons, "the update's impact is unknown")
	case imp.Report != nil && imp.Report.MaxImpact() >= Gated:
		g.Reasons = append(g.Reasons, imp.Report.Summary())
	}
	if destroys > 0 {
		g.Reasons = append(g.Reasons, fmt.Sprintf("Pulumi would replace or delete %s", diag.Plural(destroys, "resource")))
	}
	return g
}

// NeedsYes reports whether up needs confirmation.
func (g Gate) NeedsYes() bool { return len(g.Reasons) > 0 }

// Reason is every reason on one line.
func (g Gate) Reason() string { return strings.Join(g.Reasons, "; ") }

// Up refuses an update of stack that needs confirmation the user did not
// give (yes: --yes).
func (g Gate) Up(yes bool, stack string) error {
	if !g.NeedsYes() || yes {
		return nil
	}
	return refuse("not updating stack %s: %s; pass --yes to accept", stack, g.Reason())
}
