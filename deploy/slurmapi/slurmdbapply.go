package slurmapi

// Applying an accounting plan through slurmrestd's /slurmdb/ endpoints:
// each operation of the plan becomes one or two calls (POST qos, accounts,
// accounts_association, users, associations to add and modify; DELETE to
// remove), with the JSON fields the reads in slurmdb.go decode.

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/slurmspec/slurmspec/compiler/shellquote"
	"github.com/slurmspec/slurmspec/render/sacctmgr"
)

// ApplyAccounting applies plan to the database of the Slurm cluster named
// cluster (its ClusterName), in the plan's order. It stops at the first
// call slurmrestd refuses, with an error naming the operation and
// wrapping the *Error; the operations before it are applied.
//
// A plan that removes an association of a user who stays is refused before
// any call: slurmrestd removes one only with a query string (DELETE
// /slurmdb/v0.0.42/associations?account=…&user=…), which the Slurm Job
// API's path is not documented to carry; the error says which to remove
// with sacctmgr.
func (c *Client) ApplyAccounting(ctx context.Context, plan *sacctmgr.Plan, cluster string) error {
	if err := assocRemovals(plan); err != nil {
		return err
	}
	a := &applier{c: c, ctx: ctx, cluster: cluster}
	for i, op := range plan.Ops {
		err := a.op(op)
		if err == nil && (i+1 == len(plan.Ops) || !sameStage(op, plan.Ops[i+1])) {
			err = a.flush()
		}
		if err != nil {
			return fmt.Errorf("%s %s: %w", op.Action, op.Entity, err)
		}
	}
	return nil
}

// applier applies a plan's operations one by one, holding back what must
// wait for later ones.
type applier struct {
	c       *Client
	ctx     context.Context
	cluster string
	// preempts are the preempt lists of added QOS, defaults the default
	// accounts of users, to post once their stage is done.
	preempts, defaults []map[string]any
}

const slurmdb = "/slurmdb/" + Version + "/"

// post sends one object to a /slurmdb/ list endpoint.
func (a *applier) post(path string, obj map[string]any) error {
	return a.c.call(a.ctx, "POST", slurmdb+path, map[string]any{path: []any{obj}}, nil)
}

// op applies one operation.
func (a *applier) op(op sacctmgr.Op) error {
	k := op.Key
	switch {
	case op.Action == sacctmgr.Remove:
		return a.c.call(a.ctx, "DELETE", removePath(k), nil, nil)
	case k.Kind == sacctmgr.KindQOS:
		return a.qos(op)
	case k.Kind == sacctmgr.KindAccount:
		return a.account(op)
	case k.Kind == sacctmgr.KindUser:
		u := map[string]any{"name": k.Name}
		for _, ch := range op.Changes {
			if ch.Field == "DefaultAccount" {
				// The default account needs the user's association with
				// it: set once the associations are added.
				a.defaults = append(a.defaults, map[string]any{"name": k.Name, "default": map[string]any{"account": ch.New}})
				continue
			}
			if err := setField(u, ch); err != nil {
				return err
			}
		}
		return a.post("users", u)
	}
	as := map[string]any{"account": k.Account, "user": k.Name, "partition": k.Partition, "cluster": a.cluster}
	for _, ch := range op.Changes {
		if err := setField(as, ch); err != nil {
			return err
		}
	}
	return a.post("associations", as)
}

// qos adds or modifies a QOS; an added QOS's preempt list waits, since it
// may name a QOS added after it.
func (a *applier) qos(op sacctmgr.Op) error {
	q := map[string]any{"name": op.Key.Name}
	for _, ch := range op.Changes {
		obj := q
		if ch.Field == "Preempt" && op.Action == sacctmgr.Add {
			obj = map[string]any{"name": op.Key.Name}
			a.preempts = append(a.preempts, obj)
		}
		if err := setField(obj, ch); err != nil {
			return err
		}
	}
	return a.c.postQOS(a.ctx, q, op.Action == sacctmgr.Modify)
}

// account adds an account (accounts_association, which leaves the
// association's parent, share, QOS and limits out, then its association)
// or modifies one (its description on the account, the rest on its
// association).
func (a *applier) account(op sacctmgr.Op) error {
	k := op.Key
	as := map[string]any{"account": k.Name, "cluster": a.cluster, "user": "", "partition": ""}
	var descr *string
	for _, ch := range op.Changes {
		if ch.Field == "Description" {
			descr = &ch.New
			continue
		}
		if err := setField(as, ch); err != nil {
			return err
		}
	}
	if op.Action == sacctmgr.Add {
		acct := map[string]any{"name": k.Name, "description": k.Name, "organization": k.Name}
		if descr != nil {
			acct["description"] = *descr
		}
		err := a.c.call(a.ctx, "POST", slurmdb+"accounts_association", map[string]any{
			"association_condition": map[string]any{"accounts": []string{k.Name}, "clusters": []string{a.cluster}},
			"account":               acct}, nil)
		if err != nil {
			return err
		}
	} else if descr != nil {
		if err := a.post("accounts", map[string]any{"name": k.Name, "description": *descr}); err != nil {
			return err
		}
	}
	if len(as) == 4 { // nothing to set on the association
		return nil
	}
	return a.post("associations", as)
}

// flush sends the preempt lists and default accounts held back.
func (a *applier) flush() error {
	for _, p := range a.preempts {
		if err := a.c.postQOS(a.ctx, p, true); err != nil {
			return fmt.Errorf("preempt list of qos %v: %w", p["name"], err)
		}
	}
	a.preempts = nil
	for _, d := range a.defaults {
		if err := a.post("users", d); err != nil {
			return fmt.Errorf("default account of user %v: %w", d["name"], err)
		}
	}
	a.defaults = nil
	return nil
}

// postQOS adds or modifies a QOS. slurmrestd sets a QOS to the object
// posted, its flags and preempt mode reset when left out (measured on
// 24.11 and 26.05), so a modification posts the QOS as read with the
// changed fields over it.
func (c *Client) postQOS(ctx context.Context, q map[string]any, modify bool) error {
	path := slurmdb + "qos"
	if modify {
		var cur struct {
			QOS []map[string]any `json:"qos"`
		}
		name, _ := q["name"].(string)
		if err := c.call(ctx, "GET", path+"/"+url.PathEscape(name), nil, &cur); err != nil {
			return err
		}
		if len(cur.QOS) != 1 {
			return &Error{Op: "GET " + path + "/" + name, Msg: fmt.Sprintf("slurmrestd answered with %d QOS, want 1", len(cur.QOS))}
		}
		merge(cur.QOS[0], q)
		q = cur.QOS[0]
	}
	return c.call(ctx, "POST", path, map[string]any{"qos": []any{q}}, nil)
}

// merge sets every field of src in dst, object by object.
func merge(dst, src map[string]any) {
	for k, v := range src {
		sv, ok := v.(map[string]any)
		dv, ok2 := dst[k].(map[string]any)
		if ok && ok2 {
			merge(dv, sv)
			continue
		}
		dst[k] = v
	}
}

// sameStage reports whether the operation next adds or modifies what op
// does, or the associations of a user op adds: preempt lists wait until
// every QOS is there, default accounts until the associations are.
func sameStage(op, next sacctmgr.Op) bool {
	if op.Action == sacctmgr.Remove || next.Action != op.Action {
		return false
	}
	return next.Key.Kind == op.Key.Kind || op.Key.Kind == sacctmgr.KindUser && next.Key.Kind == sacctmgr.KindAssoc
}

// AssocRemovalError is a plan that removes associations of users who stay,
// which ApplyAccounting cannot do through the Slurm Job API.
type AssocRemovalError struct {
	// Commands are the sacctmgr commands that remove them.
	Commands []string
}

func (e *AssocRemovalError) Error() string {
	return "the plan removes associations, which the Slurm Job API cannot (slurmrestd takes them in a query string); nothing applied: remove them on the login node with " +
		strings.Join(e.Commands, "; ") + ", then apply again"
}

// assocRemovals refuses a plan that removes an association.
func assocRemovals(plan *sacctmgr.Plan) error {
	var cmds []string
	for _, op := range plan.Ops {
		if k := op.Key; op.Action == sacctmgr.Remove && k.Kind == sacctmgr.KindAssoc {
			cmd := "sacctmgr -i delete user " + shellquote.Word(k.Name) + " account=" + shellquote.Word(k.Account)
			if k.Partition != "" {
				cmd += " partition=" + shellquote.Word(k.Partition)
			}
			cmds = append(cmds, "`"+cmd+"`")
		}
	}
	if cmds != nil {
		return &AssocRemovalError{Commands: cmds}
	}
	return nil
}

// removePath is the DELETE of a QOS, account or user.
func removePath(k sacctmgr.Key) string {
	switch k.Kind {
	case sacctmgr.KindQOS:
		return slurmdb + "qos/" + url.PathEscape(k.Name)
	case sacctmgr.KindAccount:
		return slurmdb + "account/" + url.PathEscape(k.Name)
	case sacctmgr.KindUser:
		return slurmdb + "user/" + url.PathEscape(k.Name)
	}
	return "" // associations: refused by assocRemovals
}

// qosFlagNames maps sacctmgr's QOS flag names to slurmrestd's.
var qosFlagNames = func() map[string]string {
	m := map[string]string{}
	for _, f := range qosFlags {
		m[strings.ToLower(f[1])] = f[0]
	}
	return m
}()

// setField sets one field of an operation in a v0.0.42 object (a QOS,
// an association or a user), at the place slurmdb.go reads it from.
func setField(obj map[string]any, ch sacctmgr.FieldChange) error {
	v := ch.New
	switch ch.Field {
	case "Priority":
		return setNumber(obj, v, "priority")
	case "Preempt":
		return put(obj, list(v), "preempt", "list")
	case "PreemptMode":
		var modes []string
		for _, m := range list(v) {
			if m = strings.ToUpper(m); m == "CLUSTER" || m == "OFF" {
				m = "DISABLED"
			}
			modes = append(modes, m)
		}
		return put(obj, modes, "preempt", "mode")
	case "Flags":
		flags := []string{}
		for _, f := range list(v) {
			n, ok := qosFlagNames[strings.ToLower(f)]
			if !ok {
				return fmt.Errorf("QOS flag %q is not one slurmspec sets through the Slurm Job API", f)
			}
			flags = append(flags, n)
		}
		return put(obj, flags, "flags")
	case "UsageFactor":
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return fmt.Errorf("UsageFactor %q is not a number", v)
		}
		return put(obj, map[string]any{"set": true, "number": f}, "usage_factor")
	case "AdminLevel":
		return put(obj, []string{v}, "administrator_level")
	case "DefaultAccount":
		return put(obj, v, "default", "account")
	case "Parent":
		return put(obj, v, "parent_account")
	case "Fairshare":
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return fmt.Errorf("fairshare %q: only a number is set through the Slurm Job API", v)
		}
		return put(obj, n, "shares_raw")
	case "QOS":
		return put(obj, list(v), "qos")
	case "DefaultQOS":
		return put(obj, v, "default", "qos")
	}
	if _, isQOS := obj["name"]; isQOS {
		if p, ok := qosLimits[ch.Field]; ok {
			return setLimit(obj, ch, p)
		}
	} else if p, ok := assocLimits[ch.Field]; ok {
		return setLimit(obj, ch, p)
	}
	return fmt.Errorf("field %s is not one slurmspec sets through the Slurm Job API", ch.Field)
}

// Where the limits are in a QOS and in an association (slurmdb.go).
var (
	qosLimits = map[string][]string{
		"GrpTRES": {"limits", "max", "tres", "total"}, "GrpJobs": {"limits", "max", "active_jobs", "count"},
		"MaxTRES": {"limits", "max", "tres", "per", "job"}, "MaxTRESPerUser": {"limits", "max", "tres", "per", "user"},
		"MaxWall": {"limits", "max", "wall_clock", "per", "job"}, "MaxJobsPerUser": {"limits", "max", "jobs", "active_jobs", "per", "user"},
		"MaxSubmitJobsPerUser": {"limits", "max", "jobs", "per", "user"},
	}
	assocLimits = map[string][]string{
		"GrpTRES": {"max", "tres", "total"}, "GrpJobs": {"max", "jobs", "per", "count"},
		"MaxTRES": {"max", "tres", "per", "job"}, "MaxWall": {"max", "jobs", "per", "wall_clock"},
		"MaxJobs": {"max", "jobs", "active"}, "MaxSubmitJobs": {"max", "jobs", "total"},
	}
)

// setLimit sets a limit: a TRES list (the TRES the old value names and
// the new one does not at -1, which clears them), a count or a wall time
// in minutes (unlimited when the value is).
func setLimit(obj map[string]any, ch sacctmgr.FieldChange, path []string) error {
	if strings.Contains(ch.Field, "TRES") {
		items := []map[string]any{}
		named := map[string]bool{}
		for _, item := range strings.Split(ch.New, ",") {
			name, size, ok := strings.Cut(strings.TrimSpace(item), "=")
			if !ok {
				continue
			}
			n, ok := tresCount(name, size)
			if !ok {
				return fmt.Errorf("%s: %q is not a TRES count", ch.Field, item)
			}
			named[strings.ToLower(name)] = true
			items = append(items, tresItem(name, n))
		}
		for _, item := range strings.Split(ch.Old, ",") {
			name, _, ok := strings.Cut(strings.TrimSpace(item), "=")
			if ok && !named[strings.ToLower(name)] {
				items = append(items, tresItem(name, -1))
			}
		}
		return put(obj, items, path...)
	}
	return setNumber(obj, sacctmgr.Normal(ch.Field, ch.New), path...)
}

func tresItem(name string, n int64) map[string]any {
	typ, sub, _ := strings.Cut(name, "/")
	return map[string]any{"type": typ, "name": sub, "count": n}
}

// tresCount reads a TRES size: memory in MiB (a bare number, or with a K,
// M, G, T or P suffix), a count otherwise.
func tresCount(name, size string) (int64, bool) {
	norm := sacctmgr.Normal("GrpTRES", name+"="+size) // size in KiB
	_, kib, ok := strings.Cut(norm, "=")
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(kib, 10, 64)
	if err != nil {
		return 0, false
	}
	return n / 1024, true
}

// setNumber sets slurmrestd's optional number; "" is unlimited.
func setNumber(obj map[string]any, v string, path ...string) error {
	if v == "" || strings.EqualFold(v, "UNLIMITED") {
		return put(obj, map[string]any{"set": true, "infinite": true, "number": 0}, path...)
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return fmt.Errorf("%s %q is not a number", path[len(path)-1], v)
	}
	return put(obj, map[string]any{"set": true, "number": n}, path...)
}

// put sets obj[path...] = v, making the objects on the way.
func put(obj map[string]any, v any, path ...string) error {
	for _, p := range path[:len(path)-1] {
		next, ok := obj[p].(map[string]any)
		if !ok {
			next = map[string]any{}
			obj[p] = next
		}
		obj = next
	}
	obj[path[len(path)-1]] = v
	return nil
}

// list splits a comma-separated list, leaving out empty items.
func list(v string) []string {
	out := []string{}
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}
