package slurmapi

// Reading the accounting database through slurmrestd's /slurmdb/
// endpoints (the caller must be a Slurm operator or administrator to see
// every user): QOS, accounts, users and associations, decoded only for
// the fields an accounting plan compares and converted into the rows of
// render/sacctmgr's state, with values as sacctmgr shows them. Field
// places in v0.0.42 were read off slurmdbd 24.11 and 26.05 answers after
// sacctmgr set each field (accounting_real_test.go).

import (
	"context"
	"sort"
	"strconv"
	"strings"

	"github.com/slurmspec/slurmspec/render/sacctmgr"
)

// Float is slurmrestd's optional floating-point number.
type Float struct {
	Set      bool    `json:"set"`
	Infinite bool    `json:"infinite"`
	Number   float64 `json:"number"`
}

// TRES is one item of a TRES list: type "gres", name "gpu", count 8.
type TRES struct {
	Type  string `json:"type"`
	Name  string `json:"name"`
	Count int64  `json:"count"`
}

// tresString writes a TRES list as sacctmgr shows it: in slurmdbd's
// order, memory in the largest unit that divides it (mem=1G).
func tresString(ts []TRES) string {
	items := make([]string, 0, len(ts))
	for _, t := range ts {
		name := t.Type
		if t.Name != "" {
			name += "/" + t.Name
		}
		n := strconv.FormatInt(t.Count, 10)
		if t.Type == "mem" || t.Type == "bb" {
			n = memUnits(t.Count)
		}
		items = append(items, name+"="+n)
	}
	return strings.Join(items, ",")
}

// memUnits writes a size in MiB as sacctmgr does: 1000M, 1G, 3T.
func memUnits(mib int64) string {
	units := "MGTP"
	i := 0
	for mib != 0 && mib%1024 == 0 && i < len(units)-1 {
		mib /= 1024
		i++
	}
	return strconv.FormatInt(mib, 10) + units[i:i+1]
}

// dbQOS is what the client reads of a QOS.
type dbQOS struct {
	Name     string   `json:"name"`
	Flags    []string `json:"flags"`
	Priority Number   `json:"priority"`
	Preempt  struct {
		List []string `json:"list"`
		Mode []string `json:"mode"`
	} `json:"preempt"`
	UsageFactor Float `json:"usage_factor"`
	Limits      struct {
		Max struct {
			ActiveJobs struct {
				Count Number `json:"count"`
			} `json:"active_jobs"`
			Jobs struct {
				ActiveJobs struct {
					Per struct {
						User Number `json:"user"`
					} `json:"per"`
				} `json:"active_jobs"`
				Per struct {
					User Number `json:"user"`
				} `json:"per"`
			} `json:"jobs"`
			TRES struct {
				Total []TRES `json:"total"`
				Per   struct {
					Job  []TRES `json:"job"`
					User []TRES `json:"user"`
				} `json:"per"`
			} `json:"tres"`
			WallClock struct {
				Per struct {
					Job Number `json:"job"`
				} `json:"per"`
			} `json:"wall_clock"`
		} `json:"max"`
	} `json:"limits"`
}

// qosFlags are slurmrestd's QOS flags with the names sacctmgr shows, in
// the order it shows them (slurmdb_qos_flags_str).
var qosFlags = [][2]string{
	{"DENY_LIMIT", "DenyOnLimit"}, {"ENFORCE_USAGE_THRESHOLD", "EnforceUsageThreshold"}, {"NO_RESERVE", "NoReserve"},
	{"PARTITION_MAXIMUM_NODE", "PartitionMaxNodes"}, {"PARTITION_MINIMUM_NODE", "PartitionMinNodes"},
	{"OVERRIDE_PARTITION_QOS", "OverPartQOS"}, {"PARTITION_TIME_LIMIT", "PartitionTimeLimit"},
	{"REQUIRED_RESERVATION", "RequiresReservation"}, {"NO_DECAY", "NoDecay"}, {"USAGE_FACTOR_SAFE", "UsageFactorSafe"},
	{"RELATIVE", "Relative"},
}

func (q dbQOS) row() sacctmgr.Row {
	has := map[string]bool{}
	for _, f := range q.Flags {
		has[f] = true
	}
	var flags []string
	for _, f := range qosFlags {
		if has[f[0]] {
			flags = append(flags, f[1])
			delete(has, f[0])
		}
	}
	var unknown []string
	for f := range has {
		if f != "NOT_SET" && f != "NONE" {
			unknown = append(unknown, f) // a flag this client does not know: a difference the plan shows
		}
	}
	sort.Strings(unknown)
	flags = append(flags, unknown...)
	// PreemptMode: a QOS without one (0, DISABLED in v0.0.42) takes the
	// cluster's, which sacctmgr shows as "cluster".
	mode := make([]string, 0, len(q.Preempt.Mode))
	for _, m := range q.Preempt.Mode {
		if m != "DISABLED" {
			mode = append(mode, strings.ToLower(m))
		}
	}
	if len(mode) == 0 {
		mode = []string{"cluster"}
	}
	usage := ""
	if q.UsageFactor.Set && !q.UsageFactor.Infinite {
		usage = strconv.FormatFloat(q.UsageFactor.Number, 'f', 6, 64) // sacctmgr's %f
	}
	m := q.Limits.Max
	return sacctmgr.Row{Kind: sacctmgr.KindQOS, Fields: map[string]string{
		"Name":                 q.Name,
		"Priority":             q.Priority.String(),
		"Preempt":              strings.Join(q.Preempt.List, ","),
		"PreemptMode":          strings.Join(mode, ","),
		"Flags":                strings.Join(flags, ","),
		"UsageFactor":          usage,
		"GrpTRES":              tresString(m.TRES.Total),
		"GrpJobs":              m.ActiveJobs.Count.String(),
		"MaxTRES":              tresString(m.TRES.Per.Job),
		"MaxTRESPerUser":       tresString(m.TRES.Per.User),
		"MaxWall":              m.WallClock.Per.Job.String(),
		"MaxJobsPerUser":       m.Jobs.ActiveJobs.Per.User.String(),
		"MaxSubmitJobsPerUser": m.Jobs.Per.User.String(),
	}}
}

// dbAccount is what the client reads of an account.
type dbAccount struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// dbUser is what the client reads of a user.
type dbUser struct {
	Name       string   `json:"name"`
	AdminLevel []string `json:"administrator_level"`
}

// dbAssoc is what the client reads of an association. The v0.0.42 names
// are not sacctmgr's: max.jobs.per.count is GrpJobs, max.jobs.active
// MaxJobs, max.jobs.total MaxSubmitJobs, max.jobs.per.wall_clock MaxWall.
type dbAssoc struct {
	Account   string   `json:"account"`
	Cluster   string   `json:"cluster"`
	User      string   `json:"user"`
	Partition string   `json:"partition"`
	Parent    string   `json:"parent_account"`
	IsDefault bool     `json:"is_default"`
	Shares    *int64   `json:"shares_raw"`
	QOS       []string `json:"qos"`
	Default   struct {
		QOS string `json:"qos"`
	} `json:"default"`
	Max struct {
		Jobs struct {
			Active Number `json:"active"`
			Total  Number `json:"total"`
			Per    struct {
				Count     Number `json:"count"`
				WallClock Number `json:"wall_clock"`
			} `json:"per"`
		} `json:"jobs"`
		TRES struct {
			Total []TRES `json:"total"`
			Per   struct {
				Job []TRES `json:"job"`
			} `json:"per"`
		} `json:"tres"`
	} `json:"max"`
}

func (a dbAssoc) row() sacctmgr.Row {
	share := ""
	if a.Shares != nil {
		share = strconv.FormatInt(*a.Shares, 10)
	}
	m := a.Max
	return sacctmgr.Row{Kind: sacctmgr.KindAssoc, Fields: map[string]string{
		"Cluster": a.Cluster, "Account": a.Account, "User": a.User, "Partition": a.Partition,
		"Parent":        a.Parent,
		"Fairshare":     share,
		"QOS":           strings.Join(a.QOS, ","),
		"DefaultQOS":    a.Default.QOS,
		"GrpTRES":       tresString(m.TRES.Total),
		"GrpJobs":       m.Jobs.Per.Count.String(),
		"MaxTRES":       tresString(m.TRES.Per.Job),
		"MaxWall":       m.Jobs.Per.WallClock.String(),
		"MaxJobs":       m.Jobs.Active.String(),
		"MaxSubmitJobs": m.Jobs.Total.String(),
	}}
}

// Accounting reads the accounting database (every QOS, account, user and
// association slurmdbd holds) as the state an accounting plan compares
// with the file: the state a capture of sacctmgr's output gives
// (sacctmgr.ParseCapture). A user's default account is the account of
// their default association.
func (c *Client) Accounting(ctx context.Context) (*sacctmgr.State, error) {
	var q struct {
		QOS []dbQOS `json:"qos"`
	}
	var a struct {
		Accounts []dbAccount `json:"accounts"`
	}
	var u struct {
		Users []dbUser `json:"users"`
	}
	var as struct {
		Associations []dbAssoc `json:"associations"`
	}
	for _, r := range []struct {
		path string
		out  any
	}{{"qos", &q}, {"accounts", &a}, {"users", &u}, {"associations", &as}} {
		if err := c.call(ctx, "GET", "/slurmdb/"+Version+"/"+r.path, nil, r.out); err != nil {
			return nil, err
		}
	}
	var rows []sacctmgr.Row
	for _, x := range q.QOS {
		rows = append(rows, x.row())
	}
	for _, x := range a.Accounts {
		rows = append(rows, sacctmgr.Row{Kind: sacctmgr.KindAccount, Fields: map[string]string{"Account": x.Name, "Description": x.Description}})
	}
	defaults := map[string]string{}
	for _, x := range as.Associations {
		if x.User != "" && x.IsDefault {
			defaults[x.User] = x.Account
		}
		rows = append(rows, x.row())
	}
	for _, x := range u.Users {
		rows = append(rows, sacctmgr.Row{Kind: sacctmgr.KindUser, Fields: map[string]string{
			"User": x.Name, "DefaultAccount": defaults[x.Name], "AdminLevel": strings.Join(x.AdminLevel, ",")}})
	}
	s, err := sacctmgr.FromRows(rows)
	if err != nil {
		return nil, &Error{Op: "GET /slurmdb/" + Version + "/associations", Msg: oneLine(err.Error())}
	}
	return s, nil
}
